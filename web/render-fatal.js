// render-fatal.js — the fatal panel, shown when the view's `error` is set. Everything in it is
// the engine's explanation of that failure (the view's `failure`, from engine/failure.go): the
// exact error, what it means, what RisingWave's source proves (each sentence linked to its
// lines), the likely causes outside the executor (our inference, shown apart), what the failure
// left behind, and what a recovery does, with a Recover button.
import { h, fill } from "./dom.js";
import { sourceLabel } from "./render-narration.js";

/**
 * Render the fatal panel. onRecover is called by the Recover button; recoverAction is the
 * Action whose kind is "recover" (null if the engine offers none).
 */
export function renderFatal(view, panel, recoverAction, onRecover) {
  const f = view.failure;
  const err = view.error;
  if (!err) {
    panel.hidden = true;
    panel.replaceChildren();
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
    h("div", null,
      h("h2", { id: "fatal-title" }, err.panic ? "The executor panicked" : "The executor failed",
        err.step ? h("span", { class: "h-sub" }, ` at step ${err.step}`) : null),
      h("pre", { class: "errmsg", "data-testid": "fatal-message" }, h("code", null, msg)),
      f && f.meaning ? h("p", { class: "fatal-meaning", "data-testid": "fatal-meaning" }, f.meaning) : null),
    recoverBtn);
  if (!f) { fill(panel, head); return; }
  const section = (title, testid, ...body) => h("section", { class: "fatal-part", "data-testid": testid },
    h("h3", null, title), ...body);
  fill(panel, head,
    h("div", { class: "fatal-body" },
      section("What RisingWave's source proves", "fatal-proven",
        h("ul", { class: "proven" }, (f.proven || []).map((c) => h("li", null, c.text ?? "", " ",
          c.url ? h("a", { class: "src", href: c.url, target: "_blank", rel: "noopener noreferrer",
            title: "the lines of RisingWave's source that show this (opens GitHub)" }, sourceLabel(c.url, c.lines)) : null)))),
      section("Likely causes, outside the executor", "fatal-inferred",
        h("p", { class: "fatal-note" }, "Our inference: the source does not show these."),
        h("ul", { class: "inferred" }, (f.inferred || []).map((t) => h("li", null, t)))),
      section("Left behind", "fatal-left", h("p", null, f.left_behind ?? "")),
      section("Recovery", "fatal-recovery", h("p", null, f.recovery ?? ""))));
}
