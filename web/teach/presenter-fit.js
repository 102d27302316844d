// presenter-fit.js — in presenter mode, every panel the step changed is shown whole on the one
// screen, and nothing moves sideways from step to step: the columns keep their widths
// (style.css), only heights and, if need be, the type follow the step. style.css sizes the panels
// to their content (the unchanged ones give way first); a changed long list (the upstream queue,
// the output log) may scroll inside itself but keeps what changed in sight (--keep, set here), at
// most the room its column has left: a log whose new entries outgrow it shows the newest of them
// (its box is laid out from its bottom). When a column still cannot hold its changed panels, what
// stands above the stage gives way (:root.fit-tight: the bug-mode banner keeps its name and
// buttons, not its explanation, which the speaker has) and then the type is scaled down a little
// (--fit; the stage's type keeps its floor, style.css), and last the stage's type too, under its
// floor (fit-under); the first arrangement that fits is kept, else the one that cuts least. Then
// the narration's box is made to end after a whole explanation: the next one is wholly below it
// (the box scrolls to it), never cut mid-sentence.
// It reads layout only in presenter mode, once per view.

const SCALES = [1, 0.93, 0.86, 0.8];
// [tight, scale, under]: the stage at full size first, then with the chrome above it tight, then
// smaller; last, the stage's type too under its floor (fit-under), for a step nothing else fits
const TRIES = [[false, 1, false], ...SCALES.map((s) => [true, s, false]), ...SCALES.slice(1).map((s) => [true, s, true])];

/** The changed items of a list panel that must stay in sight: the upstream queue's first ones, the log's new ones. */
function keptItems(panel) {
  if (panel.classList.contains("panel-outputs")) {
    const items = [...panel.querySelectorAll("#outputs > li")];
    const first = items.findIndex((li) => li.classList.contains("new"));
    return first < 0 ? items.slice(-1) : items.slice(first);
  }
  return [...panel.querySelectorAll("#upstream-next > li")].slice(0, 3);
}

/** A panel that must be whole: the step changed it, or the lesson names it (presenter.js .named). */
const must = (p) => p.classList.contains("panel-changed") || p.classList.contains("named");
const isList = (panel) => panel.classList.contains("panel-next") || panel.classList.contains("panel-outputs");
const shown = (el) => el.getClientRects().length > 0;
const CLIPS = ["clip-both", "clip-up", "clip-down", "clip-across"]; // (markClipped)
const bounded = new WeakSet(); // list panels whose --keep is their column's room: their oldest kept items may be out of sight

/** The most of its column a panel can have: the column less its heading, the gaps and what the other panels keep. */
function room(panel) {
  const col = panel.parentElement;
  const cs = getComputedStyle(col);
  const kids = [...col.children].filter(shown);
  let px = col.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) - (parseFloat(cs.rowGap) || 0) * (kids.length - 1);
  for (const k of kids) {
    if (k === panel) continue;
    const least = k.classList.contains("panel") && !must(k);
    px -= least ? parseFloat(getComputedStyle(k).minHeight) || 0 : k.getBoundingClientRect().height;
  }
  return Math.floor(px);
}

/** Set --keep on each changed list panel: its heading, padding and kept items, within its column's room. */
function setKeeps(panels) {
  for (const p of panels) {
    bounded.delete(p);
    if (!isList(p) || !must(p)) continue;
    const items = keptItems(p).filter(shown);
    if (!items.length) continue;
    const body = p.querySelector(".panel-body");
    const span = items.at(-1).getBoundingClientRect().bottom - items[0].getBoundingClientRect().top;
    const chrome = p.getBoundingClientRect().height - body.getBoundingClientRect().height;
    // (never less than the first of them, the log's newest)
    const least = Math.ceil((p.classList.contains("panel-outputs") ? items.at(-1) : items[0]).getBoundingClientRect().height + chrome + 8);
    const want = Math.ceil(span + chrome + 8), most = room(p);
    if (want > most) bounded.add(p);
    p.style.setProperty("--keep", `${Math.max(least, Math.min(want, most))}px`);
  }
}

/** How many pixels of changed panels the current arrangement hides (0: everything the step changed is whole). */
function cut(cols, panels) {
  let px = 0;
  for (const c of cols) {
    const b = c.getBoundingClientRect();
    for (const p of panels) {
      if (!c.contains(p) || !must(p) || !shown(p)) continue;
      const r = p.getBoundingClientRect();
      px += Math.max(0, r.bottom - b.bottom) + Math.max(0, b.top - r.top);
      const body = p.querySelector(".panel-body");
      if (!body) continue;
      if (isList(p)) {
        const items = keptItems(p).filter(shown);
        if (items.length) {
          const bb = body.getBoundingClientRect();
          // (a bounded list: the one item setKeeps keeps at least in sight is enough, the log's
          // newest, the upstream queue's next; the rest scroll, and its tab says so)
          const [top, end] = !bounded.has(p) ? [items[0], items.at(-1)] : p.classList.contains("panel-outputs") ? [items.at(-1), items.at(-1)] : [items[0], items[0]];
          px += Math.max(0, bb.top - top.getBoundingClientRect().top) + Math.max(0, end.getBoundingClientRect().bottom - bb.bottom);
        }
      } else px += Math.max(0, body.scrollHeight - body.clientHeight - 1);
    }
  }
  return px;
}

/** End the narration's box after the last explanation it holds whole (none is cut mid-sentence). */
function snapNarration() {
  const box = document.querySelector("#narration-live > .why");
  if (!box || !shown(box)) return;
  const dock = box.closest(".dock");
  // (a first explanation taller than the box: the box grows to it, what can happen next gives way)
  const first = box.firstElementChild;
  if (first && first.getBoundingClientRect().height > box.clientHeight + 0.5) {
    dock?.classList.add("narr-long");
    box.style.setProperty("min-height", `${Math.ceil(first.getBoundingClientRect().height)}px`);
  }
  // (the box's room can shrink as it does: again until it holds)
  for (let i = 0; i < 3 && box.scrollHeight > box.clientHeight + 1; i++) {
    const roomPx = box.clientHeight;
    const top = box.getBoundingClientRect().top - box.scrollTop;
    let end = 0;
    for (const li of box.children) {
      const bottom = li.getBoundingClientRect().bottom - top;
      if (bottom > roomPx + 0.5) break;
      end = bottom;
    }
    if (!end) break;
    box.style.setProperty("max-height", `${Math.floor(end * 10) / 10}px`);
    if (box.clientHeight >= end - 0.5) break;
  }
}

/** Undo every adjustment (out of presenter mode, and before each fit). */
export function unfit(stage = document.getElementById("stage")) {
  if (!stage) return;
  document.documentElement.style.removeProperty("--fit");
  document.documentElement.classList.remove("fit-tight", "fit-under");
  for (const p of stage.querySelectorAll(".panel")) { p.style.removeProperty("--keep"); p.classList.remove("collapsed", "clipped", ...CLIPS); p.style.removeProperty("--clip-top"); p.style.removeProperty("--clip-bottom"); }
  const why = document.querySelector("#narration-live > .why");
  why?.style.removeProperty("max-height");
  why?.style.removeProperty("min-height");
  document.querySelector(".dock")?.classList.remove("narr-long");
}

/** The stage's arranger for the view just drawn: apply(i) → px the i-th arrangement cuts; null: not the three-column layout. */
function arranger(stage) {
  unfit(stage);
  const cols = [...stage.querySelectorAll(":scope > .col")];
  const panels = [...stage.querySelectorAll(".col > .panel")];
  if (cols.length !== 3 || getComputedStyle(stage).gridTemplateColumns.split(" ").length !== 3) return null;
  for (const c of cols) c.scrollTop = 0;
  const root = document.documentElement;
  return (i) => {
    const [tight, scale, under] = TRIES[i];
    root.classList.toggle("fit-tight", tight);
    root.classList.toggle("fit-under", under);
    if (scale === 1) root.style.removeProperty("--fit"); else root.style.setProperty("--fit", String(scale));
    for (const p of panels) p.style.removeProperty("--keep");
    setKeeps(panels);
    return cut(cols, panels);
  };
}

/**
 * fitStage(stage, from): arrange the projected stage for the view just drawn (presenter mode,
 * one-screen layout), trying the arrangements from the from-th on (a lesson section's, so that its
 * stops keep one type); → the index of the arrangement kept (-1: not the three-column layout).
 */
export function fitStage(stage = document.getElementById("stage"), from = 0) {
  const apply = stage ? arranger(stage) : null;
  if (!apply) return -1;
  let best = null, kept = -1;
  for (let i = Math.max(0, Math.min(from, TRIES.length - 1)); i < TRIES.length; i++) {
    const px = apply(i);
    if (px === 0) { best = null; kept = i; break; }
    if (!best || px < best.px) best = { px, i };
  }
  if (best) { apply(best.i); kept = best.i; }
  collapseCut(stage);
  markClipped(stage);
  snapNarration();
  return kept;
}

/** Every panel on screen part of whose content is out of sight (its box scrolls, or its column
 *  cuts it) says so, and where the rest is, with a tab on its edge that takes no room
 *  (style.css .clipped: "more ↓"; a log laid out from its newest: "more ↑"): no cut goes unsaid. */
function markClipped(stage) {
  for (const p of stage.querySelectorAll(".col > .panel")) {
    p.classList.remove("clipped", ...CLIPS);
    p.style.removeProperty("--clip-top");
    p.style.removeProperty("--clip-bottom");
    if (!shown(p) || p.classList.contains("collapsed")) continue;
    const body = p.querySelector(".panel-body"), r = p.getBoundingClientRect(), c = p.parentElement.getBoundingClientRect();
    // (a box laid out from its bottom, the log, scrolls from 0 up to minus its overflow)
    const over = body ? body.scrollHeight - body.clientHeight : 0;
    const above = !body ? 0 : getComputedStyle(body).flexDirection === "column-reverse" ? over + body.scrollTop : body.scrollTop;
    const up = above > 1;
    const down = over - above > 1 || r.bottom > Math.min(c.bottom, innerHeight) + 1;
    const across = body && body.scrollWidth > body.clientWidth + 1;
    if (!(up || down || across)) continue;
    p.classList.add("clipped", up && down ? "clip-both" : up ? "clip-up" : down ? "clip-down" : "clip-across");
    // (the tab of a box whose rest is above: on the box's top edge, under the heading)
    if (up && !down) p.style.setProperty("--clip-top", `${Math.round(body.getBoundingClientRect().top - r.top - 1)}px`);
    // (and of a panel its column cuts: on the column's edge, in sight)
    const past = r.bottom - Math.min(c.bottom, innerHeight);
    if (past > 1) p.style.setProperty("--clip-bottom", `${Math.round(past)}px`);
  }
}

/** A panel the step did not change nor the lesson names, squeezed so that some of its content is
 *  cut, shows its heading only and says so (style.css .collapsed: "unchanged, collapsed"): one a
 *  column at a time, the most cut first, as the room it gives up may make the others whole; not
 *  one whose heading alone would take more room, cutting what must stay whole. (Not the long
 *  lists: they scroll.) */
function collapseCut(stage) {
  const cols = [...stage.querySelectorAll(":scope > .col")];
  const panels = [...stage.querySelectorAll(".col > .panel")];
  const cutPx = (p) => { const b = p.querySelector(".panel-body"); return b ? b.scrollHeight - b.clientHeight : 0; };
  const kept = new Set();
  let base = cut(cols, panels);
  for (let round = 0; round < 6; round++) {
    let any = false;
    for (const col of cols) {
      const squeezed = [...col.querySelectorAll(":scope > .panel")]
        .filter((p) => shown(p) && !must(p) && !isList(p) && !kept.has(p) && !p.classList.contains("collapsed") && cutPx(p) > 1);
      if (!squeezed.length) continue;
      const p = squeezed.sort((a, b) => cutPx(b) - cutPx(a))[0];
      const was = p.getBoundingClientRect().height;
      p.classList.add("collapsed");
      const px = cut(cols, panels);
      if (px > base || p.getBoundingClientRect().height > was + 0.5) { p.classList.remove("collapsed"); kept.add(p); } else base = px;
      any = true;
    }
    if (!any) return;
  }
}

/** Is arrangement j at most as large as arrangement i in every way (tight if i is, type no larger, floor off if i's is)? */
const within = (j, i) => (TRIES[j][0] || !TRIES[i][0]) && TRIES[j][1] <= TRIES[i][1] && (TRIES[j][2] || !TRIES[i][2]);

/**
 * fitsAt(stage, indexes) → those of the arrangements `indexes` that cut nothing of the view just
 * drawn (all of them: not the three-column layout). One within an arrangement that fits is taken
 * to fit without being tried (smaller everywhere).
 */
export function fitsAt(stage = document.getElementById("stage"), indexes = TRIES.map((_, i) => i)) {
  const apply = stage ? arranger(stage) : null;
  if (!apply) return indexes;
  const out = [];
  for (const i of indexes) if (out.some((f) => within(i, f)) || apply(i) === 0) out.push(i);
  return out;
}

/** Does arrangement i set the stage's type under its floor (fit-under)? */
export const underFloor = (i) => !!TRIES[i]?.[2];

/** The number of arrangements fitStage tries (from the largest type to the smallest). */
export const ARRANGEMENTS = TRIES.length;
