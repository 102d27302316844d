// caption.js — the caption of an embed (?embed=1), one small line above the stage: the scenario's
// title, the RisingWave release when the view names one, a "BUG MODE" tag when a bug mode is on
// (so an embedded bug mode never reads as RisingWave's behaviour), and "Open in the full
// explainer": the same scenario, step and bug mode in the full page, in a new tab. All from the
// view; the link's hash from url.js.
import { h, fill } from "../ui/dom.js";

/** The full page for a link's hash: this page's own URL without ?embed=1. */
export function fullPage(hash, href = location.href) {
  const u = new URL(href);
  u.searchParams.delete("embed");
  u.hash = hash || "";
  return u.href;
}

/** The caption's parts for a view: the title, then the rest as one group (it wraps under the
 * title as a whole); a part the view lacks is null. */
function parts(v, open) {
  return [
    h("span", { class: "cap-title", "data-testid": "embed-title", title: v.title || null }, v.title || v.name || "your scenario"),
    h("span", { class: "cap-rest" },
      v.release ? h("span", { class: "cap-release", "data-testid": "embed-release" }, `RisingWave ${v.release}`) : null,
      v.bug ? h("span", { class: "cap-bug", "data-testid": "embed-bug", title: v.bug.summary || null },
        h("span", { class: "bug-tag" }, "BUG MODE"), " ", h("code", null, v.bug.name ?? "")) : null,
      open),
  ];
}

/** createCaption({link(view) → hash}) → {el, update(view)} */
export function createCaption({ link }) {
  const open = h("a", { class: "cap-open", "data-testid": "embed-open", target: "_blank", rel: "noopener" },
    "Open in the full explainer", h("span", { "aria-hidden": "true" }, " ↗"), h("span", { class: "sr-only" }, " (opens in a new tab)"));
  const el = h("p", { class: "embed-caption", "data-testid": "embed-caption" });
  let key = null;
  return {
    el,
    update(v) {
      // (drawn again only when what it shows changed; the link follows every step)
      const k = JSON.stringify([v.title, v.name, v.release, v.bug && v.bug.name, v.bug && v.bug.summary]);
      if (k !== key) { key = k; fill(el, parts(v, open)); }
      const href = fullPage(link(v));
      if (open.href !== href) open.href = href;
    },
  };
}
