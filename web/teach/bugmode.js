// bugmode.js — the "bug mode" menu in the header (the engine's bugs() and "none") and the banner
// that says which rule of the protocol is broken, why it matters, and where RisingWave does it
// right. Choosing a mode calls explainer.bug(name); the banner follows the view's `bug`.
import { h, fill } from "../ui/dom.js";
import { createRadioMenu } from "../ui/radio-menu.js";
import { sourceLabel, rangeHref } from "../stage/render-narration.js";

/**
 * createBugMode({choose(name), compare(name?), openBest(scenario, bug), done(), banner}) →
 * {wrap, open(), update(view), setBugs(list), setTitles(map), bugs}
 * Choosing a mode with the pointer, or confirming one with Enter or Space, closes the menu and
 * calls done() (the page gives the keys back to the stage); the arrow keys choose within it.
 */
export function createBugMode({ choose, compare, openBest, done, banner }) {
  let bugs = [];
  let titles = {};    // built-in scenario name → title
  let current = null; // the view's bug name, or null
  let lastOn = null;  // the last bug mode that was on (what "Compare with bug mode…" offers first)
  const status = h("span", { class: "menu-value" }, "off");
  const { pop, choice } = createRadioMenu({
    label: [h("span", { class: "menu-k" }, "Bug mode"), status],
    title: "Bug mode: break one rule of the protocol and watch the invariant (b)",
    testid: "bug-menu", panelLabel: "Bug mode", className: "bug-btn",
  }, { choose, done });
  pop.button.setAttribute("aria-keyshortcuts", "b");

  function option(name, title, summary) {
    return choice({
      group: "bug-mode", value: name, data: { "data-bug": name }, checked: (current || "none") === name,
      className: name === "none" && "bug-none",
    }, h("span", { class: "bug-name" }, title), summary ? h("span", { class: "bug-sum" }, summary) : null);
  }

  /** "best seen in: <the built-in>", a button that opens it with this bug mode. */
  function bestSeen(b, where) {
    if (!b.scenario) return null;
    return h("span", { class: "bug-best", "data-testid": "bug-best" }, "best seen in: ",
      h("button", {
        type: "button", class: "linkish", "data-testid": "bug-best-open", "data-scenario": b.scenario,
        "aria-label": `open ${titles[b.scenario] || b.scenario}, the scenario that shows ${b.name} best, with this bug mode on`,
        onclick: () => { if (where === "menu") pop.close(); openBest(b.scenario, b.name); },
      }, titles[b.scenario] || b.scenario));
  }

  function renderMenu() {
    fill(pop.panel,
      h("fieldset", { class: "bug-list" },
        h("legend", null, "Break one rule of the protocol"),
        option("none", "none", "as RisingWave does it"),
        bugs.map((b) => [option(b.name, b.name, b.summary || ""), bestSeen(b, "menu")])),
      h("p", { class: "menu-hint muted" }, "Arrow keys choose, Enter closes the menu."),
      h("div", { class: "pop-foot" },
        h("button", {
          type: "button", class: "btn", "data-testid": "compare-bug-btn",
          disabled: bugs.length ? null : true,
          onclick: () => { pop.close(); compare(current || lastOn); },
        }, "Compare with bug mode…")));
  }

  let openName = null; // the open scenario's name
  function renderBanner(bug) {
    if (!bug) { banner.hidden = true; banner.replaceChildren(); return; }
    fill(banner,
      h("div", { class: "bug-banner-head" },
        h("span", { class: "bug-tag", "aria-hidden": "true" }, "BUG MODE"),
        h("h2", { id: "bug-banner-title" }, h("span", { class: "sr-only" }, "Bug mode on: "), h("code", null, bug.name ?? "")),
        h("span", { class: "bug-banner-sum" }, bug.summary ?? "")),
      bug.why ? h("p", { class: "bug-why" }, bug.why) : null,
      bug.scenario && bug.scenario !== openName ? h("p", { class: "bug-why" }, bestSeen(bug, "banner")) : null,
      h("p", { class: "bug-links" },
        bug.url ? h("a", { href: rangeHref(bug.url, bug.lines), target: "_blank", rel: "noopener noreferrer", "data-testid": "bug-source" },
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
    setTitles(map) { titles = map || {}; renderMenu(); lastKey = ""; },
    get bugs() { return bugs; },
    update(view) {
      const bug = view && view.bug ? view.bug : null;
      current = bug ? bug.name : null;
      if (current) lastOn = current;
      fill(status, current || "off");
      pop.button.classList.toggle("on", !!bug);
      for (const r of pop.panel.querySelectorAll("input[type=radio]")) r.checked = r.value === (current || "none");
      openName = view ? view.name : null;
      const k = JSON.stringify([bug, openName]);
      if (k !== lastKey) { lastKey = k; renderBanner(bug); }
    },
  };
}
