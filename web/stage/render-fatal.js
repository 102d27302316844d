// render-fatal.js — the failure, as the engine explains it (the view's `failure`, from
// engine/failure.go and failure_data.go; `checks` from the diagnosis, attached by session/).
// The panel above the stage leads with what an engineer acts on: the exact error, where it
// failed (buffering or backfilling …) and under which release, what happens to the data, and
// the first thing to check, with the Recover button; its headline is the engine's short one
// (data.short: the headline without its why). Everything else — every check in order, the whole
// headline, what it means, what it left behind, what RisingWave's source proves (each sentence linked to
// its lines), the likely causes (our inference, shown apart) and what a recovery does — is in
// #fatal-more, open in full after the stage: the column scrolls as a whole to it, no inner box.
import { h, fill } from "../ui/dom.js";
import { sourceLabel, sourceTitle, rangeHref } from "./render-narration.js";

/**
 * Render the fatal panel (and its details after the stage). onRecover is called by the Recover
 * button; recoverAction is the Action whose kind is "recover" (null if the engine offers none).
 */
export function renderFatal(view, panel, recoverAction, onRecover) {
  const f = view.failure;
  const err = view.error;
  const more = panel.ownerDocument.getElementById("fatal-more");
  if (view.dropped) {
    renderDropped(view, panel, more);
    return;
  }
  if (!err) {
    // (written only when it changes: an attribute written at every step, even unchanged, is a
    // style recalculation at every step)
    for (const el of [panel, more]) {
      if (!el) continue;
      if (!el.hidden) el.hidden = true;
      if (el.firstChild) el.replaceChildren();
    }
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
    f?.phase_label ? h("span", { class: "fatal-phase", "data-testid": "fatal-phase", "data-phase": f.phase },
      f.phase_label, f.release ? h("span", { class: "fatal-release" }, ` · ${f.release}`) : null) : null,
    h("span", { class: "fatal-foot" }, recoverBtn),
    h("pre", { class: "errmsg", "data-testid": "fatal-message" }, h("code", null, msg)));
  if (!f) {
    fill(panel, head);
    if (more && !more.hidden) { more.hidden = true; more.replaceChildren(); }
    return;
  }
  const d = f.data || {};
  const checks = f.checks || [];
  const toDetails = h("a", { class: "fatal-to-details", href: "#fatal-more", "data-testid": "fatal-to-details",
    onclick: (e) => { e.preventDefault(); more?.scrollIntoView({ block: "start", behavior: "smooth" }); more?.focus({ preventScroll: true }); },
  }, checks.length > 1 ? `All ${checks.length} checks and the details ↓` : "The details ↓");
  const lead = h("div", { class: "fatal-lead" },
    h("section", { class: "fatal-data", "data-testid": "fatal-data", "aria-labelledby": "fatal-data-h" },
      h("h3", { id: "fatal-data-h" }, "What happens to data"),
      h("p", { class: "fatal-headline", "data-testid": "fatal-data-headline" }, d.short ?? ""),
      h("p", { "data-testid": "fatal-data-until" }, d.until ?? "")),
    h("section", { class: "fatal-first", "data-testid": "fatal-first-check", "aria-labelledby": "fatal-first-h" },
      checks.length
        ? [h("h3", { id: "fatal-first-h" }, `Check first · ${f.release}`), h("p", { class: "fatal-check" }, checks[0])]
        : [h("h3", { id: "fatal-first-h" }, "What it means"), h("p", { class: "fatal-check" }, f.meaning ?? "")],
      toDetails));
  fill(panel, head, lead);
  if (!more) return;
  const section = (title, testid, ...body) => h("section", { class: "fatal-part", "data-testid": testid },
    h("h3", null, title), ...body);
  more.hidden = false;
  fill(more,
    h("h2", { id: "fatal-more-title" }, "The failure in detail",
      h("span", { class: "h-sub" }, ` · ${f.phase_label ?? ""}${f.release ? " · " + f.release : ""}`)),
    h("div", { class: "fatal-body" },
      checks.length ? section(`What to check, in order · ${f.release}`, "fatal-checks",
        h("ol", { class: "checks" }, checks.map((c) => h("li", null, c))),
        f.checks_from ? h("p", { class: "fatal-note" }, `From ${f.checks_from}.`) : null) : null,
      section("What it means", "fatal-meaning-part", h("p", { "data-testid": "fatal-meaning" }, f.meaning ?? "")),
      section("What happens to data", "fatal-data-full",
        h("p", { class: "fatal-headline" }, d.headline ?? ""), h("p", null, d.until ?? ""), h("p", null, d.after ?? "")),
      section("Left behind", "fatal-left", h("p", null, f.left_behind ?? "")),
      section("What RisingWave's source proves", "fatal-proven",
        h("ul", { class: "proven" }, (f.proven || []).map((c) => h("li", null, c.text ?? "", " ",
          c.url ? h("a", { class: "src", href: rangeHref(c.url, c.lines), target: "_blank", rel: "noopener noreferrer",
            title: sourceTitle("the lines of RisingWave's source that show this", c.url, c.lines) }, sourceLabel(c.url, c.lines)) : null)))),
      section("Likely causes, outside the executor", "fatal-inferred",
        h("p", { class: "fatal-note" }, "Our inference: the source does not show these."),
        h("ul", { class: "inferred" }, (f.inferred || []).map((t) => h("li", null, t)))),
      section("Recovery", "fatal-recovery", h("p", null, f.recovery ?? ""))));
}

/** A job the recovery dropped (the view's `dropped`, engine/create.go): its own end state, titled
 * with the engine's reason (no checkpoint yet, or created in the foreground). */
function renderDropped(view, panel, more) {
  const d = view.dropped;
  panel.hidden = false;
  fill(panel,
    h("div", { class: "fatal-head" },
      h("span", { class: "fatal-icon", "aria-hidden": "true" }, "✕"),
      h("h2", { id: "fatal-title", "data-short": "Dropped", "data-testid": "dropped-title" }, "The recovery dropped the job",
        h("span", { class: "h-sub" }, ` · ${view.release} · ${d.reason ?? ""}`))),
    // two columns, as a failure's card: what happens to data beside before and after the recovery
    h("div", { class: "fatal-lead" },
      h("section", { class: "fatal-data", "data-testid": "fatal-data", "aria-labelledby": "fatal-data-h" },
        h("h3", { id: "fatal-data-h" }, "What happens to data"),
        h("p", { class: "fatal-headline", "data-testid": "fatal-data-headline" }, d.headline ?? "")),
      h("section", { class: "fatal-when", "aria-labelledby": "fatal-when-h" },
        h("h3", { id: "fatal-when-h" }, "Before and after the recovery"),
        h("p", { "data-testid": "fatal-data-until" }, d.until ?? ""),
        h("p", { "data-testid": "fatal-data-after" }, d.after ?? ""))));
  if (more && !more.hidden) { more.hidden = true; more.replaceChildren(); }
}
