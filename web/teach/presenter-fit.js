// presenter-fit.js — in presenter mode, every panel the step changed is shown whole on the one
// screen. style.css sizes the panels to their content (the unchanged ones give way first); a
// changed long list (the upstream queue, the output log) may scroll inside itself but keeps what
// changed in sight (--keep, set here). When a column still cannot hold its changed panels, the
// columns' widths are shifted towards it (its text wraps less, so it gets shorter) and, if that
// is not enough, what stands above the stage gives way (:root.fit-tight: the bug-mode banner keeps
// its name and buttons, not its explanation, which the speaker has) and then the type is scaled
// down a little (--fit); the first arrangement that fits is kept, else the one that cuts least.
// It reads layout only in presenter mode, once per view.

const BASE = [1, 1.2, 1]; // the stage's columns (style.css, the wide layout)
const WIDEN = [1, 1.35, 1.7, 2.1];
const SCALES = [1, 0.93, 0.86, 0.8];
// [tight, scale]: the stage at full size first, then with the chrome above it tight, then smaller
const TRIES = [[false, 1], ...SCALES.map((s) => [true, s])];

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

/** Set --keep on each changed list panel: its heading, padding and kept items. */
function setKeeps(panels) {
  for (const p of panels) {
    if (!isList(p) || !must(p)) continue;
    const items = keptItems(p).filter(shown);
    if (!items.length) continue;
    const body = p.querySelector(".panel-body");
    const span = items.at(-1).getBoundingClientRect().bottom - items[0].getBoundingClientRect().top;
    const chrome = p.getBoundingClientRect().height - body.getBoundingClientRect().height;
    p.style.setProperty("--keep", `${Math.ceil(span + chrome + 8)}px`);
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
          px += Math.max(0, bb.top - items[0].getBoundingClientRect().top) + Math.max(0, items.at(-1).getBoundingClientRect().bottom - bb.bottom);
        }
      } else px += Math.max(0, body.scrollHeight - body.clientHeight - 1);
    }
  }
  return px;
}

/** Undo every adjustment (out of presenter mode, and before each fit). */
export function unfit(stage = document.getElementById("stage")) {
  if (!stage) return;
  document.documentElement.style.removeProperty("--fit");
  document.documentElement.classList.remove("fit-tight");
  stage.style.removeProperty("grid-template-columns");
  for (const p of stage.querySelectorAll(".panel")) p.style.removeProperty("--keep");
}

/** fitStage(): arrange the projected stage for the view just drawn (presenter mode, one-screen layout). */
export function fitStage(stage = document.getElementById("stage")) {
  if (!stage) return;
  unfit(stage);
  const cols = [...stage.querySelectorAll(":scope > .col")];
  const panels = [...stage.querySelectorAll(".col > .panel")];
  if (cols.length !== 3 || getComputedStyle(stage).gridTemplateColumns.split(" ").length !== 3) return; // not the three-column layout
  for (const c of cols) c.scrollTop = 0;
  const root = document.documentElement;
  const apply = (tight, scale, weights) => {
    root.classList.toggle("fit-tight", tight);
    if (scale === 1) root.style.removeProperty("--fit"); else root.style.setProperty("--fit", String(scale));
    stage.style.setProperty("grid-template-columns", weights.map((w) => `minmax(0, ${w}fr)`).join(" "));
    for (const p of panels) p.style.removeProperty("--keep");
    setKeeps(panels);
    return cut(cols, panels);
  };
  let best = null;
  for (const [tight, scale] of TRIES) {
    // the column that hides most at the base widths is the one to widen
    const base = apply(tight, scale, BASE);
    if (base === 0) return;
    if (!best || base < best.px) best = { px: base, tight, scale, weights: BASE };
    const worst = cols.map((c) => cut([c], panels)).reduce((w, px, i, all) => (px > all[w] ? i : w), 0);
    for (const k of WIDEN.slice(1)) {
      const weights = BASE.map((w, i) => (i === worst ? w * k : w));
      const px = apply(tight, scale, weights);
      if (px === 0) return;
      if (px < best.px) best = { px, tight, scale, weights };
    }
  }
  apply(best.tight, best.scale, best.weights);
}
