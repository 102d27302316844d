// keyboard.js — shortcuts for everything in the dock: ←/→, Home/End, Space, 1..9, r, i, o, ?,
// and the teaching tools: b (bug mode menu), x (explorer), f (predict), p (presenter), and in
// presenter mode PageDown/PageUp (what clickers send) step.
// Inactive while typing in a field, in a radio group (its arrows choose), inside a header menu,
// or while an overlay is open (Esc closes overlays natively).

function typing(target) {
  if (!target || !(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") return !["button", "checkbox", "submit"].includes(target.type);
  if (target.closest(".popover")) return true;
  return false;
}

/** handlers: {back, step, first, last, togglePlay, action(i), recover, help, inject, open,
 *  bugMenu, explore, presenter, predict, presenting() → bool} */
export function installKeyboard(handlers) {
  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    if (typing(ev.target)) return;
    const onButton = ev.target instanceof Element && (ev.target.tagName === "BUTTON" || ev.target.tagName === "A" || ev.target.tagName === "SUMMARY");
    let done = true;
    switch (ev.key) {
      case "ArrowRight": handlers.step(); break;
      case "ArrowLeft": handlers.back(); break;
      case "Home": handlers.first(); break;
      case "End": handlers.last(); break;
      case " ":
      case "Spacebar":
        if (onButton) { done = false; break; } // Space activates the focused button
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
      case "PageDown":
        if (handlers.presenting?.()) handlers.step(); else done = false;
        break;
      case "PageUp":
        if (handlers.presenting?.()) handlers.back(); else done = false;
        break;
      default:
        if (/^[1-9]$/.test(ev.key)) handlers.action(Number(ev.key) - 1);
        else done = false;
    }
    if (done) ev.preventDefault();
  });
}
