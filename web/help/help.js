// help.js — the "?" overlay (what you are looking at, keyboard shortcuts) and the
// first-visit card (what backfill is, in three sentences), remembered in localStorage; both offer
// the ways in (ways-in.js): I have an error…, Run a workshop, Look around.
import { h, fill } from "../ui/dom.js";
import { waysIn } from "./ways-in.js";

const SEEN_KEY = "backfill-explainer:welcomed";

const KEYS = [
  ["→", "step forward"], ["←", "step back"], ["Home / End", "first / last step"],
  ["Space", "play / pause (on a focused button: presses it)"], ["1 … 9", "choose what happens next (the numbered action)"],
  ["r", "recover from the last checkpoint"], ["i", "inject a message"], ["o", "open a scenario"],
  ["b", "bug mode menu (break one rule of the protocol)"], ["x", "explore all interleavings"],
  ["f", "predict mode on / off"], ["p", "presenter mode on / off"], ["d", "I have an error…: what a log line means"], ["c", "the code map (where in the executor's loop this step is) on / off"],
  ["PageDown / PageUp", "step forward / back (clickers); at a predict question, PageDown shows the answer"],
  ["?", "this help"], ["Esc", "close an overlay or menu"],
];

function closeBtn(dialog) {
  return h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×");
}

/**
 * The help overlay. glossary: the page's glossary (glossary.js), for the list of terms; link: the
 * page's address now, which the examples of links and embedding show.
 */
export function openHelp(dialog, { glossary = null, link = location.href, explainer = null, openLesson = null } = {}) {
  const here = new URL(link);
  const embed = new URL(link);
  embed.searchParams.set("embed", "1");
  fill(dialog,
    h("div", { class: "dlg-head" }, h("h2", { id: "help-title" }, "How to read this page"), closeBtn(dialog)),
    h("div", { class: "help-body" },
      explainer && openLesson ? [h("h3", null, "Ways in"), waysIn({ explainer, openLesson, done: () => dialog.close() })] : null,
      h("p", null, "Data flows left to right. ", h("strong", null, "Upstream"),
        " shows the messages still to come and the snapshot: each vnode's rows in key order, with ▶ at the next row it delivers. ",
        h("strong", null, "Executor"), " shows what the locality provider holds: buffered upstream chunks, the builders filling up, each vnode's progress, and its two tables, committed vs pending and committed vs durable. ",
        h("strong", null, "Downstream"), " shows every output — barriers (B e4), chunks with each row ✓ visible or ✗ hidden, watermarks (W a=7), recoveries (⟲) — and the rows downstream holds, checked against the invariant at each barrier."),
      h("p", null, "Rows are chips: the op (+ insert, - delete, U-/U+ update) then the values in primary-key order, e.g. ",
        h("span", { class: "chip op-ins" }, h("span", { class: "op" }, "+"), h("span", { class: "tuple" }, "(3,102)")),
        ". What changed in the last step is outlined. Below the stage, the narration says why, with a link to the RisingWave source lines."),
      h("p", null, "When more than one thing can happen next (the upstream delivers, or the snapshot does), the numbered buttons let you choose; a choice marked “branch” leaves the script (later scripted upstream messages stay queued). ",
        "Inject adds your own barrier, chunk, watermark, end, error or recovery."),
      h("h3", null, "Teaching tools"),
      h("ul", { class: "help-list" },
        h("li", null, h("strong", null, "Bug mode"), " breaks one rule of the protocol the way an earlier or imagined RisingWave might have; a banner says which rule and why it matters, and the invariant shows what goes wrong. “Compare with bug mode…” lays the broken and the correct run side by side, step by step."),
        h("li", null, h("strong", null, "Explore…"), " runs every interleaving of this scenario's upstream messages and snapshot deliveries (in the background) and lists the distinct outcomes; open any as a timeline or compare it with this run."),
        h("li", null, h("strong", null, "Predict"), " asks, before each barrier that marks buffered rows, which of them downstream will see; your score is kept for this session."),
        h("li", null, h("strong", null, "Present"), " is for a projector: large type, the stage and the narration only, the step's note as speaker notes. A clicker's PageDown/PageUp steps in every mode, and autoplay stops where the scenario says ", h("code", null, "pause: true"), "."),
        h("li", null, h("strong", null, "Save"), " downloads this run as a scenario file (it replays your injections and choices) or as the trace; Open… loads a file back.")),
      h("h3", null, "Keyboard"),
      h("p", null, "The keys work wherever the focus is, except while you type in a field (the editor, a number). A focused control keeps its own keys: Space presses a focused button, the arrows move in a list or a radio group. After you choose from a list, the keys go back to the stage."),
      h("dl", { class: "keys" }, KEYS.flatMap(([k, d]) => [h("dt", null, h("kbd", null, k)), h("dd", null, d)])),
      h("h3", null, "Links and embedding"),
      h("p", null, "The address always points at what you see now: this scenario, this step",
        /[#&]bug=/.test(here.hash) ? " and this bug mode" : "", /[#&]run=/.test(here.hash) ? " (a run that left its script travels whole in the link)" : "", ":"),
      h("code", { class: "help-link", "data-testid": "help-link" }, here.href),
      h("p", null, "Add ", h("code", null, "?embed=1"), " to show only the stage and the step controls, for a documentation page:"),
      h("code", { class: "help-link", "data-testid": "help-embed" }, `<iframe src="${embed.href}" title="Backfill explainer" width="100%" height="640"></iframe>`),
      glossary ? [h("h3", { id: "help-glossary" }, "Glossary"),
        h("p", null, "The words the page uses, as the explainer defines them. On the page, a word with a dotted underline shows its definition when you point at it, tap it, or focus it and press Enter."),
        glossary.list()] : null));
  dialog.showModal();
}

/**
 * The first-visit card, for a plain first visit only (the caller knows the link named no state).
 * Its main button keeps the scenario that is open and calls onStart (the page focuses Step).
 */
export function maybeWelcome(dialog, { onStart, explainer = null, openLesson = null }) {
  let seen = false;
  try { seen = localStorage.getItem(SEEN_KEY) === "1"; } catch { /* storage blocked: show it */ }
  if (seen) return false;
  const remember = () => { try { localStorage.setItem(SEEN_KEY, "1"); } catch { /* ignore */ } };
  dialog.addEventListener("close", remember, { once: true });
  fill(dialog,
    h("div", { class: "dlg-head" }, h("h2", { id: "welcome-title" }, "Backfill, step by step"), closeBtn(dialog)),
    h("div", { class: "help-body" },
      h("p", null, "When RisingWave creates a join, aggregation or top-N on top of existing data, the new operator must first ",
        h("em", null, "backfill"), ": read everything that is already there, while live changes keep arriving."),
      h("p", null, "The locality provider does this by storing its input in a state table ordered by the operator's key, reading it back vnode by vnode as a snapshot, and buffering live chunks until each barrier decides which of their rows are visible."),
      h("p", null, "Every row must reach downstream exactly once — this page shows how, one message at a time, and what goes wrong when the upstream ends mid-way.")),
    explainer && openLesson
      ? h("div", { class: "dlg-foot" }, waysIn({ explainer, openLesson, done: () => dialog.close(), look: onStart }))
      : h("div", { class: "dlg-foot" },
        h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, "Just look around"),
        h("button", { type: "button", class: "btn primary", onclick: () => { dialog.close(); onStart(); } }, "Start stepping")));
  dialog.showModal();
  return true;
}
