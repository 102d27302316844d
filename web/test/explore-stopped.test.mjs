// explore-stopped.test.mjs — issue 34 HIGH 6 and MED 11, the workers' side: a worker whose
// engine stops during the search or the Scale run (out of memory: the Go runtime exits inside
// the call, which then answers nothing) is said to have stopped, never `"undefined" is not valid
// JSON`, and the next run starts a worker that works. (The test makes the worker's explore or
// scale calls answer nothing, as an exit inside the call does; the page's own code is unchanged.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, byTestId, text } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

// In a worker only: the engine's explore answers nothing in the first worker that loads
// wasm_exec.js after the page started (the first run's); every later worker works.
const hook = (die, method = "explore") => `;(() => { if (typeof document !== "undefined") return;
  let f = null;
  Object.defineProperty(globalThis, "__backfillReady", { configurable: true,
    get() { return f && ((a) => f({ call: (m, x) => (m.startsWith(${JSON.stringify(method)}) && ${die} ? undefined : a.call(m, x)) })); },
    set(v) { f = v; } }); })();`;

test("the explorer's engine stops during a search: said so, and the next run works", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  let loads = 0; // the page's own engine started before this route: every load is a worker's
  await page.context().route(/\/web\/wasm_exec\.js$/, async (route) => {
    const resp = await route.fetch();
    route.fulfill({ response: resp, body: (await resp.text()) + hook(loads++ === 0) });
  });
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  await byTestId(page, "explorer").waitFor();
  await byTestId(page, "explore-run").click();
  const status = byTestId(page, "explore-status");
  await page.waitForFunction(() => /stopped|JSON|undefined/.test(document.querySelector('[data-testid="explore-status"]')?.textContent || ""), null, { timeout: 30000 });
  const said = await text(page, "explore-status");
  assert.doesNotMatch(said, /JSON|undefined/);
  assert.match(said, /the explorer's engine stopped during the search \(most likely out of memory/);
  assert.ok(await status.isVisible());
  // a second run: another worker, which works
  await byTestId(page, "explore-run").click();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 30000 });
  assert.equal(await text(page, "explore-verdict"), "✓Invariant held in every schedule");
  h.assertNoErrors(page);
});

test("the Scale worker's engine stops during a run: said so, and the next run works", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  let loads = 0;
  await page.context().route(/\/web\/wasm_exec\.js$/, async (route) => {
    const resp = await route.fetch();
    route.fulfill({ response: resp, body: (await resp.text()) + hook(loads++ === 0, "scale_") });
  });
  const yaml = "title: small\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4}\nworkload: {rows: 1000}\n";
  const first = await page.evaluate((y) => window.explainer.scale(y).then(() => "resolved", (e) => String(e && e.message ? e.message : e)), yaml);
  assert.doesNotMatch(first, /JSON|undefined/);
  assert.match(first, /the worker's engine stopped during the run \(most likely out of memory/);
  const second = await page.evaluate((y) => window.explainer.scale(y).then((s) => s.invariant, (e) => "rejected: " + e.message), yaml);
  assert.equal(second, "holds");
  h.assertNoErrors(page);
});
