// render-fatal.js — the fatal panel, shown when the view's `error` is set. Everything in it is
// the engine's explanation of that failure (the view's `failure`, from engine/failure.go): the
// exact error and what it means, with a Recover button; folded in a <details> under them, what
// the failure left behind, what RisingWave's source proves (each sentence linked to its lines),
// the likely causes outside the executor (our inference, shown apart) and what a recovery does.
import { h, fill } from "./dom.js";
import { sourceLabel, sourceTitle } from "./render-narration.js";

let openFor = { failure: null, open: false }; // the folded part's state, for the failure shown

/**
 * Render the fatal panel. onRecover is called by the Recover button; recoverAction is the
 * Action whose kind is "recover" (null if the engine offers none).
 */
export function renderFatal(view, panel, recoverAction, onRecover) {
  const f = view.failure;
  const err = view.error;
  if (!err) {
    // (written only when it changes: an attribute written at every step, even unchanged, is a
    // style recalculation at every step)
    if (!panel.hidden) panel.hidden = true;
    if (panel.firstChild) panel.replaceChildren();
    return;
  }
  panel.hidden = false;
  const msg = String(err.message ?? "");
  const recoverBtn = h("button", {
    type: "button", class: "btn danger", id: "recover-btn", "data-testid": "recover",
    disabled: !recoverAction, title: "Recover (r)",
    onclick: () => recoverAction && onRecover(recoverAction),
  }, "⟲ ", recoverAction ? (recoverAction.label || "Recover") : "Recover");
  const head = h("div", { class: "fatal-head" },
    h("span", { class: "fatal-icon", "aria-hidden": "true" }, "⚠"),
    h("h2", { id: "fatal-title", "data-short": "Failure" }, err.panic ? "The executor panicked" : "The executor failed",
      err.step ? h("span", { class: "h-sub" }, ` at step ${err.step}`) : null),
    h("pre", { class: "errmsg", "data-testid": "fatal-message" }, h("code", null, msg)));
  if (!f) { fill(panel, head, h("div", { class: "fatal-foot" }, recoverBtn)); return; }
  const section = (title, testid, ...body) => h("section", { class: "fatal-part", "data-testid": testid },
    h("h3", null, title), ...body);
  // The error and what it means stay in sight above the stage (whose buffer and builders show
  // what was left); what it left behind, the proof, the likely causes and the recovery fold
  // away, and stay open once opened for this failure.
  const which = `${err.step}\u0000${msg}`;
  if (which !== openFor.failure) openFor = { failure: which, open: false };
  const more = h("details", { class: "fatal-more", open: openFor.open },
    h("summary", null, h("span", null, f.meaning ? h("span", { class: "fatal-meaning-folded" }, "What it means · ") : null,
      "Left behind · what the source proves · likely causes · recovery")),
    // (the compact layout of a docs frame folds the meaning too: the narration says it as well)
    f.meaning ? h("p", { class: "fatal-meaning-folded" }, f.meaning) : null,
    h("div", { class: "fatal-body" },
      section("Left behind", "fatal-left", h("p", null, f.left_behind ?? "")),
      section("What RisingWave's source proves", "fatal-proven",
        h("ul", { class: "proven" }, (f.proven || []).map((c) => h("li", null, c.text ?? "", " ",
          c.url ? h("a", { class: "src", href: c.url, target: "_blank", rel: "noopener noreferrer",
            title: sourceTitle("the lines of RisingWave's source that show this", c.url, c.lines) }, sourceLabel(c.url, c.lines)) : null)))),
      section("Likely causes, outside the executor", "fatal-inferred",
        h("p", { class: "fatal-note" }, "Our inference: the source does not show these."),
        h("ul", { class: "inferred" }, (f.inferred || []).map((t) => h("li", null, t)))),
      section("Recovery", "fatal-recovery", h("p", null, f.recovery ?? ""))));
  more.addEventListener("toggle", () => { if (openFor.failure === which) openFor.open = more.open; });
  fill(panel, head,
    f.meaning ? h("p", { class: "fatal-meaning", "data-testid": "fatal-meaning" }, f.meaning) : null,
    h("div", { class: "fatal-foot" }, more, recoverBtn));
}
