// lesson-plan.js — a lesson's plan for the trainer, from the engine's plan JSON: on screen a
// dialog, on paper one page per section (lesson-plan.css, @media print) with its goal, scenario,
// steps, timing, notes, and every question with its answer (a predict question's rows as the
// engine marks them, and why).
import { h } from "../ui/dom.js";
import { returnFocus } from "../ui/keyboard.js";
import { sheet } from "../ui/sheet.js";

/** A row as the lesson file writes it ("+ 3 102") in the stage's form ("+(3,102)"). */
export function rowText(row) {
  const m = /^\s*(U[+-]|[+-])\s+(.*\S)\s*$/.exec(String(row));
  return m ? `${m[1]}(${m[2].split(/\s+/).join(",")})` : String(row);
}

function stopsText(stops) {
  if (stops.length === 1) return `step ${stops[0]}`;
  const first = stops[0], last = stops[stops.length - 1];
  if (last - first + 1 === stops.length) return `steps ${first} to ${last}, one at a time`;
  return `stops at steps ${stops.join(", ")}`;
}

function question(q) {
  if (q.predict) {
    return h("li", { class: "plan-q" },
      h("p", null, h("span", { class: "plan-k" }, `Predict, at step ${q.at - 1}, before barrier e${q.epoch} (step ${q.at}): `), q.ask),
      h("p", { class: "plan-a" }, h("span", { class: "plan-k" }, "Visible: "), q.visible.length ? q.visible.map(rowText).join("; ") : "none"),
      h("p", { class: "plan-a" }, h("span", { class: "plan-k" }, "Hidden: "), q.hidden.length ? q.hidden.map(rowText).join("; ") : "none"),
      h("ul", { class: "plan-why" }, q.why.map((w) => h("li", null, w))));
  }
  return h("li", { class: "plan-q" },
    h("p", null, h("span", { class: "plan-k" }, `At step ${q.at}: `), q.ask),
    h("p", { class: "plan-a" }, h("span", { class: "plan-k" }, "Answer: "), q.answer));
}

function section(s, i, n, from) {
  return h("section", { class: "plan-section", "data-testid": "plan-section" },
    h("h2", null, `Section ${i + 1} of ${n}: ${s.title}`),
    h("p", { class: "plan-meta" }, `${s.minutes} min (minute ${from} to ${from + s.minutes}) · `,
      `scenario ${s.scenario || "inline"} (${s.scenario_title}) · ${stopsText(s.stops)}`,
      s.release ? ` · release ${s.release}` : "",
      s.bug ? ` · bug mode ${s.bug}` : ""),
    s.goal ? h("p", { class: "plan-goal" }, h("span", { class: "plan-k" }, "Goal: "), s.goal) : null,
    s.notes ? h("div", { class: "plan-notes" }, s.notes.trim().split(/\n\s*\n/).map((p) => h("p", null, p))) : null,
    s.questions.length ? h("ol", { class: "plan-qs" }, s.questions.map(question)) : null);
}

let dialog = null;

/**
 * openPlan(plan) → Promise: show the plan (its Print button prints it, one page per section),
 * once its sheet applies (or could not be loaded: then as it is).
 */
export function openPlan(plan) {
  return sheet("web/teach/lesson-plan.css").catch(() => {}).then(() => show(plan));
}

function show(plan) {
  dialog?.remove();
  let from = 0;
  const sections = plan.sections.map((s, i) => { const el = section(s, i, plan.sections.length, from); from += s.minutes; return el; });
  const close = h("button", { type: "button", class: "btn", "data-testid": "lesson-plan-close", onclick: () => dialog.close() }, "Close");
  dialog = h("dialog", { class: "overlay lesson-plan", id: "lesson-plan", "data-testid": "lesson-plan", "aria-labelledby": "lesson-plan-title" },
    h("div", { class: "plan-head" },
      h("h1", { id: "lesson-plan-title" }, plan.title),
      h("span", { class: "plan-tools" },
        h("button", { type: "button", class: "btn primary", "data-testid": "lesson-plan-print", onclick: () => window.print() }, "Print"), close)),
    h("p", { class: "plan-meta" }, `${plan.minutes} minutes, ${plan.sections.length} sections.`),
    plan.summary ? h("p", null, plan.summary.trim()) : null,
    sections);
  dialog.addEventListener("click", (ev) => { if (ev.target === dialog) dialog.close(); });
  dialog.addEventListener("close", () => { dialog.remove(); dialog = null; returnFocus(); });
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}
