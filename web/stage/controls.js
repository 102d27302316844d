// controls.js — the step controls: first/back/play/step/last, speed, "step N / M", the
// timeline slider with its marks (barriers, errors, recoveries, broken invariants) along the bottom, and the
// numbered list of what can happen next (the view's actions) in the dock beside the narration.
import { h, fill, fillIf, setText } from "../ui/dom.js";
import { icon, installIcons } from "../ui/icons.js";
import { legendOf } from "./chips.js";

// A mark's glyph and what it means are the engine's legend ("mark.KIND": "glyph meaning"), the
// one place glyphs are named; its short name (in the button's label) is here.
const MARK_NAME = { barrier: "barrier", error: "error", recovery: "recovery", end: "end", invariant: "invariant broken", dropped: "job dropped" };
/** The glyph of a mark's kind and its meaning, from the legend. */
function markLegend(kind) {
  const t = legendOf("mark", kind);
  const sp = t.indexOf(" ");
  if (t === kind || sp < 1) return { glyph: "•", meaning: MARK_NAME[kind] || kind };
  return { glyph: t.slice(0, sp), meaning: t.slice(sp + 1) };
}
const MAX_MARK_BUTTONS = 240; // barriers shown as buttons of their own; more are drawn as one picture

/**
 * createControls(handlers) wires the dock. handlers: {first, back, step, last, goto(n),
 * togglePlay, act(action), inject}. Returns {update(view), setPlaying(bool), speedMs()}.
 */
export function createControls(handlers) {
  const q = (id) => document.getElementById(id);
  const els = {
    first: q("btn-first"), back: q("btn-back"), play: q("btn-play"), step: q("btn-step"), last: q("btn-last"),
    speed: q("speed"), count: q("step-count"), slider: q("slider"), marks: q("marks"),
    actions: q("actions"), inject: q("inject-btn"),
  };
  installIcons(document.getElementById("controls"));
  installIcons(els.inject.parentElement);
  els.first.addEventListener("click", () => handlers.first());
  els.back.addEventListener("click", () => handlers.back());
  els.step.addEventListener("click", () => handlers.step());
  els.last.addEventListener("click", () => handlers.last());
  els.play.addEventListener("click", () => handlers.togglePlay());
  els.inject.addEventListener("click", () => handlers.inject());
  // The slider previews while dragging and seeks on release (or keyboard change).
  els.slider.addEventListener("input", () => setText(els.count, `step ${els.slider.value} / ${els.slider.max}`));
  els.slider.addEventListener("change", () => handlers.goto(Number(els.slider.value)));

  let marksKey = "";
  let markAt = new Map(); // step → the buttons of its marks
  let here = [];          // the marks shown as the current step's
  let dense = null;       // a dense timeline's drawing: {svg, here (its path), steps, m}

  function update(view) {
    const n = view.step ?? 0;
    const m = view.steps ?? 0;
    setText(els.count, `step ${n} / ${m}`);
    els.slider.max = String(Math.max(m, n));
    els.slider.value = String(n);
    els.slider.setAttribute("aria-valuetext", `step ${n} of ${m}, ${view.phase || ""}`);
    els.first.disabled = n === 0;
    els.back.disabled = n === 0;
    const atEnd = n >= m;
    els.step.disabled = atEnd;
    els.last.disabled = atEnd;
    // The marks change only with the script (its revision) and the number of steps: compared by
    // those, not by the whole list (5,000 marks in a 10,000-step scenario).
    const marks = view.marks || [];
    const last = marks[marks.length - 1];
    const mk = `${view.revision}|${Math.max(m, n)}|${marks.length}|${last ? last.step + last.kind : ""}`;
    if (mk !== marksKey) { marksKey = mk; renderMarks(view); here = []; }
    const now = markAt.get(n) || [];
    if (now !== here) {
      for (const b of here) b.classList.remove("here");
      for (const b of now) b.classList.add("here");
      here = now;
    }
    if (dense) dense.here.setAttribute("d", dense.steps.has(n) ? `M${n} 0V10` : "");
    renderActions(view);
  }

  function renderMarks(view) {
    const m = Math.max(view.steps ?? 0, view.step ?? 0) || 1;
    const marks = view.marks || [];
    // More barriers than the timeline has room for (a long scenario: one every other step) are
    // drawn as one picture of their ticks, at the same places, and a click on it goes to the
    // barrier nearest to it; each other mark stays a button of its own. (Thousands of buttons
    // were thousands of positioned boxes to lay out and paint at every step, and as many Tab
    // stops; the slider reaches every step.)
    const barriers = marks.filter((k) => k.kind === "barrier");
    const many = barriers.length > MAX_MARK_BUTTONS;
    markAt = new Map();
    dense = many ? denseTicks(barriers, m, (n) => handlers.goto(n)) : null;
    const buttons = (many ? marks.filter((k) => k.kind !== "barrier") : marks).map((mark) => {
      const b = markButton(mark, m, m <= 48, (n) => handlers.goto(n));
      if (!markAt.has(mark.step)) markAt.set(mark.step, []);
      markAt.get(mark.step).push(b);
      return b;
    });
    fill(els.marks, dense?.svg ?? null, buttons);
  }

  function renderActions(view) {
    const acts = view.actions || [];
    // (drawn again only when the actions changed: a focused one stays focused)
    fillIf(els.actions, JSON.stringify(acts), () => actionButtons(acts, (a) => handlers.act(a)));
  }

  function setPlaying(on) {
    els.play.setAttribute("aria-pressed", on ? "true" : "false");
    els.play.setAttribute("aria-label", on ? "Pause (Space)" : "Play (Space)");
    fill(els.play, icon(on ? "pause" : "play"));
  }

  return {
    update,
    setPlaying,
    speedMs: () => Number(els.speed.value) || 1200,
  };
}

/** markButton(mark, m, showLabels, goto): a mark of the timeline, placed at its step of m, that goes there. */
function markButton(mark, m, showLabels, goto) {
  const { glyph, meaning } = markLegend(mark.kind);
  const name = `${MARK_NAME[mark.kind] || mark.kind}${mark.label ? " " + mark.label : ""} at step ${mark.step}`;
  const b = h("button", {
    type: "button", class: ["tl-mark", "mk-" + mark.kind], "data-step": mark.step,
    title: `${name}: ${meaning}`, "aria-label": "go to " + name,
    onclick: () => goto(mark.step),
  }, h("span", { class: "tick", "aria-hidden": "true" }, glyph),
    (showLabels || mark.kind !== "barrier") && mark.label ? h("span", { class: "mlabel", "aria-hidden": "true" }, mark.label) : null);
  b.style.left = `${(mark.step / m) * 100}%`;
  return b;
}

/** denseTicks(barriers, m, goto) → {svg, here (its path), steps}: the barriers as one picture; a click goes to the nearest. */
function denseTicks(barriers, m, goto) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "tl-ticks mk-barrier");
  svg.setAttribute("viewBox", `0 0 ${m} 10`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  const path = (cls, d) => {
    const p = document.createElementNS(NS, "path");
    p.setAttribute("class", cls);
    p.setAttribute("d", d);
    p.setAttribute("vector-effect", "non-scaling-stroke");
    svg.append(p);
    return p;
  };
  path("ticks", barriers.map((k) => `M${k.step} 0V10`).join(""));
  const steps = barriers.map((k) => k.step);
  const dense = { svg, here: path("tick-here", ""), steps: new Set(steps) };
  svg.addEventListener("click", (ev) => {
    const r = svg.getBoundingClientRect();
    const at = ((ev.clientX - r.left) / (r.width || 1)) * m;
    // the barrier nearest to the click (steps are in order)
    let lo = 0, hi = steps.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (steps[mid] < at) lo = mid + 1; else hi = mid; }
    const best = lo > 0 && at - steps[lo - 1] < steps[lo] - at ? steps[lo - 1] : steps[lo];
    goto(best);
  });
  return dense;
}

function actionButtons(acts, act) {
  if (!acts.length) return h("span", { class: "muted" }, "nothing can happen next");
  return acts.map((a, i) => h("button", {
    type: "button",
    class: ["btn", "action", "act-" + a.kind, a.scripted && "scripted"],
    "data-action": a.id, "data-kind": a.kind,
    title: (a.scripted ? "follows the script" : "branches from the script") + (a.step ? " · " + a.step : ""),
    "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
    onclick: () => act(a),
  }, i < 9 ? h("kbd", { "aria-hidden": "true" }, String(i + 1)) : null, " ", a.label || a.step,
    a.scripted ? null : h("span", { class: "branch" }, "branch")));
}
