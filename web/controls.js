// controls.js — the step controls: first/back/play/step/last, speed, "step N / M", the
// timeline slider with its marks (barriers, errors, recoveries) along the bottom, and the
// numbered list of what can happen next (the view's actions) in the dock beside the narration.
import { h, fill } from "./dom.js";
import { icon, installIcons } from "./icons.js";

const MARK_GLYPH = { barrier: "│", error: "✕", recovery: "⟲", end: "■" };
const MARK_NAME = { barrier: "barrier", error: "error", recovery: "recovery", end: "end" };

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
  els.slider.addEventListener("input", () => fill(els.count, `step ${els.slider.value} / ${els.slider.max}`));
  els.slider.addEventListener("change", () => handlers.goto(Number(els.slider.value)));

  let marksKey = "";

  function update(view) {
    const n = view.step ?? 0;
    const m = view.steps ?? 0;
    fill(els.count, `step ${n} / ${m}`);
    els.slider.max = String(Math.max(m, n));
    els.slider.value = String(n);
    els.slider.setAttribute("aria-valuetext", `step ${n} of ${m}, ${view.phase || ""}`);
    els.first.disabled = n === 0;
    els.back.disabled = n === 0;
    const atEnd = n >= m;
    els.step.disabled = atEnd;
    els.last.disabled = atEnd;
    const mk = JSON.stringify([view.marks, m]);
    if (mk !== marksKey) { marksKey = mk; renderMarks(view); }
    for (const b of els.marks.children) b.classList.toggle("here", Number(b.dataset.step) === n);
    renderActions(view);
  }

  function renderMarks(view) {
    const m = Math.max(view.steps ?? 0, view.step ?? 0) || 1;
    const showLabels = m <= 48;
    fill(els.marks, (view.marks || []).map((mark) => {
      const name = `${MARK_NAME[mark.kind] || mark.kind}${mark.label ? " " + mark.label : ""} at step ${mark.step}`;
      const b = h("button", {
        type: "button", class: ["tl-mark", "mk-" + mark.kind], "data-step": mark.step,
        title: name, "aria-label": "go to " + name,
        onclick: () => handlers.goto(mark.step),
      }, h("span", { class: "tick", "aria-hidden": "true" }, MARK_GLYPH[mark.kind] || "•"),
        (showLabels || mark.kind !== "barrier") && mark.label !== MARK_GLYPH[mark.kind] ? h("span", { class: "mlabel", "aria-hidden": "true" }, mark.kind === "barrier" ? (mark.label || "") : (mark.label || MARK_NAME[mark.kind] || "")) : null);
      b.style.left = `${(mark.step / m) * 100}%`;
      return b;
    }));
  }

  function renderActions(view) {
    const acts = view.actions || [];
    if (!acts.length) {
      fill(els.actions, h("span", { class: "muted" }, "nothing can happen next"));
      return;
    }
    fill(els.actions, acts.map((a, i) => h("button", {
      type: "button",
      class: ["btn", "action", "act-" + a.kind, a.scripted && "scripted"],
      "data-action": a.id, "data-kind": a.kind,
      title: (a.scripted ? "follows the script" : "branches from the script") + (a.step ? " · " + a.step : ""),
      "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
      onclick: () => handlers.act(a),
    }, i < 9 ? h("kbd", { "aria-hidden": "true" }, String(i + 1)) : null, " ", a.label || a.step,
      a.scripted ? null : h("span", { class: "branch" }, "branch"))));
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
