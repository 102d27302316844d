// predict.js — predict mode. Before the step that marks the buffered upstream rows (the view's
// `predict` says which barrier does and, worked out by the engine on a copy of the run, what it
// does with each buffered row and why), the Step control asks first: visible or hidden, for each
// row. This module only asks, scores the answers against the engine's, and shows its why.
// The running score lives in sessionStorage.
import { h, fill } from "../ui/dom.js";
import { rowChip, vnodeLabel } from "../stage/chips.js";
import { focusStage } from "../ui/keyboard.js";

const SCORE_KEY = "backfill-explainer:predict-score";
const ON_KEY = "backfill-explainer:predict-on";

function load(key, fallback) {
  try { const v = sessionStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
}
function save(key, v) {
  try { sessionStorage.setItem(key, JSON.stringify(v)); } catch { /* storage blocked: keep it in memory */ }
}

/** The prediction to ask about before the next step, or null (the view decides). */
export function pending(view) {
  return view && view.predict && view.predict.next && view.predict.rows.length ? view.predict : null;
}

/**
 * createPredict({panel, step() → Promise<view>}) → {toggle, scoreEl, enabled, asking, setEnabled(on),
 * intercept(view) → bool, reveal(), onChange(view)}
 */
export function createPredict({ panel, step }) {
  let enabled = !!load(ON_KEY, false);
  let score = load(SCORE_KEY, { right: 0, total: 0 });
  if (!score || typeof score.right !== "number" || typeof score.total !== "number") score = { right: 0, total: 0 };
  let asking = null;   // {view, predict} while the quiz is shown
  let result = null;   // the step whose result is shown
  let busy = false;

  const scoreEl = h("span", { class: "predict-score", "data-testid": "predict-score", "aria-live": "polite", title: "predictions right / made this session" });
  const toggle = h("button", {
    type: "button", class: "btn toggle", "data-testid": "predict", "aria-pressed": String(enabled),
    "aria-keyshortcuts": "f", title: "Predict mode: guess visible or hidden before each barrier marks the buffer (f)",
    onclick: () => { setEnabled(!enabled); focusStage(); }, // (Space then plays, not toggles again)
  }, h("span", { class: "tg-dot", "aria-hidden": "true" }), "Predict");

  function renderScore() {
    fill(scoreEl, h("span", { class: "sr-only" }, "score: "), `${score.right} / ${score.total}`);
    scoreEl.hidden = !enabled;
  }

  function setEnabled(on) {
    enabled = !!on;
    save(ON_KEY, enabled);
    toggle.setAttribute("aria-pressed", String(enabled));
    renderScore();
    if (!enabled) hide();
  }

  function hide() {
    asking = null;
    result = null;
    panel.parentElement?.classList.remove("asking");
    panel.hidden = true;
    panel.replaceChildren();
  }

  function ask(view, predict) {
    asking = { view, predict };
    result = null;
    const form = quizForm(predict, submit);
    fill(panel, form);
    panel.hidden = false;
    panel.parentElement?.classList.add("asking");
    // The buffer and the progress are what the learner reasons from: bring them into view.
    // (On a narrow screen the dock is not sticky: show the quiz itself.)
    const narrow = window.matchMedia("(max-width: 700px), (max-height: 600px)").matches;
    (narrow ? panel : document.getElementById("h-executor"))?.scrollIntoView({ block: "start", behavior: "instant" });
    const first = form.querySelector("input[type=radio]");
    if (first) first.focus({ preventScroll: true });
  }

  async function submit(picks) {
    if (!asking || busy) return;
    const { predict } = asking;
    busy = true;
    let after;
    try { after = await step(); } catch { busy = false; return; } finally { busy = false; }
    asking = null;
    if (!picks || !after) { hide(); return; }
    const answers = answersOf(predict, picks);
    // (a row left unanswered — the answer revealed by a clicker's PageDown — is not scored)
    const asked = answers.filter((a) => a.pick).length;
    const right = answers.filter((a) => a.right).length;
    score = { right: score.right + right, total: score.total + asked };
    save(SCORE_KEY, score);
    renderScore();
    showResult(after, answers, right, asked, predict.held);
  }

  function showResult(view, answers, right, asked, heldBack) {
    result = view.step;
    panel.parentElement?.classList.remove("asking");
    const cont = h("button", { type: "button", class: "btn primary", "data-testid": "predict-continue", onclick: () => { hide(); document.getElementById("btn-step")?.focus(); } }, "Continue");
    const reset = () => { score = { right: 0, total: 0 }; save(SCORE_KEY, score); renderScore(); fill(panel.querySelector(".predict-foot strong"), "0 / 0"); };
    fill(panel, resultPanel(view, answers, right, asked, heldBack, { cont, score, reset }));
    panel.hidden = false;
    cont.focus();
  }

  renderScore();
  return {
    toggle, scoreEl,
    get enabled() { return enabled; },
    get asking() { return !!asking; },
    setEnabled,
    /** A clicker's next at the quiz: step and show the answer, with whatever was chosen (unanswered rows are not scored). */
    reveal() {
      const form = panel.querySelector("form.predict-quiz");
      if (!asking || !form) return;
      submit(asking.predict.rows.map((_, i) => form.querySelector(`input[name="predict-${i}"]:checked`)?.value || null));
    },
    /** Before stepping forward: true when predict mode took over (the quiz is shown or focused). */
    intercept(view) {
      if (!enabled) return false;
      if (busy) return true;
      if (asking && view && asking.view.step === view.step && asking.view.revision === view.revision) { panel.querySelector("input[type=radio]")?.focus(); return true; }
      const p = pending(view);
      if (p) { ask(view, p); return true; }
      return false;
    },
    onChange(view) {
      if (busy) return;
      if (asking && (!view || view.step !== asking.view.step || view.revision !== asking.view.revision)) hide();
      else if (result !== null && (!view || view.step !== result)) hide();
    },
  };
}

/** quizForm(predict, submit(picks)): visible or hidden for each buffered row; Enter checks, "Skip" steps without answers. */
function quizForm(predict, submit) {
  const rows = predict.rows;
  const groups = rows.map((r, i) => {
    const name = `predict-${i}`;
    const chip = rowChip({ op: r.op, values: r.values });
    return h("fieldset", { class: "predict-row", "data-row": i },
      h("legend", null, h("span", { class: "sr-only" }, `row ${i + 1}: `), chip, r.vnode !== undefined ? vnodeLabel(r.vnode, "mini") : null),
      h("label", { class: "radio pr-vis" }, h("input", { type: "radio", name, value: "visible" }), h("span", { "aria-hidden": "true" }, "✓"), " visible"),
      h("label", { class: "radio pr-hid" }, h("input", { type: "radio", name, value: "hidden" }), h("span", { "aria-hidden": "true" }, "✗"), " hidden"));
  });
  const err = h("p", { class: "form-error", role: "alert", hidden: true });
  const form = h("form", { class: "predict-quiz", "data-testid": "predict-quiz", "aria-describedby": "predict-help" },
    h("h2", { id: "predict-title" }, h("span", { class: "predict-k" }, "Predict"), ` barrier e${predict.epoch} is next: which buffered rows will downstream see now?`),
    h("p", { id: "predict-help", class: "muted" }, "For each row choose visible (emitted with this barrier) or hidden. Arrow keys choose, Tab moves to the next row, Enter checks; PageDown shows the answer."),
    h("div", { class: "predict-rows" }, groups),
    err,
    h("div", { class: "predict-foot" },
      h("button", { type: "submit", class: "btn primary", "data-testid": "predict-submit" }, "Step and check"),
      h("button", { type: "button", class: "btn", "data-testid": "predict-skip", onclick: () => submit(null) }, "Skip: just step")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const picks = rows.map((_, i) => form.querySelector(`input[name="predict-${i}"]:checked`)?.value || null);
    const missing = picks.findIndex((p) => !p);
    if (missing >= 0) {
      fill(err, `Choose visible or hidden for every row (row ${missing + 1} has no answer).`);
      err.hidden = false;
      form.querySelector(`input[name="predict-${missing}"]`)?.focus();
      return;
    }
    submit(picks);
  });
  // Enter on a radio checks the answers (implicit submission is not reliable for radios).
  form.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && ev.target instanceof HTMLInputElement && ev.target.type === "radio") {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
  return form;
}

/** answersOf(predict, picks): each row's pick against the engine's answer, and why. */
function answersOf(predict, picks) {
  return predict.rows.map((r, i) => {
    const truth = r.visible ? "visible" : "hidden";
    return { row: { op: r.op, values: r.values, visible: r.visible }, pick: picks[i], truth, why: r.why || "", held: predict.held, right: picks[i] === truth };
  });
}

/** resultPanel(view, answers, right, asked, heldBack, {cont, score, reset}): how many were right, each answer and why, the score. */
function resultPanel(view, answers, right, asked, heldBack, { cont, score, reset }) {
  return h("div", { class: "predict-result", "data-testid": "predict-result" },
    h("h2", { id: "predict-title" }, h("span", { class: "predict-k" }, "Predict"), asked ? ` ${right} of ${asked} right at step ${view.step}` : ` the answer at step ${view.step}`),
    heldBack ? h("p", { class: "note", "data-testid": "predict-held" }, "The barrier emitted none of the buffered chunks: every row was held back (each answer says why).") : null,
    h("ol", { class: "predict-answers" }, answers.map((a) => {
      const verdict = !a.pick ? "unanswered" : a.right ? "right" : "wrong";
      return h("li", { class: ["predict-answer", verdict], "data-testid": "predict-answer", "data-verdict": verdict },
        h("span", { class: "verdict" }, h("span", { "aria-hidden": "true" }, { right: "✓ ", wrong: "✗ ", unanswered: "· " }[verdict]), verdict === "unanswered" ? "answer" : verdict),
        rowChip(a.row),
        h("span", { class: "pa-text" }, a.pick ? `you said ${a.pick}; it was ${a.truth}` : `it was ${a.truth}`, a.held ? " (held back)" : "", a.why ? [": ", h("span", { class: "pa-why" }, a.why)] : "."));
    })),
    h("div", { class: "predict-foot" }, cont,
      h("span", { class: "muted" }, "Score this session: ", h("strong", null, `${score.right} / ${score.total}`)),
      h("button", { type: "button", class: "btn small", onclick: reset }, "Reset score")));
}
