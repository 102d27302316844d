// intro.js — the scenario's title on one line and its summary behind an "About" disclosure: the
// summary is open before the first step of a scenario and folds away once stepping starts, so
// the stage keeps the screen. The button opens it again (or closes it) until the step changes.

/** createIntro({button, summary}) → {update(view)} */
export function createIntro({ button, summary }) {
  let shownFor = null;   // {scenario, step} the learner chose for, or null
  let chosen = false;    // what the learner chose then
  let last = null;

  const scenarioOf = (v) => `${v.name ?? ""}\u0000${v.revision ?? ""}\u0000${v.title ?? ""}`;

  function set(open) {
    // (written only when it changes: an attribute written at every step is a style recalculation)
    if (summary.hidden !== !open) summary.hidden = !open;
    if (button.getAttribute("aria-expanded") !== String(open)) button.setAttribute("aria-expanded", String(open));
  }

  button.addEventListener("click", () => {
    if (!last) return;
    chosen = summary.hidden;
    shownFor = { scenario: scenarioOf(last), step: last.step };
    set(chosen);
  });

  return {
    update(view) {
      last = view;
      const mine = shownFor && shownFor.scenario === scenarioOf(view) && shownFor.step === view.step;
      if (!mine) shownFor = null;
      const presenting = document.documentElement.classList.contains("presenter");
      set(mine ? chosen : view.step === 0 && !presenting);
      const none = !String(view.summary || "").trim();
      if (button.hidden !== none) button.hidden = none;
    },
  };
}
