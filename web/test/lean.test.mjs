// lean.test.mjs — views cross the bridge lean (docs/view.md): the engine leaves out of every
// view its marks, code map and outputs, and explainer.js puts back those it holds and asks for
// the rest by revision and range. Every view the public API hands out is whole: its outputs are
// the run's log from outputs_first on (the trace's, state()), its marks the timeline's, its code
// map the release's, through steps, going back, goto, branches, bug modes, releases and
// recoveries, on a log longer than a view's window of 200.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

// many outputs: a backfill over 4 vnodes taking 160 chunk and barrier pairs
function manyOutputs() {
  const lines = ["title: many outputs", "table: {columns: [a, id], locality: [a], stream_key: [id]}", "vnodes: {count: 4, rule: modulo}",
    "fragment: 7", "steps:", "  - barrier: 1", "  - barrier: {epoch: 2, start_backfill: [7]}", "  - snapshot: 1"];
  for (let i = 0; i < 160; i++) lines.push(`  - chunk: ["+ ${i} ${1000 + i}"]`, `  - barrier: ${3 + i}`);
  return lines.join("\n") + "\n";
}

test("every view has all its outputs and marks, though the engine sent only what the page lacked", async () => {
  const page = await h.open("index.html");
  const report = await page.evaluate(async (text) => {
    const x = window.explainer;
    const problems = [];
    let shared = 0; // views whose outputs are (partly) the same objects as the view before
    let prev = null;
    let events = 0;
    window.addEventListener("explainer:change", (ev) => { if (ev.detail.view.outputs.length >= 0) events++; });
    const check = async (label, view) => {
      const state = await x.state();
      const want = JSON.stringify(state.outputs.slice(view.outputs_first));
      if (JSON.stringify(view.outputs) !== want) problems.push(`${label}: outputs differ from the log's`);
      if (view.outputs_total !== state.outputs.length) problems.push(`${label}: outputs_total ${view.outputs_total}, log ${state.outputs.length}`);
      if (view.outputs.length !== Math.min(200, view.outputs_total)) problems.push(`${label}: ${view.outputs.length} outputs in the window`);
      if ("outputs_kept" in view) problems.push(`${label}: outputs_kept left in the view`);
      if (!Array.isArray(view.marks)) problems.push(`${label}: no marks`);
      if (!Array.isArray(view.code_map) || !view.code_map.length) problems.push(`${label}: no code map`);
      const whole = await x.view(); // (a view of the same state, asked again)
      if (JSON.stringify(whole) !== JSON.stringify(view)) problems.push(`${label}: view() differs`);
      if (prev && view.outputs.some((o) => prev.outputs.includes(o))) shared++;
      prev = view;
    };
    const run = async (label, f) => { try { await check(label, await f()); } catch (e) { problems.push(`${label}: ${e.message}`); } };
    await run("load", () => x.load(text));
    for (let i = 0; i < 40; i++) await run(`step ${i}`, () => x.step());
    await run("goto 300", () => x.goto(300));
    await run("step", () => x.step());
    await run("back", () => x.back());
    await run("goto 100", () => x.goto(100));
    await run("goto 310", () => x.goto(310));
    await run("branch", () => x.apply('chunk: ["+ 500 500"]'));
    await run("step after branch", () => x.step());
    await run("bug", () => x.bug("no-state-write"));
    await run("goto end", async () => x.goto(await x.steps()));
    await run("release", () => x.release("v3.0"));
    await run("step under the release", () => x.back());
    await run("open", () => x.open("fatal-upstream-end"));
    for (let i = 0; i < 12; i++) await run(`fatal step ${i}`, () => x.step());
    await run("recover", () => x.apply("recover"));
    await run("step after recovery", () => x.step());
    return { problems, shared, events };
  }, manyOutputs());
  assert.deepEqual(report.problems, []);
  assert.ok(report.shared > 40, `views reuse the outputs of the view before: ${report.shared}`);
  assert.ok(report.events > 50, "every change was dispatched");
  h.assertNoErrors(page);
});
