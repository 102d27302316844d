// teach.js — the teaching tools wired together for app.js: the bug-mode menu and banner, the
// explorer, compare, predict mode, presenter mode and the Save menu. app.js asks it before
// stepping forward (predict mode may take over), tells it about every new view, and reads the
// bug mode for the URL.
import { h } from "./dom.js";
import { createBugMode } from "./bugmode.js";
import { createCompare } from "./compare.js";
import { createExplorer } from "./explorer.js";
import { createPredict } from "./predict.js";
import { createPresenter } from "./presenter.js";
import { createExport } from "./export.js";

/**
 * createTeach({explainer, run(fn, opts) → Promise, stop(), getView(), getName(), showToast(msg)})
 */
export function createTeach({ explainer, run, stop, getView, getName, showToast }) {
  const q = (id) => document.getElementById(id);
  let bugOff = false; // the learner turned bug mode off explicitly (written to the URL as bug=none)
  function setBug(name, opts) {
    bugOff = name === "none";
    return run(() => explainer.bug(name), opts);
  }

  const compare = createCompare(q("compare-dialog"), { explainer, getView, getBugs: () => bugMode.bugs });
  const bugMode = createBugMode({
    banner: q("bug-banner"),
    choose: (name) => { stop(); setBug(name).catch(() => {}); },
    compare: (name) => compare.openBug(name),
  });
  const explorer = createExplorer(q("explorer-dialog"), {
    explainer,
    openExample: (text) => { stop(); run(() => explainer.load(text)).catch(() => {}); },
    compareWith: (text, label) => compare.openText(text, label),
  });
  const predict = createPredict({ panel: q("predict-panel"), step: () => run(() => explainer.step()) });
  const presenter = createPresenter({ notes: q("speaker-notes") });
  const save = createExport({ explainer, getName, onError: showToast });

  const exploreBtn = h("button", {
    type: "button", class: "btn", id: "explore-btn", "aria-haspopup": "dialog", "aria-keyshortcuts": "x",
    "data-testid": "explore-btn", title: "Explore every interleaving of this scenario (x)",
    onclick: () => explorer.open(),
  }, "Explore…");
  q("tools").append(bugMode.wrap, exploreBtn,
    h("span", { class: "toggle-wrap" }, predict.toggle, predict.scoreEl), presenter.toggle);
  q("export-wrap").replaceWith(save.wrap);

  explainer.bugs().then((list) => bugMode.setBugs(list), () => bugMode.setBugs([]));

  return {
    predict, presenter, explorer, compare,
    openBugMenu: () => bugMode.open(),
    /** true when predict mode takes over this step forward */
    interceptStep: (view) => predict.intercept(view),
    /** the bug mode for the URL: a name, "none" when turned off by the learner, or null */
    urlBug(view) { return view && view.bug ? view.bug.name : (bugOff ? "none" : null); },
    resetBug() { bugOff = false; },
    /** turn bug mode `name` ("none": off) on for the open scenario */
    setBug,
    update(view) {
      bugMode.update(view);
      predict.onChange(view);
      presenter.update(view);
    },
  };
}
