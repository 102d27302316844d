// speaker-link.js — what the explainer window and its speaker-notes window say to each other
// over their BroadcastChannel (one channel per browser tab, named by an id in the speaker
// window's URL). The explainer sends {type: "view", …} (speakerMessage) after every change and
// {type: "main"} when it starts; the speaker window sends {type: "hello"} when it starts (or
// hears "main") and {type: "command", name, arg} for its keys and buttons ("action" with the
// index of the view's action it chose: a branch, as the main window's keys 1–9; "key" with a
// key of KEYS: the explainer window takes it as its own keyboard's).
//
// A lesson (when the explainer window has one open) rides in the view message as
// `lesson: {section, of, planned_minutes, title?, section_title?, section_minutes?, minutes?,
// goal?, release?, ask?, answer?, finished?, notes?, next_stop?, next_section?, stop?, stops?,
// started?, section_started?}` (null otherwise): planned_minutes is the time planned up to the end
// of this section, minutes the lesson's; ask and answer are the question for the room at this
// step; notes the section's notes; next_stop the step PageDown goes to in this section (0: none),
// else next_section the title of the next section; started and section_started the lesson's
// clock (Date.now of its start, kept over a reload: both windows count from it). presenter.setLesson(l), or a window event "explainer:lesson" whose detail is that
// object (null when the lesson closes; the lesson bar sends it), tells the explainer window's
// presenter mode; the speaker window shows the section, and its clock the plan.

/** Is this window the speaker-notes window (index.html?speaker=1&id=…)? It starts no engine. */
export function isSpeakerWindow(search = globalThis.location?.search ?? "") {
  return new URLSearchParams(search).get("speaker") === "1";
}

/** The commands a speaker window may send (names of the session's commands, and "key"). */
export const COMMANDS = ["step", "back", "first", "last", "goto", "togglePlay", "action", "key"];

/** The keys a speaker window passes on ({type: "command", name: "key", arg: KEY}): the explainer
 *  window takes each as if pressed there (a lesson's stops and sections, a predict quiz's answer),
 *  and B (or ".", as a clicker's blank button sends) blanks the projected screen or shows it again. */
export const KEYS = ["PageDown", "PageUp", "ArrowRight", "ArrowLeft", "Home", "End", " ", "b", "B", ".", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
export const BLANK_KEYS = ["b", "B", "."];

export function channelName(id) { return "backfill-explainer:speaker:" + id; }

/** The part of a view the speaker window shows: all of it the engine's text, nothing worked out. */
export function speakerMessage(view, presenting, lesson = null) {
  return {
    type: "view",
    presenting: !!presenting,
    title: String(view.title || ""),
    step: view.step ?? 0,
    steps: view.steps ?? 0,
    phase: String(view.phase || ""),
    epoch: view.epoch ?? 0,
    note: String(view.note || ""),
    next_note: String(view.next_note || ""),
    pause: !!view.pause,
    error: view.error ? String(view.error.message ?? "") : "",
    explanations: (view.explanations || []).map((e) => ({ kind: e.kind || "", text: String(e.text ?? "") })),
    actions: (view.actions || []).map((a) => ({ label: String(a.label || a.step || ""), kind: a.kind || "", scripted: !!a.scripted })),
    lesson: lessonInfo(lesson),
    // the code map's lines this step lit (codemap.js), with where they are in the release's file
    code: (view.code_map || []).filter((l) => (view.code_lit || []).includes(l.id)).map((l) => ({
      section: String(l.section || ""), text: String(l.text || ""),
      where: l.file ? `${l.file.split("/").pop()}:${l.lines[0]}${l.lines[1] !== l.lines[0] ? "-" + l.lines[1] : ""}` : "",
    })),
  };
}

/** The lesson part of the message (the fields above; numbers 0 and texts "" when missing) or null. */
export function lessonInfo(l) {
  if (!l || typeof l !== "object") return null;
  const n = (x) => (typeof x === "number" && Number.isFinite(x) && x > 0 ? x : typeof x === "string" && Number(x) > 0 ? Number(x) : 0);
  const t = (x) => (typeof x === "string" ? x : typeof x === "number" ? String(x) : "").slice(0, 20000);
  return {
    section: n(l.section), of: n(l.of), planned_minutes: n(l.planned_minutes), title: t(l.title),
    section_title: t(l.section_title), section_minutes: n(l.section_minutes), minutes: n(l.minutes),
    goal: t(l.goal), release: t(l.release), ask: t(l.ask), answer: t(l.answer), finished: l.finished === true,
    notes: t(l.notes), next_stop: n(l.next_stop), next_section: t(l.next_section), stop: n(l.stop), stops: n(l.stops),
    started: n(l.started), section_started: n(l.section_started),
  };
}

/** A view message as the speaker window received it, made well-formed whatever it holds: texts
 *  are strings (at most 20,000 characters), numbers whole and ≥ 0, lists arrays (at most 50). */
export function readView(d) {
  const o = d && typeof d === "object" ? d : {};
  const t = (x) => (typeof x === "string" ? x : x == null ? "" : typeof x === "object" ? "" : String(x)).slice(0, 20000);
  const n = (x) => (typeof x === "number" && Number.isFinite(x) && x >= 0 ? Math.floor(x) : 0);
  const list = (x) => (Array.isArray(x) ? x.slice(0, 50) : []);
  const obj = (x) => (x && typeof x === "object" ? x : {});
  return {
    type: "view", presenting: o.presenting === true, blank: o.blank === true,
    title: t(o.title), step: n(o.step), steps: n(o.steps), phase: t(o.phase).replace(/[^a-z_-]/gi, "").slice(0, 40),
    epoch: n(o.epoch), note: t(o.note), next_note: t(o.next_note), pause: o.pause === true, error: t(o.error),
    explanations: list(o.explanations).map((e) => ({ kind: t(obj(e).kind), text: t(obj(e).text) })),
    actions: list(o.actions).map((a) => ({ label: t(obj(a).label), kind: t(obj(a).kind), scripted: obj(a).scripted === true })),
    lesson: lessonInfo(o.lesson),
    code: list(o.code).map((c) => ({ section: t(obj(c).section), text: t(obj(c).text), where: t(obj(c).where) })),
  };
}
