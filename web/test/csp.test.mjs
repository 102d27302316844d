// csp.test.mjs — the page works, without a single violation, under the Content Security Policy a
// documentation site may serve it with (no inline script, style attribute or event handler; wasm
// compiled under 'wasm-unsafe-eval'; the explorer's module worker from 'self').

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, welcomed, waitStep, text, byTestId, CSP } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

test("under the CSP: steps, dialogs, the fatal panel, predict mode and the explorer's worker, with no violation", async () => {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false });
  const origin = new URL(h.url).origin;
  await page.route(`${origin}/**`, async (route) => {
    const resp = await route.fetch();
    route.fulfill({ response: resp, headers: { ...resp.headers(), "content-security-policy": CSP } });
  });
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  await page.goto(new URL("index.html#scenario=happy-path&step=9", h.url).href);
  await page.evaluate(() => window.explainer.ready);
  await waitStep(page, 9);
  const policy = await page.evaluate(async () => (await fetch(location.href)).headers.get("content-security-policy"));
  assert.equal(policy, CSP, "the page is served with the policy");

  await byTestId(page, "predict").click();
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await byTestId(page, "predict-quiz").waitFor();
  await byTestId(page, "predict-skip").click();
  await waitStep(page, 10);
  await page.getByRole("button", { name: "Inject…" }).click();
  await page.locator("#inject-dialog").getByRole("radio", { name: "Upstream end" }).click();
  await page.locator("#inject-dialog").getByRole("button", { name: "Apply" }).click();
  await waitStep(page, 11);
  await byTestId(page, "fatal").waitFor();
  await page.keyboard.press("r");
  await waitStep(page, 12);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  await byTestId(page, "explore-run").click();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 30000 });
  assert.match(await text(page, "explore-verdict"), /Invariant/);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  h.assertNoErrors(page);
});

// Serve everything with `policy` (the scale worker's script with `workerPolicy`), and record every
// violation the page reports and every one its workers report (a worker's violations fire on the
// worker's own global, not on the document).
// With noModule, the page keeps no compiled module to hand its workers (start.js's global stays
// undefined; the page's engine compiles its own), so a worker fetches and compiles the wasm itself.
async function openUnder(policy, workerPolicy = policy, { noModule = false } = {}) {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false, viewport: { width: 1100, height: 900 } });
  const origin = new URL(h.url).origin;
  await page.route(`${origin}/**`, async (route) => {
    const resp = await route.fetch();
    const p = /\/scale-worker\.js$/.test(new URL(route.request().url()).pathname) ? workerPolicy : policy;
    route.fulfill({ response: resp, headers: { ...resp.headers(), "content-security-policy": p } });
  });
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  if (noModule) {
    await page.addInitScript(() => Object.defineProperty(globalThis, "__backfillWasmModule", { configurable: true, get: () => undefined, set: () => {} }));
  }
  page.workerViolations = [];
  page.on("worker", (w) => {
    w.evaluate(() => {
      self.__violations = [];
      self.addEventListener("securitypolicyviolation", (e) => self.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
    }).catch(() => {});
    page.scaleWorker = w;
  });
  await page.goto(new URL("index.html#scenario=happy-path", h.url).href);
  await page.evaluate(() => window.explainer.ready);
  return page;
}

test("under the CSP: the Scale panel, its worker and uPlot's charts, with no violation", async () => {
  const page = await openUnder(CSP);
  await byTestId(page, "scale-btn").click();
  await page.waitForFunction(() => /rows:/.test(document.querySelector('[data-testid="scale-text"]')?.value || ""));
  await byTestId(page, "scale-workload").selectOption("no-state-write-at-scale");
  await page.waitForFunction(() => document.querySelector('[data-testid="scale-text"]').value.includes("bug: no-state-write"));
  await byTestId(page, "scale-run").click();
  await page.locator('[data-testid="scale-heatmap"] canvas').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('[data-testid="scale-charts"] .uplot').count(), 3);
  // uPlot styles through the CSSOM only: it adds no <style> element (which style-src 'self' would refuse).
  assert.equal(await page.evaluate(() => document.querySelectorAll("style").length), 0, "no <style> element on the page");
  assert.ok(await page.evaluate(() => getComputedStyle(document.querySelector(".uplot")).position) !== "", "uPlot's sheet applies");
  const box = await page.locator('[data-testid="scale-chart-rows"] .u-over').boundingBox();
  await page.locator('[data-testid="scale-chart-rows"] .u-over').hover({ position: { x: box.width / 2, y: box.height / 2 } });
  await page.locator('[data-testid="scale-heat-canvas"]').hover();
  await byTestId(page, "scale-heat-tip").waitFor();
  assert.ok(page.scaleWorker, "the run went to a worker");
  const policy = await page.evaluate(async () => (await fetch("web/scale/scale-worker.js")).headers.get("content-security-policy"));
  assert.equal(policy, CSP, "the worker's script is served with the policy");
  assert.deepEqual(await page.scaleWorker.evaluate(() => self.__violations), [], "no violation in the worker");
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  h.assertNoErrors(page);
});

test("the scale worker is itself under its policy: without 'wasm-unsafe-eval' its engine cannot start, and scale() rejects with the browser's reason", async () => {
  const strict = CSP.replace(" 'wasm-unsafe-eval'", "");
  // Without the page's compiled module to hand it, the worker fetches and compiles the wasm
  // itself, under its own policy.
  const page = await openUnder(CSP, strict, { noModule: true });
  const err = await page.evaluate(async () => {
    try { await window.explainer.scale("title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nworkload: {rows: 10}\n"); return null; } catch (e) { return e.message; }
  });
  assert.match(err ?? "", /WebAssembly|wasm|Content Security Policy|CompileError/i, `scale() rejected with: ${err}`);
  // The listener the first test relies on does hear a worker's violations.
  const seen = await page.scaleWorker.evaluate(() => self.__violations);
  assert.ok(seen.some((v) => /script-src/.test(v)), `the worker reported: ${JSON.stringify(seen)}`);
  assert.deepEqual(await page.evaluate(() => window.__violations), [], "the page itself (wasm allowed) had none");
  console.log(`# scale() under a worker policy without wasm-unsafe-eval: ${err}`);
  page.errors.length = 0; // (the refused compile is logged by the browser: that is the point here)
});

test("with the page's compiled module the scale worker compiles nothing: it runs under a policy without 'wasm-unsafe-eval' and fetches no wasm", async () => {
  const strict = CSP.replace(" 'wasm-unsafe-eval'", "");
  const page = await openUnder(CSP, strict);
  const wasmFetches = () => h.server.log().split("\n").filter((l) => /^GET \/web\/explainer\.wasm /.test(l)).length;
  const before = wasmFetches();
  assert.ok(before >= 1, "the log counts the page's own fetch of the wasm");
  const summary = await page.evaluate(() => window.explainer.scale(
    "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4}\nworkload: {rows: 1000}\n"));
  assert.equal(summary.rows, 1000);
  assert.ok(page.scaleWorker, "the run went to a worker");
  assert.deepEqual(await page.scaleWorker.evaluate(() => self.__violations), [], "no violation in the worker: it compiled nothing");
  assert.equal(wasmFetches(), before, "the worker fetched no wasm (the page's was fetched before this run)");
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  h.assertNoErrors(page);
});
