// workers.test.mjs — the page's two workers (the Scale panel's, scale-worker.js, and the
// explorer's, explore-worker.js) start from the engine the page compiled: it is posted to them,
// so the served site's wasm is fetched once, by the page, however many workers start; without it
// a worker fetches and compiles the wasm itself, with the same result. A worker that fails to
// start is not kept: the next run starts another. The explorer's worker starts when the dialog
// opens, serves the runs made while it stays open, and is terminated when it closes. (The offline
// file runs both on the page's engine: scale.test.mjs and teach-explorer.test.mjs.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BACKFILL } from "./harness.mjs";
import { setupPrivate, openPage, byTestId, text, welcomed } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

// A small workload: the worker's start, not the run, is what these tests look at.
const SMALL = "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4}\nworkload: {rows: 2000, seed: 3}\n";

/** The server's GET requests for path since `from` (an index into its log's lines). */
const gets = (path, from = 0) => h.server.log().split("\n").slice(from).filter((l) => l.startsWith(`GET /${path} `));
const logLines = () => h.server.log().split("\n").length - 1;

/** Record the workers the page starts: {url, closed}. */
function trackWorkers(page) {
  const list = [];
  page.on("worker", (w) => {
    const entry = { url: w.url(), closed: false };
    w.on("close", () => { entry.closed = true; });
    list.push(entry);
  });
  return list;
}

test("the scale worker starts from the page's compiled engine: the wasm is fetched once, by the page", async () => {
  const from = logLines();
  const page = await openPage(h, "index.html#scenario=happy-path");
  const workers = trackWorkers(page);
  const first = await page.evaluate((t) => window.explainer.scale(t, { text: true }), SMALL);
  assert.equal(JSON.parse(first).rows, 2000);
  assert.equal(workers.filter((w) => w.url.endsWith("/web/scale/scale-worker.js")).length, 1, "the run went to a worker");
  assert.equal(gets("web/explainer.wasm", from).length, 1, "one fetch of the wasm: the page's");
  h.assertNoErrors(page);
});

test("without the page's module the scale worker fetches and compiles the wasm itself, with the same summary", async () => {
  const a = await openPage(h, "index.html#scenario=happy-path");
  const withModule = await a.evaluate((t) => window.explainer.scale(t, { text: true }), SMALL);
  const from = logLines();
  // The page keeps no compiled module to hand its workers: start.js's global stays undefined (the
  // page's engine compiles its own).
  const page = await h.open("about:blank", { ...welcomed(h), ready: false });
  await page.addInitScript(() => Object.defineProperty(globalThis, "__backfillWasmModule", { configurable: true, get: () => undefined, set: () => {} }));
  await page.goto(new URL("index.html#scenario=happy-path", h.url).href);
  await page.evaluate(() => window.explainer.ready);
  const fetchedByPage = gets("web/explainer.wasm", from).length;
  const json = await page.evaluate((t) => window.explainer.scale(t, { text: true }), SMALL);
  assert.equal(json, withModule, "byte for byte the same summary");
  assert.equal(gets("web/explainer.wasm", from).length, fetchedByPage + 1, "the worker fetched the wasm");
  h.assertNoErrors(page);
});

/** `backfill run --json` of a workload text. */
function cli(yaml) {
  const dir = mkdtempSync(join(tmpdir(), "workers-test-"));
  try {
    writeFileSync(join(dir, "w.yaml"), yaml);
    return execFileSync(BACKFILL, ["run", "--json", join(dir, "w.yaml")], { encoding: "utf8" });
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

test("a worker started ahead (the Scale panel opened) warms its engine up; runs sent while it does, and after, give the command line's bytes", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path");
  const want = cli(SMALL);
  const bigger = SMALL.replace("rows: 2000", "rows: 60000");
  const wantBigger = cli(bigger);
  const workers = trackWorkers(page);
  await byTestId(page, "scale-btn").click(); // the panel starts the worker, which starts its warm-up
  // at once: the warm-up (if it has begun) stops at its next pause, and the run goes on
  assert.equal(await page.evaluate((t) => window.explainer.scale(t, { text: true }), SMALL), want);
  assert.equal(await page.evaluate((t) => window.explainer.scale(t, { text: true }), bigger), wantBigger);
  assert.equal(await page.evaluate((t) => window.explainer.scale(t, { text: true }), SMALL), want, "after the warm-up");
  assert.equal(workers.filter((w) => w.url.endsWith("/web/scale/scale-worker.js")).length, 1, "all in the worker the panel started");
  h.assertNoErrors(page);
});

test("a scale worker that fails to start is dropped: scale() rejects, and the next run starts another that works", async () => {
  // The worker's script is refused until the first run has failed (a worker the page started
  // ahead of a run fails the same way, and is dropped the same way).
  const page = await h.open("about:blank", { ...welcomed(h), ready: false });
  let refuse = true;
  let refused = 0;
  await page.route((u) => u.pathname.endsWith("/web/scale/scale-worker.js"), async (route) => {
    if (refuse) { refused++; await route.fulfill({ status: 503, contentType: "text/plain", body: "not now" }); return; }
    await route.fallback();
  });
  await page.goto(new URL("index.html#scenario=happy-path", h.url).href);
  await page.evaluate(() => window.explainer.ready);
  const err = await page.evaluate((t) => window.explainer.scale(t).then(() => null, (e) => e.message), SMALL);
  assert.match(err ?? "", /the scale worker failed/);
  assert.ok(refused >= 1);
  refuse = false;
  const json = await page.evaluate((t) => window.explainer.scale(t, { text: true }), SMALL);
  assert.equal(JSON.parse(json).rows, 2000, "the run after the failure started a worker that works");
  page.errors.length = 0; // (the browser logs the refused script: that is the point here)
});

test("a worker started ahead that fails to load is dropped: the run after it starts another (it used to wait forever)", async () => {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false });
  let refuse = true;
  await page.route((u) => u.pathname.endsWith("/web/scale/scale-worker.js"), async (route) => {
    if (refuse) { await route.fulfill({ status: 503, contentType: "text/plain", body: "not now" }); return; }
    await route.fallback();
  });
  await page.goto(new URL("index.html#scenario=happy-path", h.url).href);
  await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false);
  const started = page.waitForEvent("worker", (w) => w.url().endsWith("/web/scale/scale-worker.js"));
  await byTestId(page, "scale-btn").click(); // the panel starts the worker ahead: its script is refused
  const failed = await started;
  await failed.waitForEvent("close"); // dropped (terminated) by the page
  refuse = false;
  const json = await page.evaluate((t) => window.explainer.scale(t, { text: true }), SMALL);
  assert.equal(JSON.parse(json).rows, 2000);
  page.errors.length = 0; // (the browser logs the refused script: that is the point here)
});

test("the explorer's worker starts when the dialog opens, from the page's engine, serves the runs while it is open, and is terminated when it closes", async () => {
  const from = logLines();
  const page = await openPage(h, "index.html#scenario=happy-path&step=4");
  const workers = trackWorkers(page);
  await page.evaluate(() => document.activeElement?.blur());
  const started = page.waitForEvent("worker", (w) => w.url().endsWith("/web/tools/explore-worker.js"));
  await page.keyboard.press("x");
  await byTestId(page, "explorer").waitFor();
  const worker = await started;
  assert.equal(await byTestId(page, "explore-verdict").count(), 0, "a worker started with the dialog, before any run");
  for (const bound of [100000, 50]) {
    await byTestId(page, "explore-bound").fill(String(bound));
    await byTestId(page, "explore-run").click();
    await byTestId(page, "explore-verdict").waitFor({ timeout: 30000 });
    assert.match(await text(page, "explore-verdict"), /Invariant held/);
  }
  const explorers = workers.filter((w) => w.url.endsWith("/web/tools/explore-worker.js"));
  assert.equal(explorers.length, 1, "both runs went to that one worker");
  assert.equal(explorers[0].closed, false);
  assert.equal(gets("web/explainer.wasm", from).length, 1, "one fetch of the wasm: the page's");
  const closed = worker.waitForEvent("close");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector('[data-testid="explorer"]').open);
  await closed; // closing the dialog terminated the worker
  h.assertNoErrors(page);
});

test("an explorer worker that fails to start is not kept: a run starts another", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=4", welcomed(h));
  let refused = 0;
  await page.route((u) => u.pathname.endsWith("/web/tools/explore-worker.js"), async (route) => {
    if (refused++ === 0) { await route.fulfill({ status: 503, contentType: "text/plain", body: "not now" }); return; }
    await route.fallback();
  });
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  await byTestId(page, "explorer").waitFor();
  // The worker started with the dialog failed; whether the first run met it (and reports the
  // failure) or came after it was dropped, a run then gets a worker that works.
  await byTestId(page, "explore-run").click();
  await page.locator('[data-testid="explore-status"] .form-error, [data-testid="explore-verdict"]').first().waitFor({ timeout: 30000 });
  if (await byTestId(page, "explore-verdict").count() === 0) {
    assert.match(await text(page, "explore-status"), /the explorer's worker failed/);
    await byTestId(page, "explore-run").click();
    await byTestId(page, "explore-verdict").waitFor({ timeout: 30000 });
  }
  assert.match(await text(page, "explore-verdict"), /Invariant held/);
  assert.equal(refused, 2, "another worker asked for the script again");
  page.errors.length = 0; // (the browser logs the refused script: that is the point here)
});
