// presenter.js — presenter mode for a projector: large type and the protocol's panels only
// (style.css, :root.presenter), every panel the step changed whole (presenter-fit.js). The
// step's note is the speaker's: it is not on the projected screen but in a second window
// ("Speaker notes", index.html?speaker=1, speaker.js), kept in step with this one over a BroadcastChannel: this window sends it each
// view's note, narration and what can happen next; it sends back the commands its keys and
// buttons give (step, back …), which run here as any button's would.
import { h } from "../ui/dom.js";
import { speakerMessage, channelName, COMMANDS, KEYS, BLANK_KEYS } from "./speaker-link.js";
import { fitStage, fitsAt, unfit, underFloor, ARRANGEMENTS } from "./presenter-fit.js";
import { focusStage } from "../ui/keyboard.js";
import { namedPanels } from "./named-panels.js";

const ON_KEY = "backfill-explainer:presenter";
const ID_KEY = "backfill-explainer:speaker-id";

/** This tab's speaker channel id: kept for the tab's life, so a reload finds its speaker window. */
function tabId() {
  let id = null;
  try { id = sessionStorage.getItem(ID_KEY); } catch { /* storage blocked */ }
  if (!id || !/^[a-z0-9]{6,32}$/.test(id)) {
    id = Math.random().toString(36).slice(2, 12) || "tab";
    try { sessionStorage.setItem(ID_KEY, id); } catch { /* keep it in memory */ }
  }
  return id;
}

/**
 * createPresenter({tools, run(name, arg), idle()}) → {toggle, enabled, setEnabled(on), update(view), settle(), openSpeaker(), setLesson(l)}
 * `tools` is where presenter mode's own buttons go (Speaker notes, Exit); `run` runs a command of
 * the session (the speaker window's keys and buttons come through it) and returns its promise;
 * `idle` (optional) resolves when the engine calls queued so far are done (after a key).
 */
export function createPresenter({ tools, run, idle }) {
  let enabled = false;
  try { enabled = sessionStorage.getItem(ON_KEY) === "1"; } catch { /* ignore */ }
  let last = null;
  const id = tabId();
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(channelName(id)) : null;
  let listening = false; // a speaker window said hello: send it every view
  let lesson = null;      // the open lesson's {section, of, planned_minutes, title?} (speaker-link.js)

  const toggle = h("button", {
    type: "button", class: "btn toggle", "data-testid": "presenter", "aria-pressed": String(enabled),
    "aria-keyshortcuts": "p", title: "Presenter mode: large type for a projector, speaker notes in a second window, PageUp/PageDown step (p)",
    onclick: () => { setEnabled(!enabled); focusStage(); },
  }, h("span", { class: "tg-dot", "aria-hidden": "true" }), "Present");
  const speakerBtn = h("button", {
    type: "button", class: "btn small", "data-testid": "speaker-open",
    title: "Open the speaker notes in a window of their own (for the laptop, not the projector)",
    disabled: channel ? null : true, onclick: () => { openSpeaker(); focusStage(); },
  }, "Speaker notes");
  const exitBtn = h("button", {
    type: "button", class: "btn small", "data-testid": "presenter-exit", title: "Leave presenter mode (p)",
    onclick: () => { setEnabled(false); focusStage(); },
  }, "Exit presenter");
  tools?.append(speakerBtn, exitBtn);
  // B (or ".") in presenter mode, here or in the speaker window: the projected screen goes black
  // (a clicker's blank button); B again, a click or any other key shows it again.
  let blank = false;
  const blankEl = h("div", { class: "blank-screen", "data-testid": "blank-screen", hidden: true, onclick: () => setBlank(false) });
  document.body.append(blankEl);
  function setBlank(on) {
    blank = !!on;
    blankEl.hidden = !blank;
    send();
  }
  window.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || document.querySelector("dialog[open]")) return;
    const t = ev.target;
    if (t instanceof Element && t.closest("input, textarea, select, [contenteditable]")) return;
    if (blank && !["Shift", "Control", "Alt", "Meta"].includes(ev.key)) {
      ev.preventDefault(); ev.stopImmediatePropagation(); setBlank(false); return;
    }
    if (enabled && BLANK_KEYS.includes(ev.key)) { ev.preventDefault(); ev.stopImmediatePropagation(); setBlank(true); }
  }, true);
  // (each of these buttons gives the keys back to the stage once clicked: a clicker's or the
  // keyboard's Space then plays instead of pressing the button again)

  function setEnabled(on) {
    enabled = !!on;
    try { sessionStorage.setItem(ON_KEY, enabled ? "1" : "0"); } catch { /* ignore */ }
    toggle.setAttribute("aria-pressed", String(enabled));
    document.documentElement.classList.toggle("presenter", enabled);
    if (!enabled) unfit();
    if (last) { update(last); settle(); }
    if (enabled) window.dispatchEvent(new CustomEvent("explainer:presenter-on")); // (a lesson's section: lesson-bar.js)
  }

  // The speaker window hears the first change at once, then the latest once a frame (a burst of
  // its commands gives a burst of views here: it need not hear each one).
  let sendWaiting = false, sendAgain = false;
  function send() {
    if (!(channel && listening && last)) return;
    if (sendWaiting) { sendAgain = true; return; }
    channel.postMessage({ ...speakerMessage(last, enabled, lesson), blank });
    sendWaiting = true;
    let done = false;
    const next = () => {
      if (done) return;
      done = true;
      sendWaiting = false;
      if (sendAgain) { sendAgain = false; send(); }
    };
    requestAnimationFrame(next);
    setTimeout(next, 100);
  }

  /** Mark the panels the lesson names at this stop (.named): kept whole like the changed ones,
   *  never collapsed. The room's texts (the goal, the question) may name the tables presenter
   *  mode leaves out, which are then shown; the speaker's (the section's notes, the answer, the
   *  step's note) keep whole the panels the room sees, so that none they name is collapsed. */
  function markNamed() {
    const room = enabled && lesson ? namedPanels(`${lesson.goal || ""} ${lesson.ask || ""}`) : [];
    const speaker = enabled && lesson ? namedPanels(`${lesson.notes || ""} ${lesson.answer || ""} ${last?.note || ""}`) : [];
    for (const p of document.querySelectorAll("#stage .panel")) {
      const body = p.querySelector(":scope > .panel-body[data-testid]");
      const id = body?.dataset.testid;
      p.classList.toggle("named", !!id && (room.includes(id) || (speaker.includes(id) && !p.classList.contains("panel-extra"))));
    }
  }

  // (the stage is fitted by settle(), once the view is drawn whole: app.js calls it after the
  // glossary has made its words buttons, which can wrap a line differently)
  function update(view) {
    last = view;
    markNamed();
    send();
  }
  function settle() { if (enabled) fit(); }

  function openSpeaker() {
    const u = new URL(location.href);
    u.search = `?speaker=1&id=${id}`;
    u.hash = "";
    const w = window.open(u.href, "backfill-speaker-" + id, "popup,width=960,height=720");
    listening = true; // it says hello once started; until then this costs nothing
    return w;
  }

  // The speaker window's commands run one at a time, each after the frame that showed the one
  // before: a burst of them (a clicker's held key, a script) is not a burst of views here. The
  // steps (step, back, first, last, goto) that arrive while others wait join them and are one
  // move, to where they lead together (one goto; a step alone stays a step, which predict mode
  // may take over); a key or an action runs as it is, and past MAX_WAITING of them a key or an
  // action is dropped (2,000 commands used to draw 2,000 views: 26.7 s).
  const MAX_WAITING = 64;
  const MOVES = ["step", "back", "first", "last", "goto"];
  const waiting = []; // {name, arg}, or {moves: [{name, arg}, …]}
  let draining = false;
  const frame = () => new Promise((r) => { requestAnimationFrame(() => r()); setTimeout(r, 100); });
  function command(name, arg) {
    const tail = waiting[waiting.length - 1];
    if (MOVES.includes(name)) {
      if (tail?.moves) tail.moves.push({ name, arg });
      else waiting.push({ moves: [{ name, arg }] });
    } else if (waiting.length < MAX_WAITING) waiting.push({ name, arg });
    if (!draining) drain();
  }
  async function drain() {
    draining = true;
    try {
      while (waiting.length) {
        const c = waiting.shift();
        try {
          if (c.moves && c.moves.length > 1) await run("goto", target(c.moves));
          else if (c.moves) await run(c.moves[0].name, c.moves[0].arg);
          else if (c.name === "key") await keyHere(c.arg);
          else await run(c.name, c.arg);
        } catch { /* the session shows its own failures */ }
        await frame();
      }
    } finally { draining = false; }
  }
  /** where several moves lead from the step shown */
  function target(moves) {
    const steps = last?.steps ?? 0;
    let t = last?.step ?? 0;
    for (const { name, arg } of moves) {
      t = name === "step" ? t + 1 : name === "back" ? t - 1 : name === "first" ? 0 : name === "last" ? steps : arg;
      t = Math.max(0, Math.min(steps, t));
    }
    return t;
  }
  /** a key as if pressed here (keyboard.js): the same stops, sections and quiz answers either way */
  function keyHere(key) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
    return idle?.();
  }

  if (channel) {
    channel.addEventListener("message", (ev) => {
      const d = ev.data;
      if (!d || typeof d !== "object") return;
      if (d.type === "hello") { listening = true; send(); return; }
      if (d.type === "command" && d.name === "key") {
        if (typeof d.arg !== "string" || !KEYS.includes(d.arg)) return;
        if (BLANK_KEYS.includes(d.arg)) { setBlank(!blank); return; }
        command("key", d.arg);
        return;
      }
      if (d.type === "command" && COMMANDS.includes(d.name)) {
        const indexed = d.name === "goto" || d.name === "action";
        const arg = indexed ? Number(d.arg) : undefined;
        if (indexed && !(Number.isInteger(arg) && arg >= 0)) return;
        command(d.name, arg);
      }
    });
    channel.postMessage({ type: "main" }); // a speaker window left open from before a reload answers hello
  }

  document.documentElement.classList.toggle("presenter", enabled);
  // The stage's box changes with the window and with the side column (a predict quiz widens it):
  // fit again then, once the box has settled (not for the change a fit itself made).
  let fitted = "";
  const sizeOf = (r) => `${Math.round(r.width)}x${Math.round(r.height)}`;
  // A lesson section keeps one arrangement at all its stops (no type change from stop to stop):
  // as it opens, lesson-bar.js draws each of its stops once ("explainer:section-fit" start, a
  // "stop" after each, end), where the arrangements that cut nothing at the stops before are tried;
  // the section keeps the first that cuts nothing at any stop (none: the last, the smallest type),
  // for this window's size. A stop that nothing fits but type under the stage's floor (fit-under)
  // does not count: the section keeps the floor, and that stop alone goes under it (fitStage tries
  // on from the section's arrangement), rather than every stop of the section.
  let measuring = null;   // {alive, all}: the arrangements that cut nothing at the stops drawn so far (alive: those a stop under the floor left out; all: every stop)
  let sectionFit = null;  // {from, size}
  const windowSize = () => `${innerWidth}x${innerHeight}`;
  const fit = () => {
    if (measuring) return; // (each stop is measured once it is drawn whole: "stop" below)
    const from = sectionFit && sectionFit.size === windowSize() ? sectionFit.from : 0;
    fitStage(undefined, from);
    const s = document.getElementById("stage");
    fitted = s ? sizeOf(s.getBoundingClientRect()) : "";
  };
  window.addEventListener("explainer:section-fit", (ev) => {
    const root = document.documentElement;
    if (ev.detail === "start") {
      measuring = { alive: [...Array(ARRANGEMENTS).keys()], all: [...Array(ARRANGEMENTS).keys()], counted: 0 };
      sectionFit = null;
      delete root.dataset.sectionFit;
      return;
    }
    if (ev.detail === "stop") {
      if (!measuring || !enabled) return;
      const m = measuring, here = fitsAt(undefined, [...new Set([...m.alive, ...m.all])]);
      m.all = m.all.filter((i) => here.includes(i));
      const alive = m.alive.filter((i) => here.includes(i));
      if (alive.some((i) => !underFloor(i))) { m.alive = alive; m.counted++; }
      return;
    }
    if (ev.detail !== "end" || !measuring) return;
    const kept = measuring.counted ? measuring.alive : measuring.all;
    sectionFit = { from: kept[0] ?? ARRANGEMENTS - 1, size: windowSize() };
    measuring = null;
    root.dataset.sectionFit = String(sectionFit.from); // (tests wait for it)
    if (enabled) fit();
  });
  const stage = document.getElementById("stage");
  if (stage && typeof ResizeObserver === "function") {
    new ResizeObserver((entries) => {
      if (!enabled) return;
      if (sizeOf(entries[0].target.getBoundingClientRect()) !== fitted) fit();
    }).observe(stage);
  }
  /** The lesson open in this window, for the speaker window's clock (null: none). */
  function setLesson(l) {
    lesson = l && typeof l === "object" ? l : null;
    if (!lesson) { sectionFit = null; delete document.documentElement.dataset.sectionFit; }
    markNamed();
    if (enabled) fit();
    send();
  }
  window.addEventListener("explainer:lesson", (ev) => setLesson(ev.detail ?? null));
  return { toggle, get enabled() { return enabled; }, setEnabled, update, settle, openSpeaker, setLesson };
}
