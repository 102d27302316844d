// release-menu.js — the "RisingWave" release menu in the header, beside the bug-mode menu: the
// releases the view lists (`releases`: name, tags, one-line summary, the default marked), the
// one the run plays (`release`) checked, and what the model leaves out of newer main
// (`newer_main`) as its last line. The page knows no release facts: all of it is the view's.
// Choosing one calls choose(name) (explainer.release: the run again under it, at the same step);
// its last button compares this run with the same script under another release (compare.js).
// Beside the releases: how the job was created (the view's `create`: foreground, the default, or
// background); choosing one calls chooseCreate(type) (explainer.create).
import { h, fill } from "../ui/dom.js";
import { createRadioMenu } from "../ui/radio-menu.js";

/**
 * createReleaseMenu({choose(name), compare(), done()}) → {wrap, open(), update(view)}
 * compare(): "Compare with another release…" (compare.js openRelease), when given.
 * As the bug-mode menu: choosing with the pointer, or confirming with Enter or Space, closes
 * the menu and calls done() (the page gives the keys back to the stage); the arrow keys choose
 * within it.
 */
export function createReleaseMenu({ choose, chooseCreate, compare, compareCreate, done }) {
  let current = null;  // the view's release name
  let create = null;   // the view's create type
  const status = h("span", { class: "menu-value", "data-testid": "release-value" }, "…");
  const { pop, choice } = createRadioMenu({
    label: [h("span", { class: "menu-k" }, "RisingWave"), status],
    title: "The RisingWave release this run plays",
    testid: "release-menu", panelLabel: "RisingWave release", className: "release-btn",
  }, { choose: (v) => (v.startsWith("create:") ? chooseCreate?.(v.slice(7)) : choose(v)), done });
  pop.wrap.classList.add("release-wrap");
  pop.panel.classList.add("release-pop");

  function option(rel) {
    return choice({
      group: "release", value: rel.name, data: { "data-release": rel.name }, checked: current === rel.name,
      className: "release-opt", title: rel.ref ? `cited at ${rel.ref}` : null,
    },
    h("span", null, h("span", { class: "bug-name" }, rel.name), " ",
      h("span", { class: "release-tags muted" }, rel.tags || "")),
    h("span", { class: "bug-sum", "data-testid": "release-summary" }, rel.summary || ""));
  }

  function createOption(type, text) {
    return choice({
      group: "create", value: "create:" + type, data: { "data-create": type }, checked: create === type,
      className: "release-opt",
    }, h("span", { class: "bug-name" }, type), h("span", { class: "bug-sum" }, text));
  }

  let listKey = "";
  function render(v) {
    const list = Array.isArray(v.releases) ? v.releases : [];
    const k = JSON.stringify([list, v.newer_main]);
    if (k === listKey) return;
    listKey = k;
    fill(pop.panel,
      h("fieldset", { class: "bug-list" },
        h("legend", null, "Run it as a RisingWave release"),
        list.map(option)),
      chooseCreate ? h("fieldset", { class: "bug-list", "data-testid": "create-menu" },
        h("legend", null, "How the job was created"),
        createOption("foreground", "background_ddl false, RisingWave's default: the CREATE waits for the backfill"),
        createOption("background", "SET BACKGROUND_DDL = true: the CREATE returns at once")) : null,
      v.newer_main ? h("p", { class: "release-newer muted", "data-testid": "release-newer-main" }, v.newer_main) : null,
      h("p", { class: "menu-hint muted" }, "Arrow keys choose, Enter closes the menu."),
      compare ? h("div", { class: "pop-foot" },
        h("button", {
          type: "button", class: "btn", "data-testid": "compare-release-btn", disabled: list.length > 1 ? null : true,
          title: "This run and the same script under another release, side by side, step by step",
          onclick: () => { pop.close(); compare(); },
        }, "Compare with another release…"),
        compareCreate ? h("button", {
          type: "button", class: "btn", "data-testid": "compare-create-btn",
          title: "This run with the job created in the foreground and in the background, side by side",
          onclick: () => { pop.close(); compareCreate(); },
        }, "Compare foreground with background…") : null) : null);
  }

  return {
    wrap: pop.wrap,
    open: () => { pop.open(); },
    update(view) {
      if (!view) return;
      current = view.release || null;
      create = view.create || null;
      render(view);
      fill(status, (current || "…") + (create === "background" ? " · background" : ""));
      const dflt = (view.releases || []).find((r) => r.default);
      pop.button.classList.toggle("on", !!(current && dflt && current !== dflt.name) || create === "background");
      for (const r of pop.panel.querySelectorAll("input[type=radio]")) r.checked = r.value === current || r.value === "create:" + create;
    },
  };
}
