// step-once.test.mjs — the step crosses the bridge once (web/README-page.md, "One press of
// Next"): a press of → (and every explainer.step) is one call of the engine, answered with the
// whole view in its final shape, which the page draws as it came. Every view the public API
// hands out has all it shows: its outputs are the run's log from outputs_first on (the trace's,
// state()), its marks and code map there, through steps, back, goto, branches, bug modes,
// releases and recoveries, on a log longer than a view's window of 200. The engine's calls are
// counted by wrapping the object Go hands to globalThis.__backfillReady (boot.js) before the page
// runs: no hook in the page.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, waitReady } from "./harness.mjs";

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

/** a page whose engine calls are counted in window.__bridgeCalls (method names, in order) */
async function countedPage(path) {
  const context = await h.browser.newContext();
  await context.addInitScript(() => {
    let ready;
    Object.defineProperty(globalThis, "__backfillReady", {
      configurable: true,
      get: () => ready,
      set: (f) => {
        ready = typeof f !== "function" ? f : (api) => {
          const call = api.call;
          api.call = (method, arg) => { (globalThis.__bridgeCalls ??= []).push(method); return call(method, arg); };
          return f(api);
        };
      },
    });
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(new URL(path, h.url).href);
  await waitReady(page);
  return { page, context, errors };
}

test("one press of Next is one call of the engine, answered with the view the page draws", async () => {
  const { page, context, errors } = await countedPage("index.html#scenario=happy-path&step=2");
  try {
    await page.evaluate(() => window.explainer.ready);
    await page.evaluate(() => window.explainer.goto(3)); // (the engine has taken over)
    const before = await page.evaluate(() => (globalThis.__bridgeCalls || []).length);
    assert.ok(before > 0, "the engine's calls are counted");
    const seen = [];
    for (let i = 0; i < 5; i++) {
      const got = await page.evaluate(() => new Promise((resolve) => {
        const from = globalThis.__bridgeCalls.length;
        window.addEventListener("explainer:change", (ev) => {
          requestAnimationFrame(() => resolve({ calls: globalThis.__bridgeCalls.slice(from), step: ev.detail.view.step, method: ev.detail.method,
            shown: document.querySelector('[data-testid="step-count"]').textContent }));
        }, { once: true });
        document.body.focus();
        document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
      }));
      seen.push(got);
    }
    for (const [i, s] of seen.entries()) {
      assert.deepEqual(s.calls, ["step"], `press ${i + 1}: one call of the engine`);
      assert.equal(s.method, "step");
      assert.equal(s.step, 4 + i);
      assert.match(s.shown, new RegExp(`\\b${4 + i}\\b`), `press ${i + 1}: the view drawn is the one the call answered`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("every view is whole: outputs, marks and code map, through every kind of change", async () => {
  const { page, context, errors } = await countedPage("index.html");
  try {
    const report = await page.evaluate(async (text) => {
      const x = window.explainer;
      await x.ready;
      const problems = [];
      let events = 0;
      window.addEventListener("explainer:change", (ev) => { if (ev.detail.view.outputs.length >= 0) events++; });
      const check = async (label, view, calls) => {
        if (calls.length !== 1) problems.push(`${label}: ${calls.length} engine calls (${calls.join()})`);
        const state = await x.state();
        const want = JSON.stringify(state.outputs.slice(view.outputs_first));
        if (JSON.stringify(view.outputs) !== want) problems.push(`${label}: outputs differ from the log's`);
        if (view.outputs_total !== state.outputs.length) problems.push(`${label}: outputs_total ${view.outputs_total}, log ${state.outputs.length}`);
        if (view.outputs.length !== Math.min(200, view.outputs_total)) problems.push(`${label}: ${view.outputs.length} outputs in the window`);
        if (!Array.isArray(view.marks)) problems.push(`${label}: no marks`);
        if (!Array.isArray(view.code_map) || !view.code_map.length) problems.push(`${label}: no code map`);
        const again = await x.view(); // (a view of the same state, asked again)
        if (JSON.stringify(again) !== JSON.stringify(view)) problems.push(`${label}: view() differs`);
      };
      const run = async (label, f) => {
        try {
          const from = globalThis.__bridgeCalls.length;
          const view = await f();
          await check(label, view, globalThis.__bridgeCalls.slice(from));
        } catch (e) { problems.push(`${label}: ${e.message}`); }
      };
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
      const end = await x.steps();
      await run("goto end", () => x.goto(end));
      await run("release", () => x.release("v3.0"));
      await run("step under the release", () => x.back());
      await run("open", () => x.open("fatal-upstream-end"));
      for (let i = 0; i < 12; i++) await run(`fatal step ${i}`, () => x.step());
      await run("recover", () => x.apply("recover"));
      await run("step after recovery", () => x.step());
      return { problems, events };
    }, manyOutputs());
    assert.deepEqual(report.problems, []);
    assert.ok(report.events > 50, "every change was dispatched");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
