// bugmode.js — the "bug mode" menu in the header (the engine's bugs() and "none") and the banner
// that says which rule of the protocol is broken, why it matters, and where RisingWave does it
// right. Choosing a mode calls explainer.bug(name); the banner follows the view's `bug`.
import { h, fill } from "./dom.js";
import { createPopover } from "./popover.js";
import { sourceLabel } from "./render-narration.js";

/**
 * createBugMode({choose(name), compare(name?), banner}) → {wrap, open(), update(view), setBugs(list), bugs}
 */
export function createBugMode({ choose, compare, banner }) {
  let bugs = [];
  let current = null; // the view's bug name, or null
  let lastOn = null;  // the last bug mode that was on (what "Compare with bug mode…" offers first)
  const status = h("span", { class: "menu-value" }, "off");
  const pop = createPopover({
    label: [h("span", { class: "menu-k" }, "Bug mode"), status],
    title: "Bug mode: break one rule of the protocol and watch the invariant (b)",
    testid: "bug-menu", panelLabel: "Bug mode", className: "bug-btn",
    onOpen: () => {
      const r = pop.panel.querySelector("input:checked") || pop.panel.querySelector("input");
      if (r) r.focus();
    },
  });
  pop.button.setAttribute("aria-keyshortcuts", "b");

  function option(name, title, summary) {
    const input = h("input", { type: "radio", name: "bug-mode", value: name, "data-bug": name });
    input.checked = (current || "none") === name;
    input.addEventListener("change", () => { if (input.checked) choose(name); });
    return h("label", { class: ["bug-opt", name === "none" && "bug-none"] }, input,
      h("span", { class: "bug-opt-text" }, h("span", { class: "bug-name" }, title),
        summary ? h("span", { class: "bug-sum" }, summary) : null));
  }

  function renderMenu() {
    fill(pop.panel,
      h("fieldset", { class: "bug-list" },
        h("legend", null, "Break one rule of the protocol"),
        option("none", "none", "as RisingWave does it"),
        bugs.map((b) => option(b.name, b.name, b.summary || ""))),
      h("div", { class: "pop-foot" },
        h("button", {
          type: "button", class: "btn", "data-testid": "compare-bug-btn",
          disabled: bugs.length ? null : true,
          onclick: () => { pop.close(); compare(current || lastOn); },
        }, "Compare with bug mode…")));
  }

  function renderBanner(bug) {
    if (!bug) { banner.hidden = true; banner.replaceChildren(); return; }
    fill(banner,
      h("div", { class: "bug-banner-head" },
        h("span", { class: "bug-tag", "aria-hidden": "true" }, "BUG MODE"),
        h("h2", { id: "bug-banner-title" }, h("span", { class: "sr-only" }, "Bug mode on: "), h("code", null, bug.name ?? "")),
        h("span", { class: "bug-banner-sum" }, bug.summary ?? "")),
      bug.why ? h("p", { class: "bug-why" }, bug.why) : null,
      h("p", { class: "bug-links" },
        bug.url ? h("a", { href: bug.url, target: "_blank", rel: "noopener noreferrer", "data-testid": "bug-source" },
          "what RisingWave does: " + sourceLabel(bug.url, bug.lines)) : null,
        bug.fix ? [" · ", h("a", { href: bug.fix, target: "_blank", rel: "noopener noreferrer", "data-testid": "bug-fix" }, "the real fix")] : null,
        h("span", { class: "bug-actions" },
          h("button", { type: "button", class: "btn small", onclick: () => compare(bug.name) }, "Compare with the correct run"),
          h("button", { type: "button", class: "btn small", "data-testid": "bug-off", onclick: () => choose("none") }, "Turn off"))));
    banner.hidden = false;
  }

  let lastKey = "";
  return {
    wrap: pop.wrap,
    open: () => { pop.open(); },
    setBugs(list) { bugs = Array.isArray(list) ? list : []; renderMenu(); },
    get bugs() { return bugs; },
    update(view) {
      const bug = view && view.bug ? view.bug : null;
      current = bug ? bug.name : null;
      if (current) lastOn = current;
      fill(status, current || "off");
      pop.button.classList.toggle("on", !!bug);
      for (const r of pop.panel.querySelectorAll("input[type=radio]")) r.checked = r.value === (current || "none");
      const k = JSON.stringify(bug);
      if (k !== lastKey) { lastKey = k; renderBanner(bug); }
    },
  };
}
