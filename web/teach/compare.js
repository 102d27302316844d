// compare.js — two runs of one scenario as two stages side by side (on a phone, one at a time
// behind two toggles): the main stage's panels drawn by its own render modules, at the same step,
// stepping together. The engine says what differs (compare / compare_at: session/stages.go): the
// panels, the vnodes within them and the rows only one run holds are marked ≠; "Jump to the first
// difference" and "Next difference" go to the steps it lists. The other run is the open run's
// script under a bug mode or under another RisingWave release (the view's `releases`), or another
// script. Nothing here knows the protocol.
import { h, fill, setText } from "../ui/dom.js";
import { findElements } from "../stage/render.js";
import { renderUpstream } from "../stage/render-upstream.js";
import { renderExecutor } from "../stage/render-executor.js";
import { renderDownstream } from "../stage/render-downstream.js";
import { renderNarration } from "../stage/render-narration.js";

const SIDES = ["left", "right"];
// what differs outside the stage's panels, in words
const OTHER_PART = { phase: "phase", epoch: "epoch", fatal: "failure" };

function closeBtn(dialog) {
  return h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×");
}

/** A panel's name: its heading's short form (data-short) or the heading, without its sub-line. */
function headingName(panel) {
  const head = panel?.querySelector("h3");
  if (!head) return "";
  if (head.dataset.short) return head.dataset.short;
  const copy = head.cloneNode(true);
  for (const sub of copy.querySelectorAll(".h-sub, .sr-only, .diff-badge")) sub.remove();
  return copy.textContent.replace(/\s+/g, " ").trim();
}

/**
 * A copy of the page's stage (index.html #stage) with its panels emptied, for one run: ids carry
 * the side's prefix, data-testid becomes data-part (the main stage keeps its test ids).
 */
function stageCopy(side) {
  const prefix = `cmp-${side}-`;
  const st = document.getElementById("stage").cloneNode(true);
  for (const el of [st, ...st.querySelectorAll("[id]")]) el.id = prefix + el.id;
  for (const el of st.querySelectorAll("[aria-labelledby]")) {
    el.setAttribute("aria-labelledby", el.getAttribute("aria-labelledby").split(/\s+/).map((x) => prefix + x).join(" "));
  }
  for (const el of st.querySelectorAll("[id][data-testid]")) { el.dataset.part = el.dataset.testid; el.removeAttribute("data-testid"); }
  for (const el of [st, ...st.querySelectorAll("[style]")]) el.removeAttribute("style"); // (presenter-fit.js's)
  for (const el of st.querySelectorAll("[data-changed]")) delete el.dataset.changed;
  for (const el of st.querySelectorAll(".panel-changed")) el.classList.remove("panel-changed");
  st.removeAttribute("tabindex");
  st.classList.add("cmp-stage");
  const els = findElements(st, prefix);
  const { upstream: u, executor: x, downstream: d } = els;
  for (const el of [u.next, u.snapshot, u.content, x.sub, x.buffer, x.builders, x.buildersSub, x.progress,
    x.stateTable, x.stateTableSub, x.progressTable, x.progressTableSub, d.outputs, d.outputsSub, d.downstream,
    d.downstreamSub, d.invariant]) el?.replaceChildren();
  return { st, els };
}

/**
 * createCompare(dialog, {explainer, getView, getBugs}) → {openBug(name?), openRelease(name?), openCreate(), openText(text, label)}
 */
export function createCompare(dialog, { explainer, getView, getBugs }) {
  dialog.classList.add("cmp-full");
  const pick = h("div", { class: "cmp-pick" });
  const body = h("div", { class: "cmp-body", "data-testid": "compare-body" });
  let cmp = null;   // the engine's comparison: {left, right, steps, differ: [{step, panels}]}
  let step = 0;
  let showing = "left"; // the run shown when only one fits (a phone)
  let ui = null;    // the drawn stages and controls
  let pending = 0;  // the latest goto (an older answer is dropped)

  dialog.addEventListener("close", () => { fill(body); ui = null; cmp = null; });

  function shell(title) {
    fill(dialog,
      h("div", { class: "dlg-head" }, h("h2", { id: "compare-title" }, title), closeBtn(dialog)),
      pick, body);
    if (!dialog.open) dialog.showModal();
  }

  function showError(msg) {
    fill(body, h("p", { class: "form-error", role: "alert" }, msg));
  }

  /** Marks what the engine says differs, and the step, on both stages. */
  function mark(at) {
    if (!ui) return;
    ui.stages.dataset.show = showing;
    for (const b of ui.show) b.setAttribute("aria-pressed", String(b.dataset.show === showing));
    if (at) markStep(ui, cmp, at);
  }

  function draw(at) {
    step = at.step;
    setText(ui.count, `step ${step} / ${cmp.steps}`);
    ui.slider.value = String(step);
    ui.back.disabled = step <= 0;
    ui.fwd.disabled = step >= cmp.steps;
    ui.next.disabled = !nextDiff(cmp, step);
    for (const side of SIDES) drawSide(ui.sides[side], side, at, step);
    mark(at);
  }

  async function go(n) {
    if (!cmp) return;
    n = Math.max(0, Math.min(cmp.steps, n));
    const mine = ++pending;
    try {
      const at = await explainer.compareAt(n);
      if (mine === pending && ui) draw(at);
    } catch (e) { showError(e && e.message ? e.message : String(e)); }
  }

  dialog.addEventListener("keydown", (e) => {
    if (!ui || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t instanceof HTMLSelectElement || (t instanceof HTMLInputElement && t.type !== "button")) return;
    const keys = { ArrowLeft: () => go(step - 1), ArrowRight: () => go(step + 1), Home: () => go(0), End: () => go(cmp.steps),
      f: () => ui.first.click(), n: () => ui.next.click() };
    const run = keys[e.key];
    if (run) { e.preventDefault(); run(); }
  });

  async function start(left, right) {
    fill(body, h("p", { class: "muted", role: "status" }, "Comparing…"));
    try {
      cmp = await explainer.compare(left, right);
      step = Math.max(0, Math.min(cmp.steps, getView()?.step ?? 0));
      ui = buildCompare(body, cmp, { step, current: () => step, showing, go, show: (side) => { showing = side; mark(); } });
      await go(step);
    } catch (e) { showError(e && e.message ? e.message : String(e)); }
  }

  return createPicks({ pick, shell, start, getView, getBugs });
}

const diffAt = (cmp, n) => cmp.differ.find((d) => d.step === n) || null;
const nextDiff = (cmp, n) => cmp.differ.find((d) => d.step > n) || null;

/** sideStage(side, label): one run's column: its label, phase and step, its stage, its narration. */
function sideStage(side, label) {
  const { st, els } = stageCopy(side);
  const where = h("span", { class: "cmp-side-step" });
  const phase = h("span", { class: "phase" }); // the run's phase (the main stage's is above the stage)
  const narr = h("div", { class: "cmp-narr narration-live" });
  const sec = h("section", { class: "cmp-side", "data-side": side, "data-testid": `compare-${side}`, "aria-labelledby": `cmp-${side}-label` },
    h("header", { class: "cmp-side-head" },
      h("h3", { id: `cmp-${side}-label`, class: "cmp-side-label" }, h("span", { class: "sr-only" }, side === "left" ? "Left: " : "Right: "), label),
      phase, where),
    st, narr);
  return { sec, st, els, where, narr, phase };
}

/**
 * buildCompare(body, cmp, {step, current(), showing, go(n), show(side)}) → ui: the summary, the step
 * controls, the step's line, the phone's toggles and the two stages, drawn into body.
 */
function buildCompare(body, cmp, { step, current, showing, go, show: showSide }) {
  const L = cmp.left, R = cmp.right;
  const n = cmp.differ.length;
  const sides = { left: sideStage("left", L), right: sideStage("right", R) };
  const count = h("output", { class: "stepcount cmp-count", "data-testid": "compare-step", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: "0", max: String(cmp.steps), value: String(step), id: "cmp-slider", "aria-label": "Step of both runs" });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const back = h("button", { type: "button", class: "btn", "data-testid": "compare-back", title: "Back one step (←)", onclick: () => go(current() - 1) }, "← Back");
  const fwd = h("button", { type: "button", class: "btn", "data-testid": "compare-forward", title: "Forward one step (→)", onclick: () => go(current() + 1) }, "Forward →");
  const first = h("button", { type: "button", class: "btn primary", "data-testid": "compare-first-diff", disabled: !n,
    title: "Go to the first step at which the two runs differ (f)", onclick: () => n && go(cmp.differ[0].step) }, "Jump to the first difference");
  const next = h("button", { type: "button", class: "btn", "data-testid": "compare-next-diff", title: "The next step at which they differ (n)",
    onclick: () => { const d = nextDiff(cmp, current()); if (d) go(d.step); } }, "Next difference");
  const here = h("p", { class: "cmp-here", "data-testid": "compare-here" });
  const show = SIDES.map((side) => h("button", { type: "button", class: "seg-btn", "data-show": side, "aria-pressed": String(side === showing),
    onclick: () => showSide(side) }, side === "left" ? L : R));
  const summary = compareSummary(cmp, go);
  const nav = h("div", { class: "cmp-nav", role: "group", "aria-label": "Step both runs" }, back, count, fwd, slider, first, next);
  const stages = h("div", { class: "cmp-stages", "data-testid": "compare-stages", "data-show": showing }, sides.left.sec, sides.right.sec);
  fill(body, summary, nav, here,
    h("div", { class: "cmp-show seg", role: "group", "aria-label": "Show one run" }, show),
    stages);
  return { sides, count, slider, back, fwd, first, next, here, show, stages, summary };
}

/** compareSummary(cmp, go): how many steps differ, the first ones as buttons; or that they agree. */
function compareSummary(cmp, go) {
  const n = cmp.differ.length;
  return h("p", { class: "cmp-summary", "data-testid": "compare-summary" }, n
    ? [h("strong", null, h("span", { "aria-hidden": "true" }, "≠ "), `The runs differ at ${n} of ${cmp.steps + 1} steps`), " (counting the start), first at step ", String(cmp.differ[0].step), ": ",
      h("span", { class: "cmp-steps" }, cmp.differ.slice(0, 24).map((d) => h("button", { type: "button", class: "btn small cmp-step-btn", "data-step": d.step,
        "aria-label": `step ${d.step}`, onclick: () => go(d.step) }, String(d.step))), n > 24 ? ` … and ${n - 24} more` : null)]
    : [h("strong", null, "The two runs agree at every step"), ` (${cmp.steps} steps).`]);
}

/** markStep(ui, cmp, at): the panels that differ badged ≠ on both stages, the step's line, the summary's step. */
function markStep(ui, cmp, at) {
  const panels = Object.keys(at.differs.panels).filter((k) => at.differs.panels[k]);
  for (const side of SIDES) markPanels(ui.sides[side].st, panels);
  const d = diffAt(cmp, at.step);
  const names = partNames(ui, panels.filter((k) => k !== "narration" && k !== "note"));
  fill(ui.here, d
    ? [h("span", { class: "diff-mark", "aria-hidden": "true" }, "≠"), ` At step ${at.step} the runs differ in: ${names.join(", ")}.`]
    : [`At step ${at.step} the runs agree.`, nextDiff(cmp, at.step) ? ` The next difference is at step ${nextDiff(cmp, at.step).step}.` : ""]);
  ui.here.classList.toggle("differs", !!d);
  for (const b of ui.summary.querySelectorAll(".cmp-step-btn")) b.toggleAttribute("aria-current", Number(b.dataset.step) === at.step);
}

function markPanels(st, panels) {
  for (const panel of st.querySelectorAll(".panel")) {
    const part = panel.querySelector("[data-part]")?.dataset.part?.replaceAll("-", "_");
    const on = !!part && panels.includes(part);
    panel.toggleAttribute("data-differs", on);
    const head = panel.querySelector("h3");
    const badge = head.querySelector(".diff-badge");
    if (on && !badge) head.append(h("span", { class: "diff-badge", title: "differs from the other run at this step" }, h("span", { "aria-hidden": "true" }, "≠"), " differs"));
    if (!on && badge) badge.remove();
  }
}

/** The differing parts' names, in words (the stage's own headings). */
function partNames(ui, keys) {
  return keys.map((k) => OTHER_PART[k] || headingName(ui.sides.left.st.querySelector(`[data-part="${k.replaceAll("_", "-")}"]`)?.closest(".panel")) || k.replaceAll("_", " "));
}

/** drawSide(sideUI, side, at, step): one run's view at the step, by the main stage's render modules. */
function drawSide({ els, where, narr, phase }, side, at, step) {
  const v = at[side];
  fill(phase, h("span", { class: "sr-only" }, "phase: "), String(v.phase || "").toUpperCase());
  phase.className = `phase ph-${v.phase || "none"}${at.differs.panels.phase ? " cmp-phase-differs" : ""}`;
  // The stage marks what differs from the other run where the main stage marks what the
  // step changed: the vnodes and rows the engine names.
  const only = side === "left" ? at.differs.only_left : at.differs.only_right;
  const shown = { ...v, step: -1, new_outputs: 0, changed: {}, changed_vnodes: at.differs.vnodes,
    added_rows: { upstream_content: [], downstream: only || [] } };
  renderUpstream(shown, els.upstream);
  renderExecutor(shown, els.executor);
  renderDownstream(shown, els.downstream);
  renderNarration(v, narr);
  // the newest outputs in view, as on the main stage
  const box = els.downstream.outputsBox;
  if (box) box.scrollTop = box.scrollHeight;
  setText(where, v.step < step ? `ended at step ${v.step}` : `step ${v.step} of ${v.steps}`);
}

/**
 * createPicks({pick, shell(title), start(left, right), getView, getBugs}) → the dialog's API:
 * what the other run is (the pick line above the stages), then the comparison started.
 */
function createPicks({ pick, shell, start, getView, getBugs }) {
  /** What the other run may be: a bug mode or another release (the pick line's first select). */
  function kindSelect(kind) {
    const sel = h("select", { id: "compare-kind", "data-testid": "compare-kind-select", "aria-label": "The other run" },
      h("option", { value: "bug" }, "bug mode"), h("option", { value: "release" }, "another release"),
      h("option", { value: "create" }, "the other create type"));
    sel.value = kind;
    sel.addEventListener("change", () => (sel.value === "release" ? api.openRelease() : sel.value === "create" ? api.openCreate() : api.openBug()));
    return sel;
  }

  const api = {
    /** Compare the open run with the same script under bug mode `name` (or without it, when it is on). */
    async openBug(name) {
      const bugs = getBugs() || [];
      const on = getView()?.bug?.name || null;
      const chosen = name || on || bugs[0]?.name;
      const sel = h("select", { id: "compare-bug", "data-testid": "compare-bug-select", "aria-label": "Bug mode" },
        bugs.map((b) => h("option", { value: b.name }, b.name + (b.name === on ? " (on now: compare without it)" : ""))));
      sel.value = chosen || "";
      const run = (b) => start({}, { bug: b === on ? "none" : b });
      sel.addEventListener("change", () => run(sel.value));
      fill(pick, h("span", { class: "cmp-pick-k" }, "This run against "), kindSelect("bug"), " ", sel);
      shell("Compare with bug mode");
      if (chosen) await run(chosen);
    },
    /** Compare the open run with the same script under another RisingWave release (the view's
     *  `releases`; by default the default release, or, when the run plays it, the one before). */
    async openRelease(name) {
      const v = getView();
      const list = (v?.releases || []).map((r) => r.name);
      const here = v?.release || "";
      const others = list.filter((r) => r !== here);
      const dflt = (v?.releases || []).find((r) => r.default)?.name;
      const before = list[list.indexOf(here) - 1];
      const chosen = name && others.includes(name) ? name : (dflt && dflt !== here ? dflt : before || others[0]);
      const sel = h("select", { id: "compare-release", "data-testid": "compare-release-select", "aria-label": "RisingWave release" },
        others.map((r) => h("option", { value: r }, r)));
      sel.value = chosen || "";
      const run = (r) => start({}, { release: r });
      sel.addEventListener("change", () => run(sel.value));
      fill(pick, h("span", { class: "cmp-pick-k" }, `This run (${here}) against `), kindSelect("release"), " ", sel);
      shell("Compare two releases");
      if (chosen) await run(chosen);
    },
    /** Compare the job created in the foreground with it created in the background (the view's
     *  `create`), under the open run's release. */
    async openCreate() {
      fill(pick, h("span", { class: "cmp-pick-k" }, `Under ${getView()?.release || ""}: created in the foreground against the background `), kindSelect("create"));
      shell("Compare foreground with background");
      await start({ create: "foreground" }, { create: "background" });
    },
    /** Compare the open run with another run of the same scenario (a scenario text). */
    async openText(text, label) {
      fill(pick, h("p", { class: "muted" }, label || "This run against another run of the same scenario."));
      shell("Compare two runs");
      await start({}, { text: String(text) });
    },
  };
  return api;
}
