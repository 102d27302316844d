// smoke.test.mjs — the built site starts: served over HTTP by bin/backfill serve, and the offline
// single file from file://. Each must reach explainer.ready with the real engine (the wasm) and
// list the built-in scenarios, without console or page errors.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, fileURL } from "./harness.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

test("served index.html reaches explainer.ready and lists scenarios", async () => {
  const page = await h.open("index.html");
  const list = await page.evaluate(() => window.explainer.scenarios());
  assert.ok(Array.isArray(list) && list.length > 0, `scenarios(): ${JSON.stringify(list)}`);
  for (const s of list) {
    assert.equal(typeof s.name, "string");
    assert.equal(typeof s.title, "string");
  }
  await h.screenshot(page, "smoke-served");
  h.assertNoErrors(page);
});

test("the engine answers through the page API", async () => {
  const page = await h.open("index.html");
  const result = await page.evaluate(async () => {
    const [first] = await window.explainer.scenarios();
    await window.explainer.open(first.name);
    const steps = await window.explainer.steps();
    await window.explainer.step();
    const state = await window.explainer.state();
    let unknown = null;
    try { await window.explainer.open("no-such-scenario"); } catch (e) { unknown = e.message; }
    return { steps, state, unknown };
  });
  assert.ok(Number.isInteger(result.steps) && result.steps > 0, `steps(): ${result.steps}`);
  assert.equal(result.state.step, 1);
  for (const key of ["title", "outputs", "error", "phase", "progress_table", "downstream", "step"]) {
    assert.ok(key in result.state, `state() lacks ${key}`);
  }
  assert.match(result.unknown ?? "", /no-such-scenario/);
  h.assertNoErrors(page);
});

test("the offline single file works from file://, every module inlined", async () => {
  const requests = [];
  const page = await h.open(fileURL("dist/explainer-offline.html"), { ready: false });
  page.on("request", (r) => requests.push(r.url()));
  await page.evaluate(() => window.explainer.ready);
  const list = await page.evaluate(() => window.explainer.scenarios());
  assert.ok(Array.isArray(list) && list.length > 0, `scenarios(): ${JSON.stringify(list)}`);
  assert.equal(await page.evaluate(() => location.protocol), "file:");
  // The page's modules work there: the URL, the session, the renderer, the engine's legend and
  // failure explanation.
  await page.evaluate(() => { location.hash = "#scenario=fatal-upstream-end&step=10"; });
  await page.waitForFunction(() => /^step 10 \//.test(document.querySelector('[data-testid="step-count"]').textContent));
  await page.evaluate(() => document.getElementById("welcome").open && document.getElementById("welcome").close());
  assert.match(await page.locator('[data-testid="fatal-proven"]').textContent(), /locality_provider\.rs L599–604/);
  assert.match(await page.locator('[data-testid="builders"]').textContent(), /v1 ?1 \/ 2 ?\+\(11,200,x\)/);
  assert.deepEqual(requests.filter((u) => /\/web\/[^/]+\.(js|wasm)$/.test(u)), [], "nothing is fetched beside the file");
  await h.screenshot(page, "smoke-offline");
  h.assertNoErrors(page);
});

test("no serious or critical axe violations (light, dark, 375 px)", async () => {
  for (const [name, options] of [
    ["light", {}],
    ["dark", { colorScheme: "dark" }],
    ["narrow", { viewport: { width: 375, height: 700 } }],
  ]) {
    const page = await h.open("index.html#scenario=happy-path&step=11", options);
    assert.deepEqual(await h.axe(page), [], `${name}: axe violations`);
    await h.screenshot(page, `smoke-axe-${name}`);
    h.assertNoErrors(page);
    await page.close(); // (its context serves the next: harness.mjs)
  }
});
