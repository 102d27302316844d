// render-narration.js — the story of this step: the engine's explanations (each linked
// to the RisingWave source lines it paraphrases, its kind as a tag before it) and the scenario's
// note after them (the wide layout keeps the note in sight while the explanations scroll).
import { h, fill } from "../ui/dom.js";

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
        e.url ? h("a", { class: "src", href: rangeHref(e.url, e.lines), target: "_blank", rel: "noopener noreferrer",
          title: sourceTitle("the RisingWave source this paraphrases", e.url, e.lines) },
          sourceLabel(e.url, e.lines)) : null,
        e.fix ? [" · ", h("a", { class: "src fix", href: e.fix, target: "_blank", rel: "noopener noreferrer",
          title: "the change that fixed this in RisingWave (opens GitHub: needs the network)" }, "the real fix")] : null)))));
    const cited = exps.find((e) => e.url);
    if (cited && offline()) parts.push(offlineNote(cited.url));
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

/** Is the page without the network: the offline file (file://), or the browser offline? */
export function offline() {
  return location.protocol === "file:" || navigator.onLine === false;
}

/** A source link anchored at its whole range of lines (#L658-L667, GitHub's form), whatever the
 *  link's own anchor says; a link that is not a URL, or without lines, as it is. */
export function rangeHref(url, lines) {
  if (!url || !Array.isArray(lines) || !lines.length || !Number.isInteger(lines[0])) return url;
  try {
    const u = new URL(url);
    const [a, b] = [lines[0], Number.isInteger(lines[1]) ? lines[1] : lines[0]];
    if (a === b) return url; // one line: the link's own anchor
    u.hash = `L${a}-L${b}`;
    return u.href;
  } catch { return url; }
}

/** A source link's path and ref: ".../blob/REF/PATH#L…" → {path, ref} (ref shortened if a commit). */
function sourceWhere(url) {
  try {
    const parts = new URL(url).pathname.split("/").map(decodeURIComponent);
    const i = parts.indexOf("blob");
    if (i < 0 || i + 2 >= parts.length) return null;
    const ref = parts[i + 1];
    return { path: parts.slice(i + 2).join("/"), ref: /^[0-9a-f]{40}$/.test(ref) ? ref.slice(0, 7) : ref };
  } catch { return null; }
}

/**
 * A source link's tooltip (its accessible description): what it is, the file's path, lines and
 * RisingWave ref in words that can be looked up without the link, and that it needs the network.
 */
export function sourceTitle(what, url, lines) {
  const w = sourceWhere(url);
  const at = w ? `: ${w.path}, ${linesWords(lines)}at RisingWave ${w.ref}` : "";
  return `${what}${at} (opens GitHub: needs the network)`;
}

function linesWords(lines) {
  if (!lines || !lines.length) return "";
  return lines.length === 1 || lines[0] === lines[1] ? `line ${lines[0]}, ` : `lines ${lines[0]}–${lines[1]}, `;
}

/** Said once under the explanations when offline: the links need the network, and what they cite. */
function offlineNote(url) {
  const w = sourceWhere(url);
  return h("p", { class: "src-offline muted", "data-testid": "src-offline" },
    "Offline: the source links open GitHub and need the network. ",
    w ? ["They cite RisingWave at ", h("code", null, w.ref), "; each names its file and lines, and its tooltip the file's path."] : null);
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
