// speaker.js — the speaker-notes window (index.html?speaker=1&id=…), opened by presenter mode's
// "Speaker notes" button for the presenter's own screen. It starts no engine: the explainer
// window sends it each view's note, narration and what can happen next (speaker-link.js), and it
// sends back its keys (PageDown/PageUp, →/←, Home/End, Space, B, 1–9: speaker-link.js KEYS),
// which the explainer window takes as its own (one driver: a lesson's stops and sections), and a
// click on a choice of what happens next (a branch), so either window moves both. It
// also shows the note of the step coming next (the view's next_note) and a clock
// (speaker-clock.js), with the lesson's planned time when the explainer window has one open, and
// then the lesson's section: n of m, its planned minutes, its goal and the question for the room
// at this step with its answer (the lesson bar's, lesson-bar.js).
// The projected window never shows the notes.
import { h, fill } from "../ui/dom.js";
import { channelName, KEYS, readView } from "./speaker-link.js";
import { KIND_LABEL } from "../stage/render-narration.js";
import { createClock } from "./speaker-clock.js";

export function startSpeaker() {
  const params = new URLSearchParams(location.search);
  const id = params.get("id") || "";
  const root = document.documentElement;
  root.classList.add("speaker");
  document.title = "Speaker notes — the backfill explainer";

  const clock = createClock(/^[a-z0-9]{1,32}$/.test(id) ? id : "none");
  const channel = /^[a-z0-9]{1,32}$/.test(id) && typeof BroadcastChannel === "function" ? new BroadcastChannel(channelName(id)) : null;
  const send = (name, arg) => channel?.postMessage({ type: "command", name, arg });
  // Every key is the explainer window's own (presenter.js runs it there): one lesson driver.
  const press = (key) => send("key", key);
  const parts = buildSpeakerPage(clock, press);
  const { status } = parts;

  if (!channel) {
    fill(status, channel === null && typeof BroadcastChannel !== "function"
      ? "This browser cannot link two windows (no BroadcastChannel)."
      : "This window was not opened by the explainer's Speaker notes button (its link has no id).");
    status.classList.add("bad");
    return;
  }
  listenForViews(channel, (v) => showView(parts, clock, v, send), status);

  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const onButton = ev.target instanceof Element && ev.target.closest("button");
    if (ev.key === " " && onButton) return; // (Space presses the button)
    const key = ev.key === "Spacebar" ? " " : ev.key;
    if (!KEYS.includes(key)) return;
    ev.preventDefault();
    press(key);
  });
}

/** buildSpeakerPage(clock, press(key)) → the window's parts, drawn: the head and clock, the lesson, the notes, the code, the next note, the controls, what can happen next, the narration, the status. */
function buildSpeakerPage(clock, press) {
  const status = h("p", { class: "sp-status", role: "status", "data-testid": "speaker-status" }, "Waiting for the explainer window…");
  const head = h("div", { class: "sp-head" });
  const notes = h("section", { class: "sp-notes", "data-testid": "speaker-notes", "aria-labelledby": "sp-notes-h" });
  const narration = h("section", { class: "sp-narration", "data-testid": "speaker-narration", "aria-labelledby": "sp-narr-h" });
  const next = h("section", { class: "sp-next", "data-testid": "speaker-next", "aria-labelledby": "sp-next-h" });
  const nextNote = h("section", { class: "sp-next-note", "data-testid": "speaker-next-note", "aria-labelledby": "sp-next-note-h" });
  const lesson = h("section", { class: "sp-lesson-box", "data-testid": "speaker-lesson-section", "aria-labelledby": "sp-lesson-h", hidden: true });
  const code = h("section", { class: "sp-code", "data-testid": "speaker-code", "aria-labelledby": "sp-code-h" });
  const btn = (label, key, icon, testid) => h("button", {
    type: "button", class: "btn sp-btn", "aria-keyshortcuts": key === "b" ? "B" : key, "data-testid": testid, onclick: () => press(key),
  }, icon ? h("span", { "aria-hidden": "true" }, icon) : null, label);

  const controls = h("nav", { class: "sp-controls", "aria-label": "Drive the explainer window" },
    btn("Back", "PageUp", "◀ ", "speaker-back"), btn("Next", "PageDown", "▶ ", "speaker-forward"), btn("Blank", "b", "■ ", "speaker-blank"),
    h("span", { class: "sp-hint", "data-testid": "speaker-hint" }, "Keys here act as in the explainer window: ",
      h("kbd", null, "PageDown"), " / ", h("kbd", null, "PageUp"), " (a clicker) the lesson's next or previous stop and section (the script's step without a lesson); ",
      h("kbd", null, "→"), " / ", h("kbd", null, "←"), " one step; ", h("kbd", null, "Home"), " / ", h("kbd", null, "End"), " the first or last step; ",
      h("kbd", null, "Space"), " play; ", h("kbd", null, "B"), " blanks the room's screen; ", h("kbd", null, "1"), "–", h("kbd", null, "9"), " choose what happens next."));
  document.body.replaceChildren(h("main", { class: "sp-page" }, h("div", { class: "sp-top" }, head, clock.el), lesson, notes, code, nextNote, controls, next, narration, status));
  fill(notes, h("h1", { id: "sp-notes-h", class: "sp-k" }, "Speaker notes"), h("p", { class: "sp-note muted" }, "…"));
  return { status, head, notes, narration, next, nextNote, lesson, code };
}

/**
 * listenForViews(channel, show(view), status): the explainer window's views, shown. A burst of
 * commands gives a burst of views: the first is drawn at once, then only the latest once a
 * frame. Whatever a message holds, readView makes it a well-formed view (speaker-link.js). It
 * says hello until the explainer window answers (it may still be starting its engine).
 */
function listenForViews(channel, show, status) {
  let latest = null, drawn = null, waiting = false;
  let heard = false;
  channel.addEventListener("message", (ev) => {
    const d = ev.data;
    if (!d || typeof d !== "object") return;
    if (d.type === "main") { channel.postMessage({ type: "hello" }); return; }
    if (d.type !== "view") return;
    heard = true;
    latest = d;
    if (waiting) return;
    draw();
    waiting = true;
    let done = false;
    const next = () => {
      if (done) return;
      done = true;
      waiting = false;
      if (latest !== drawn) draw();
    };
    requestAnimationFrame(next);
    setTimeout(next, 100); // (a window in the background gets no frames)
  });
  function draw() {
    drawn = latest;
    try { show(readView(latest)); } catch (e) { fill(status, "This view could not be shown: " + String(e?.message || e).slice(0, 200)); status.classList.add("bad"); }
  }
  const hello = () => { if (!heard) { channel.postMessage({ type: "hello" }); setTimeout(hello, 1000); } };
  hello();
}

/** The lesson's section (speaker-link.js lessonInfo), or nothing when no lesson is open. */
function showLesson(lesson, l) {
  lesson.hidden = !l;
  if (!l) { fill(lesson); return; }
  const from = l.planned_minutes - l.section_minutes;
  const where = l.section > 0 && l.of > 0 ? `Section ${l.section} of ${l.of}` : l.section > 0 ? `Section ${l.section}` : "Section";
  fill(lesson,
    h("h2", { id: "sp-lesson-h", class: "sp-k" }, "Lesson", l.title ? h("span", { class: "sp-lesson-title" }, ` · ${l.title}`) : null),
    h("p", { class: "sp-lesson-where" },
      h("strong", { "data-testid": "speaker-section" }, where), l.section_title ? `: ${l.section_title}` : "",
      l.stop > 0 && l.stops > 0 ? h("span", { class: "sp-stop", "data-testid": "speaker-stop" }, ` · stop ${l.stop} of ${l.stops}`) : null,
      l.release ? [" ", h("span", { class: "tag", "data-testid": "speaker-release" }, `as ${l.release}`)] : null,
      l.section_minutes ? h("span", { class: "sp-lesson-time", "data-testid": "speaker-section-time" },
        ` ${l.section_minutes} min planned (minute ${Math.max(0, from)} to ${l.planned_minutes}${l.minutes ? ` of ${l.minutes}` : ""})`) : null),
    l.finished ? h("p", { class: "sp-finished", "data-testid": "speaker-finished", role: "status" },
      h("strong", null, "Lesson finished."), " PageUp goes back to the last stop.") : null,
    l.goal ? h("p", { class: "sp-lesson-goal", "data-testid": "speaker-goal" }, h("span", { class: "sp-k2" }, "Goal "), l.goal) : null,
    l.ask ? h("div", { class: "sp-lesson-ask", "data-testid": "speaker-ask" },
      h("p", null, h("span", { class: "sp-k2" }, "Ask the room "), l.ask),
      l.answer ? h("p", { class: "sp-lesson-answer", "data-testid": "speaker-answer" }, h("span", { class: "sp-k2" }, "Answer "), l.answer) : null) : null,
    l.notes ? h("details", { class: "sp-lesson-notes", "data-testid": "speaker-lesson-notes", open: true },
      h("summary", { class: "sp-k2" }, "Section notes"), h("p", null, l.notes)) : null);
}

/** Where PageDown goes next: the lesson's next stop or section, or else the script's next step. */
function showNext(nextNote, v) {
  const l = v.lesson;
  if (!l) {
    fill(nextNote,
      h("h2", { id: "sp-next-note-h", class: "sp-k" }, "Next note"),
      v.next_note ? h("p", { class: "sp-note-next" }, v.next_note)
        : h("p", { class: "muted" }, v.step >= v.steps ? "None: this is the end of the script." : "The next step has no note."));
    return;
  }
  const body = l.finished ? h("p", { class: "muted" }, "Nothing: the lesson is finished.")
    : l.next_stop > 0 ? [
      h("p", { class: "sp-next-stop", "data-testid": "speaker-next-stop" }, h("strong", null, `Step ${l.next_stop}`), l.next_stop === v.step + 1 ? " (the next step)" : ` (PageDown goes there from step ${v.step})`),
      l.next_stop === v.step + 1 && v.next_note ? h("p", { class: "sp-note-next" }, v.next_note) : null]
    : l.next_section ? h("p", { class: "sp-next-stop", "data-testid": "speaker-next-stop" }, "The next section: ", h("strong", null, l.next_section))
    : h("p", { class: "sp-next-stop", "data-testid": "speaker-next-stop" }, "The end of the lesson (PageDown shows “Lesson finished”).");
  fill(nextNote, h("h2", { id: "sp-next-note-h", class: "sp-k" }, "Next stop"), body);
}

/** showView(parts, clock, v, send): a view in every part of the window. */
function showView(parts, clock, v, send) {
  const { status, head, notes, narration, code } = parts;
  status.classList.remove("bad");
  fill(status, v.blank ? "Linked to the explainer window: its screen is blank (B shows it again)." : v.presenting ? "Linked to the explainer window (presenting)." : "Linked to the explainer window (presenter mode is off there).");
  status.classList.remove("bad");
  fill(head,
    h("p", { class: "sp-title" }, v.title),
    h("p", { class: "sp-where" },
      h("strong", { "data-testid": "speaker-step" }, `step ${v.step} / ${v.steps}`),
      v.phase ? h("span", { class: "phase ph-" + v.phase }, v.phase.toUpperCase()) : null,
      v.epoch ? h("span", { class: "epoch" }, "epoch e" + v.epoch) : null,
      v.pause ? h("span", { class: "tag sp-pause" }, "⏸ pause here") : null));
  fill(notes,
    h("h1", { id: "sp-notes-h", class: "sp-k" }, "Speaker notes"),
    // a note hidden under this release (or left out) is the caveat alone: small type, never the room's text
    v.note && v.note === v.note_caveat ? h("p", { class: "sp-note-hidden muted", "data-testid": "sp-note-hidden" }, v.note)
      : v.note ? h("p", { class: "sp-note" }, v.note) : h("p", { class: "sp-note muted" }, "No note for this step."),
    v.error ? h("p", { class: "sp-error" }, "⚠ The executor failed: ", h("code", null, v.error)) : null);
  fill(narration,
    h("h2", { id: "sp-narr-h", class: "sp-k" }, "What the room sees: why"),
    v.explanations.length
      ? h("ul", { class: "sp-why" }, v.explanations.map((e) => h("li", null, e.kind ? h("span", { class: "tag kind" }, KIND_LABEL[e.kind] || e.kind) : null, " ", e.text)))
      : h("p", { class: "muted" }, v.step === 0 ? "Nothing has happened yet." : "Nothing to explain at this step."));
  clock.setLesson(v.lesson);
  showLesson(parts.lesson, v.lesson);
  showNext(parts.nextNote, v);
  fill(code,
    h("h2", { id: "sp-code-h", class: "sp-k" }, "Where in the executor's code"),
    (v.code || []).length
      ? h("ul", { class: "sp-code-lines" }, v.code.map((l) => h("li", { "aria-current": "step" },
        h("span", { "aria-hidden": "true" }, "▶ "), `${l.section} › ${l.text}`, l.where ? h("span", { class: "muted" }, `  ${l.where}`) : null)))
      : h("p", { class: "muted" }, "No line of the code map at this step."));
  showActions(parts.next, v, send);
}

/**
 * showActions(next, v, send): each thing that can happen next is a button (1–9 as in the
 * explainer window): choosing one that is not next in the script branches the run there.
 */
function showActions(next, v, send) {
  const many = v.actions.length > 1;
  fill(next,
    h("h2", { id: "sp-next-h", class: "sp-k" }, many ? "What can happen next: choose (1–" + Math.min(v.actions.length, 9) + ")" : "What can happen next"),
    v.actions.length
      ? h("ol", { class: "sp-actions" }, v.actions.map((a, i) => h("li", { class: a.scripted ? "scripted" : null },
        h("button", {
          type: "button", class: ["btn", "sp-choice", a.scripted ? "primary" : null], "data-testid": "speaker-action",
          "aria-keyshortcuts": i < 9 ? String(i + 1) : null, onclick: () => send("action", i),
        }, i < 9 ? h("kbd", null, String(i + 1)) : null, " ", a.label),
        a.scripted ? h("span", { class: "tag" }, "next in the script") : many ? h("span", { class: "tag branch" }, "branches") : null)))
      : h("p", { class: "muted" }, "Nothing: this is the end of the run."));
}
