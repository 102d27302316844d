// flash.js — how often the change flash runs. A view marks what its step changed (.changed) and
// style.css draws a flash on it (a ring that shrinks over 1.1 s). When views come faster than a
// person reads them (a held arrow key, autoplay at 4×, a script walking explainer.step), the
// flashes of one step are cut by the next and the stage strobes: more than three flashes a
// second is what WCAG 2.3.1 tells pages not to show. So a view that comes less than a third of a
// second after the one before is drawn calm: its static highlight (outline, background) without
// the flash (the root's data-calm, style.css). The first view after a pause flashes again.
// It also spares a rapid walk the flash's frames (each a restyle and repaint of what flashes).

export const CALM_WITHIN_MS = 1000 / 3;

// A test hook: globalThis.__backfillFlashClock, when a function, is the clock instead of
// performance.now(), so that tests say how far apart views come instead of waiting.
const clock = () => (typeof globalThis.__backfillFlashClock === "function" ? globalThis.__backfillFlashClock() : performance.now());

/** createFlashPace(root) → {view(now)}: call view() as each view is drawn, before drawing it. */
export function createFlashPace(root = document.documentElement) {
  let last = -Infinity;
  return {
    view(now = clock()) {
      const calm = now - last < CALM_WITHIN_MS;
      last = now;
      if (("calm" in root.dataset) !== calm) {
        if (calm) root.dataset.calm = "";
        else delete root.dataset.calm;
      }
      return calm;
    },
  };
}
