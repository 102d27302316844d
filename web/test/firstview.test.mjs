// firstview.test.mjs — a built-in's first view needs no wasm (web/boot/stored.js, the build's
// web/views/): a deep link shows its step from the stored views while the engine is held back,
// and the engine, once it comes, takes over at the same step with the same view; a branch then
// goes on from there. The main page fetches the engine after its first view; an embed (and the
// element's frame) only when the reader acts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setupPrivate, welcomed, waitStep, byTestId, CSP } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const LINK = "#scenario=fatal-upstream-end&step=9";

/** A page whose wasm is held back until release(); records when the page first asked for it. */
async function held(path, { viewport = { width: 1280, height: 800 } } = {}) {
  const page = await h.open("about:blank", { ready: false, viewport, ...welcomed(h) });
  let open;
  const gate = new Promise((r) => { open = r; });
  await page.route("**/*.wasm", async (route) => { await gate; await route.continue().catch(() => {}); });
  // (in every frame: the time of the first fetch of a .wasm, on the frame's own clock)
  await page.addInitScript(() => {
    const f = window.fetch;
    window.fetch = function (input, init) {
      if (/\.wasm(\?|$)/.test(String(input?.url ?? input)) && window.__wasmAt === undefined) window.__wasmAt = performance.now();
      return f.call(this, input, init);
    };
  });
  await page.goto(new URL(path, h.url).href);
  return { page, release: open };
}

const firstView = (frame) => frame.waitForFunction(() => performance.getEntriesByName("explainer:first-view").length > 0, null, { timeout: 20000 });
const interactive = (frame) => frame.waitForFunction(() => performance.getEntriesByName("explainer:interactive").length > 0, null, { timeout: 60000 });
/** what the frame shows and its view's JSON */
const shown = (frame) => frame.evaluate(async () => ({
  stage: document.querySelector(".work").innerText,
  controls: document.querySelector('[data-testid="step-count"]').textContent,
  view: JSON.stringify(await window.explainer.view()),
}));
const wasmBefore = (frame, markName) => frame.evaluate((m) => {
  const at = performance.getEntriesByName(m)[0]?.startTime;
  return window.__wasmAt !== undefined && (at === undefined || window.__wasmAt < at);
}, markName);

test("a deep link shows its step with no wasm; the engine takes over at that step, and a branch goes on", async () => {
  const { page, release } = await held(`index.html${LINK}`);
  await firstView(page);
  await waitStep(page, 9);
  assert.equal(await wasmBefore(page, "explainer:first-view"), false, "the wasm was fetched before the first view");
  const stored = await shown(page);
  assert.match(stored.controls, /^step 9 \/ 19/);
  release();
  await interactive(page);
  assert.deepEqual(await shown(page), stored, "the engine's view and page are the stored ones");
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("2"); // the second action: a branch (the engine's)
  await waitStep(page, 10);
  assert.equal(await page.evaluate(async () => (await window.explainer.view()).branched), true);
  h.assertNoErrors(page);
});

test("an edit on the stored views waits for the engine, then applies at the same step", async () => {
  const { page, release } = await held(`index.html${LINK}`);
  await firstView(page);
  const stored = await shown(page);
  // an injection through the API: it needs the engine, which is still held back
  const applied = page.evaluate(async () => (await window.explainer.apply("barrier: {epoch: 9}").catch((e) => e.message)).step ?? null);
  await page.waitForTimeout(200);
  assert.deepEqual(await shown(page), stored, "nothing moved while the engine loads");
  release();
  assert.equal(await applied, 10, "the injection applied after step 9");
  h.assertNoErrors(page);
});

test("?embed=1 shows its first view with no wasm, and asks for the engine only when the reader acts", async () => {
  const { page, release } = await held(`index.html?embed=1${LINK}`, { viewport: { width: 700, height: 640 } });
  await firstView(page);
  await waitStep(page, 9);
  release();
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.__wasmAt), undefined, "an embed fetched the wasm before the reader acted");
  const stored = await shown(page);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("Shift"); // a key: the reader acts
  await interactive(page);
  assert.deepEqual(await shown(page), stored, "the engine's view and page are the stored ones");
  await page.keyboard.press("2");
  await waitStep(page, 10);
  h.assertNoErrors(page);
});

test("<backfill-explainer> shows its first view with no wasm", async () => {
  const page = await h.open("about:blank", { ready: false, viewport: { width: 1280, height: 900 } });
  const origin = new URL(h.url).origin;
  const html = readFileSync(new URL("docs-page.html", import.meta.url), "utf8")
    .replace(/<iframe[^>]*><\/iframe>/, '<backfill-explainer scenario="fatal-upstream-end" step="9"></backfill-explainer>')
    .replace("</head>", '<script type="module" src="../web/element.js"></script></head>');
  await page.route(`${origin}/docs/one.html`, (route) => route.fulfill({ body: html, contentType: "text/html", headers: { "content-security-policy": CSP } }));
  const wasm = [];
  await page.route("**/*.wasm", (route) => { wasm.push(route.request().url()); return route.continue(); });
  await page.goto(`${origin}/docs/one.html`);
  await page.waitForSelector("backfill-explainer iframe");
  const frame = page.frames().find((f) => f !== page.mainFrame());
  await firstView(frame);
  await page.waitForTimeout(300);
  assert.deepEqual(wasm, [], "the element's frame fetched the wasm before the reader acted");
  assert.match(await frame.locator('[data-testid="step-count"]').textContent(), /^step 9 \/ 19/);
});
