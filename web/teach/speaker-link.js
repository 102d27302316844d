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
// goal?, release?, ask?, answer?}` (null otherwise): planned_minutes is the time planned up to
// the end of this section, minutes the lesson's; ask and answer are the question for the room at
// this step. presenter.setLesson(l), or a window event "explainer:lesson" whose detail is that
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
  const n = (x) => (Number.isFinite(Number(x)) && Number(x) > 0 ? Number(x) : 0);
  const t = (x) => String(x || "");
  return {
    section: n(l.section), of: n(l.of), planned_minutes: n(l.planned_minutes), title: t(l.title),
    section_title: t(l.section_title), section_minutes: n(l.section_minutes), minutes: n(l.minutes),
    goal: t(l.goal), release: t(l.release), ask: t(l.ask), answer: t(l.answer), finished: l.finished === true,
  };
}
