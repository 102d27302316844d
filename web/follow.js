// follow.js — on a phone (the document layout, where the columns stack and the narration and the
// step controls stick to the bottom) each step brings what it changed into view: the first
// panel render.js marked data-changed="true", placed just above the sticky bottom part so that
// nothing covers it. The upstream queue changes whenever a message is delivered; when another
// panel changed too, that panel (the message's effect) is the one shown. The failure panel wins
// when the step failed. The other panels the step changed are named in the sticky part's strip
// (changed-strip.js), which brings each into view the same way (reveal). In the one-screen
// layouts everything is already in view: nothing moves.

const STAGE_PANELS = ["fatal", "upstream-next", "snapshot", "upstream-content", "buffer", "builders",
  "progress", "state-table", "progress-table", "outputs", "downstream", "invariant"];

// The layout changes only when the window's size crosses style.css's breakpoint, so it is read
// from style.css once and again only after the window was resized: reading it is a style
// recalculation, and after every step that would come between the render's writes and the
// browser's own frame.
let known = null;
const layoutListeners = [];
window.addEventListener("resize", () => {
  if (known === null) return;
  const was = known;
  known = null;
  if (layout() !== was) for (const f of layoutListeners) f(known);
});

/** The layout in force, as style.css names it in --layout ("flow" or "shell"). */
export function layout() {
  if (known === null) known = getComputedStyle(document.documentElement).getPropertyValue("--layout").trim() || "flow";
  return known;
}

/** onLayout(f): f(layout) whenever a resize changes the layout in force. */
export function onLayout(f) { layoutListeners.push(f); }

/**
 * The stage panels the last step changed, in stage order (the failure first): for each, the
 * element render.js marked (`marked`, its data-testid is the view's `changed` key) and the panel
 * box that holds it (`panel`). Panels not shown are left out.
 */
export function changedPanels(root = document) {
  return STAGE_PANELS
    .map((id) => root.querySelector(`[data-testid="${id}"]`))
    // (checkVisibility needs the style only, not a layout as getClientRects would)
    .filter((el) => el && !el.hidden && el.dataset.changed === "true" && el.checkVisibility())
    .map((el) => ({ id: el.dataset.testid, marked: el, panel: el.closest(".panel") || el }));
}

/** The element to bring into view after a step, or null. */
export function target(root = document) {
  const changed = changedPanels(root);
  if (!changed.length) return null;
  const fatal = changed.find((c) => c.id === "fatal");
  if (fatal) return fatal.panel;
  return (changed.length > 1 && changed[0].id === "upstream-next" ? changed[1] : changed[0]).panel;
}

/** The height of the screen's free part: above the sticky bottom part (the whole screen if none). */
export function freeHeight() {
  const bottom = document.getElementById("bottom");
  const covered = bottom && getComputedStyle(bottom).position === "sticky" ? bottom.getBoundingClientRect().height : 0;
  return window.innerHeight - covered;
}

/**
 * reveal(el): unless el is wholly in view above the sticky bottom part, scroll the page so its
 * top sits just below the top of the screen (what changed after it follows it there).
 */
export function reveal(el, { smooth = true } = {}) {
  const free = freeHeight();
  const r = el.getBoundingClientRect();
  const margin = 8;
  // Already wholly in the free part of the screen: leave the page where the reader has it.
  if (r.top >= 0 && r.bottom <= free) return el;
  const dy = r.top - margin;
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollBy({ top: dy, behavior: smooth && !reduce ? "smooth" : "instant" });
  return el;
}

/** follow(): in the document layout, reveal the step's target; returns it (or null). */
export function follow({ smooth = true } = {}) {
  if (layout() !== "flow") return null;
  const el = target();
  return el ? reveal(el, { smooth }) : null;
}
