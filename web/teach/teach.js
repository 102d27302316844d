// teach.js — the teaching tools wired together for app.js: the bug-mode menu and banner, the
// explorer, compare, predict mode, presenter mode and the Save menu. Commands go through the
// session (so they stop autoplay); the session asks predict mode before each step forward and
// presenter mode after each autoplayed step.
//
// What the first view shows is made here at once: the bug menu and banner, the Explore button,
// predict and presenter mode (each may be on from this session) and the Save menu. The explorer
// and compare are dialogs: their modules load on first use (lazy.js), from the Explore button or
// key, the bug menu, the banner or an explored outcome.
import { h } from "../ui/dom.js";
import { createBugMode } from "./bugmode.js";
import { createReleaseMenu } from "./release-menu.js";
import { createPredict } from "./predict.js";
import { createPresenter } from "./presenter.js";
import { createExport } from "../tools/export.js";
import { focusStage } from "../ui/keyboard.js";
import { lazy } from "../boot/lazy.js";
import { withSheets } from "../ui/sheet.js";
import { openOutcome } from "../tools/open-outcome.js";

/**
 * createTeach({explainer, session, getName() → file name base, showToast(msg)}) →
 * {predict, presenter, openExplorer(), openBugMenu(), setScenarios(list), update(view), prefetch()}
 */
export function createTeach({ explainer, session, getName, showToast }) {
  const q = (id) => document.getElementById(id);
  const compare = lazy(withSheets(() => import("./compare.js"), "web/teach/compare.css"), ({ createCompare }) =>
    createCompare(q("compare-dialog"), { explainer, getView: () => session.view, getBugs: () => bugMode.bugs }), showToast);
  const bugMode = createBugMode({
    banner: q("bug-banner"),
    choose: (name) => session.fire("bug", name),
    compare: (name) => compare.use((c) => c.openBug(name)),
    // the built-in that shows a bug mode best, opened with that mode on (a file may carry its own)
    openBest: async (scenario, bug) => {
      try {
        const v = await session.run("open", scenario);
        if ((v?.bug?.name || "none") !== bug) await session.run("bug", bug);
      } catch (e) { showToast(e && e.message ? e.message : String(e)); }
      focusStage();
    },
    done: () => focusStage(),
  });
  const releaseMenu = createReleaseMenu({
    choose: (name) => session.fire("release", name),
    chooseCreate: (type) => session.fire("create", type),
    compare: () => compare.use((c) => c.openRelease()),
    compareCreate: () => compare.use((c) => c.openCreate()),
    done: () => focusStage(),
  });
  const explorer = lazy(withSheets(() => import("../tools/explorer.js"), "web/tools/explorer.css"), ({ createExplorer }) => createExplorer(q("explorer-dialog"), {
    explainer,
    openExample: (text) => openOutcome(session, text).catch((e) => showToast(e && e.message ? e.message : String(e))),
    compareWith: (text, label) => compare.use((c) => c.openText(text, label)),
  }), showToast);
  const openExplorer = () => explorer.use((e) => e.open());
  // The quiz's own step: autoplay stops, and predict mode is not asked again.
  const predict = createPredict({
    panel: q("predict-panel"),
    step: () => session.run("pause").then(() => session.enqueue(() => explainer.step())),
  });
  const presenter = createPresenter({
    tools: q("intro-tools"),
    run: (name, arg) => (arg === undefined ? session.fire(name) : session.fire(name, arg)),
    idle: () => session.enqueue(() => {}),
  });
  const save = createExport({ explainer, getName, onError: showToast });

  const exploreBtn = h("button", {
    type: "button", class: "btn", id: "explore-btn", "aria-haspopup": "dialog", "aria-keyshortcuts": "x",
    "data-testid": "explore-btn", title: "Explore every interleaving of this scenario (x)",
    onclick: openExplorer,
  }, "Explore…");
  q("tools").append(releaseMenu.wrap, bugMode.wrap, exploreBtn,
    h("span", { class: "toggle-wrap" }, predict.toggle, predict.scoreEl), presenter.toggle);
  q("export-wrap").replaceWith(save.wrap);

  explainer.bugs().then((list) => bugMode.setBugs(list), () => bugMode.setBugs([]));

  return {
    predict, presenter, openExplorer,
    /** fetch the explorer's and compare's modules ahead of their first use */
    prefetch: () => Promise.all([explorer.prefetch(), compare.prefetch()]),
    openBugMenu: () => bugMode.open(),
    /** the built-in scenarios (app.js lists them once, after the first view): the bug menu's titles */
    setScenarios(list) { bugMode.setTitles(Object.fromEntries((list || []).map((x) => [x.name, x.title]))); },
    update(view) {
      bugMode.update(view);
      releaseMenu.update(view);
      predict.onChange(view);
      presenter.update(view);
    },
    /** after a view is drawn whole (the glossary's words too): presenter mode fits the stage */
    settle() { presenter.settle(); },
  };
}
