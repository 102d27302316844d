// render-narration.js — the story of this step: the engine's explanations (each linked
// to the RisingWave source lines it paraphrases, its kind as a tag before it) and the scenario's
// note after them (the wide layout keeps the note in sight while the explanations scroll).
import { h, fill } from "./dom.js";

export const KIND_LABEL = {
  mark: "marking", drain: "drain", buffer: "buffer", commit: "commit", persist: "persist",
  refresh: "refresh", snapshot: "snapshot", emit: "emit", fatal: "fatal", recover: "recovery",
  bug: "bug mode",
};

export function renderNarration(view, live) {
  const exps = view.explanations || [];
  const parts = [];
  parts.push(h("h3", { class: "narr-head" },
    view.step === 0 ? "Before the first step" : `Step ${view.step}: why`));
  if (exps.length) {
    parts.push(h("ul", { class: "why" }, exps.map((e) => h("li", { class: ["why-item", e.kind === "bug" && "why-bug"], "data-kind": e.kind || null },
      e.kind ? h("span", { class: "tag kind" }, KIND_LABEL[e.kind] || e.kind) : null,
      h("span", { class: "why-text" }, e.text ?? "", " ",
        e.url ? h("a", { class: "src", href: e.url, target: "_blank", rel: "noopener noreferrer",
          title: "the RisingWave source this paraphrases (opens GitHub)" },
          sourceLabel(e.url, e.lines)) : null,
        e.fix ? [" · ", h("a", { class: "src fix", href: e.fix, target: "_blank", rel: "noopener noreferrer",
          title: "the change that fixed this in RisingWave (opens GitHub)" }, "the real fix")] : null)))));
  } else if (view.step === 0) {
    parts.push(h("p", { class: "muted" }, "Nothing has happened yet. Step forward (→) to deliver the first message."));
  } else {
    parts.push(h("p", { class: "muted" }, "Nothing to explain at this step."));
  }
  if (view.note) parts.push(noteParagraph(view));
  if (view.error) parts.push(h("p", { class: "narr-fatal" }, "⚠ The executor failed: ", h("code", null, view.error.message ?? "")));
  fill(live, parts);
}

/**
 * The step's note. When the engine says it was written for another run (`note_caveat`: another
 * bug mode, or the script before this run left it), the caveat is shown apart, before the note;
 * a note left out (its step could not happen in this run) is the caveat alone.
 */
function noteParagraph(view) {
  const cav = view.note_caveat || "";
  const body = cav && view.note.startsWith(cav) ? view.note.slice(cav.length) : (cav ? "" : view.note);
  // (the note scrolls inside the narration when it is long: focusable, so a keyboard can scroll it)
  return h("p", { class: ["note", cav && "note-foreign"], "data-testid": "note", tabindex: "0" }, h("span", { class: "k" }, "Note "),
    cav ? h("span", { class: "note-caveat", "data-testid": "note-caveat" }, cav.trim()) : null,
    cav && body ? " " : null,
    body ? h("span", { class: "note-body" }, body) : null);
}

/** "locality_provider.rs L370–403": the cited file (the last part of the link) and its lines. */
export function sourceLabel(url, lines) {
  let file = "source";
  try { file = decodeURIComponent(new URL(url).pathname.split("/").pop()) || file; } catch { /* not a URL */ }
  return `${file} ${linesLabel(lines)}`.trim();
}

function linesLabel(lines) {
  if (!lines || !lines.length) return "";
  if (lines.length === 1 || lines[0] === lines[1]) return "L" + lines[0];
  return `L${lines[0]}–${lines[1]}`;
}
