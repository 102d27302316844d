// keyboard.js — shortcuts for everything in the dock: ←/→, Home/End, Space, 1..9, r, i, o, ?,
// and the teaching tools: b (bug mode menu), x (explorer), f (predict), p (presenter), c (the code
// map), and PageDown/PageUp (what clickers send): back, and next (at a predict quiz, next reveals the
// answer; the next PageDown steps on).
//
// Every key works wherever focus is, with three exceptions: in a text field (an input you type
// in, a textarea such as the editor, anything editable) no key is taken; a focused control keeps
// the keys it needs itself (Space and Enter on a button or link, ↑/↓ and Space on a select, the
// arrows and Space in a radio group, the arrows, Home/End and PageUp/PageDown on the timeline's
// slider, Space on a checkbox); and while a dialog is open its keys are its own (Esc closes it).
// After a choice in a dropdown (a select outside a dialog) and when a dialog closes onto nothing,
// focus returns to the stage, so the arrows and Space step and play again.

const TYPED = new Set(["text", "search", "number", "email", "url", "tel", "password", "date", "time",
  "datetime-local", "month", "week", ""]);

function textField(t) {
  if (t.isContentEditable) return true;
  if (t.tagName === "TEXTAREA") return true;
  return t.tagName === "INPUT" && TYPED.has(t.type);
}

function inClosedDialog(t) {
  const d = t.closest("dialog");
  return !!d && !d.open;
}

/** Keys a focused control handles itself (they are not shortcuts there). */
function nativeKey(t, key) {
  const space = key === " " || key === "Spacebar";
  const arrows = key === "ArrowLeft" || key === "ArrowRight" || key === "ArrowUp" || key === "ArrowDown";
  switch (t.tagName) {
    case "BUTTON": case "A": case "SUMMARY": return space || key === "Enter";
    case "SELECT": return space || key === "ArrowUp" || key === "ArrowDown" || key === "Enter";
    case "INPUT":
      switch (t.type) {
        case "radio": return space || arrows;
        case "checkbox": return space;
        case "range": return arrows || key === "Home" || key === "End" || key === "PageUp" || key === "PageDown";
        case "file": case "button": case "submit": case "reset": case "color": return space || key === "Enter";
      }
  }
  return false;
}

/** Give the keys back to the stage (its arrows step and Space plays). */
export function focusStage() {
  const stage = document.getElementById("stage");
  if (stage) stage.focus({ preventScroll: true });
}

/** After a dialog closes: if focus went nowhere (the page, or something now hidden), the stage. */
export function returnFocus() {
  setTimeout(() => {
    const a = document.activeElement;
    if (document.querySelector("dialog[open]")) return;
    if (!a || a === document.body || a === document.documentElement || !a.isConnected || a.closest("[hidden]") || !a.getClientRects().length) focusStage();
  }, 0);
}

/** handlers: {back, step, next (a clicker's forward: step, or reveal a predict quiz's answer),
 *  first, last, togglePlay, action(i), recover, help, inject, open, bugMenu, explore, presenter,
 *  predict, diagnose, page(dir) → bool (handled: a lesson's stops and sections)} */
export function installKeyboard(handlers) {
  // A choice made in a dropdown outside a dialog gives the keys back to the stage.
  document.addEventListener("change", (ev) => {
    const t = ev.target;
    if (t instanceof HTMLSelectElement && !t.closest("dialog")) setTimeout(focusStage, 0);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    // (a key pressed just after a dialog closed may still reach the field that was focused in
    // it, until the browser moves the focus away: that field is no longer where anyone types)
    const t = ev.target instanceof Element && !inClosedDialog(ev.target) ? ev.target : null;
    if (t && (textField(t) || nativeKey(t, ev.key))) return;
    let done = true;
    switch (ev.key) {
      case "ArrowRight": handlers.step(); break;
      case "ArrowLeft": handlers.back(); break;
      case "Home": handlers.first(); break;
      case "End": handlers.last(); break;
      case " ":
      case "Spacebar":
        handlers.togglePlay();
        break;
      case "r": case "R": handlers.recover(); break;
      case "i": handlers.inject(); break;
      case "o": handlers.open(); break;
      case "?": handlers.help(); break;
      case "b": handlers.bugMenu?.(); break;
      case "x": handlers.explore?.(); break;
      case "p": handlers.presenter?.(); break;
      case "f": handlers.predict?.(); break;
      case "d": handlers.diagnose?.(); break;
      case "c": handlers.codeMap?.(); break;
      case "PageDown":
        if (handlers.page?.(1)) break; // a lesson's stops and sections (lesson-bar.js)
        (handlers.next || handlers.step)();
        break;
      case "PageUp":
        if (handlers.page?.(-1)) break;
        handlers.back();
        break;
      default:
        if (/^[1-9]$/.test(ev.key)) handlers.action(Number(ev.key) - 1);
        else done = false;
    }
    if (done) ev.preventDefault();
  });
}
