// follow.js — on a phone (the document layout, where the columns stack and the narration and the
// step controls stick to the bottom) each step brings what it changed into view: the first
// panel render.js marked data-changed="true", placed just above the sticky bottom part so that
// nothing covers it. The upstream queue changes whenever a message is delivered; when another
// panel changed too, that panel (the message's effect) is the one shown. The failure panel wins
// when the step failed. In the one-screen layouts everything is already in view: nothing moves.

const STAGE_PANELS = ["fatal", "upstream-next", "snapshot", "upstream-content", "buffer", "builders",
  "progress", "state-table", "progress-table", "outputs", "downstream", "invariant"];

/** The layout in force, as style.css names it in --layout ("flow" or "shell"). */
export function layout() {
  return getComputedStyle(document.documentElement).getPropertyValue("--layout").trim() || "flow";
}

/** The element to bring into view after a step, or null. */
export function target(root = document) {
  const changed = STAGE_PANELS
    .map((id) => root.querySelector(`[data-testid="${id}"]`))
    .filter((el) => el && !el.hidden && el.dataset.changed === "true");
  if (!changed.length) return null;
  const fatal = changed.find((el) => el.id === "fatal");
  if (fatal) return fatal;
  const pick = changed.length > 1 && changed[0].dataset.testid === "upstream-next" ? changed[1] : changed[0];
  return pick.closest(".panel") || pick;
}

/**
 * follow(): unless the target is wholly in view above the sticky bottom part, scroll the page so
 * its top sits just below the top of the screen (what changed after it follows it there).
 */
export function follow({ smooth = true } = {}) {
  if (layout() !== "flow") return null;
  const el = target();
  if (!el) return null;
  const bottom = document.getElementById("bottom");
  const covered = bottom && getComputedStyle(bottom).position === "sticky" ? bottom.getBoundingClientRect().height : 0;
  const free = window.innerHeight - covered;
  const r = el.getBoundingClientRect();
  const margin = 8;
  // Already wholly in the free part of the screen: leave the page where the reader has it.
  if (r.top >= 0 && r.bottom <= free) return el;
  const dy = r.top - margin;
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollBy({ top: dy, behavior: smooth && !reduce ? "smooth" : "instant" });
  return el;
}
