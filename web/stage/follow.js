// follow.js — on a phone (the document layout, where the columns stack and the narration and the
// step controls stick to the bottom) each step brings what it changed into view: the first
// stage panel the view's `changed` names, placed just above the sticky bottom part so that
// nothing covers it. The upstream queue changes whenever a message is delivered; when another
// panel changed too, that panel (the message's effect) is the one shown. The failure panel wins
// when the step failed. The other panels the step changed are named in the sticky part's strip
// (changed-strip.js), which brings each into view the same way (reveal). In the one-screen
// layouts everything is already in view: nothing moves.

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
 * The stage panels the last step changed, in stage order (the failure first), from the view's
 * `changed` (docs/view.md): each key true names the element whose data-testid is the key with -
 * for _ (`marked`), in the panel box that holds it (`panel`). The stage's panels are the failure
 * panel and those in #stage (not the narration, the note, the phase or the epoch); panels not
 * shown are left out.
 */
export function changedPanels(changed, root = document) {
  const stage = root.querySelector("#stage");
  return Object.keys(changed || {}).filter((k) => changed[k])
    .map((k) => root.querySelector(`[data-testid="${k.replaceAll("_", "-")}"]`))
    // (checkVisibility needs the style only, not a layout as getClientRects would)
    .filter((el) => el && (el.id === "fatal" || stage?.contains(el)) && !el.hidden && el.checkVisibility())
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
    .map((el) => ({ id: el.dataset.testid, marked: el, panel: el.closest(".panel") || el }));
}

/** The element to bring into view after the step whose view's `changed` is given, or null. */
export function target(changed, root = document) {
  changed = changedPanels(changed, root);
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

/** follow(changed): in the document layout, reveal the target of the step whose view's `changed` is given; returns it (or null). */
export function follow(changed, { smooth = true } = {}) {
  if (layout() !== "flow") return null;
  const el = target(changed);
  return el ? reveal(el, { smooth }) : null;
}
