// teach-explorer.test.mjs — "Explore all interleavings": in a Web Worker on the served page
// (happy-path: the invariant held in every schedule; bug-mark-before-drain: violated, and an
// outcome opens as a timeline), the bound caps the search, Cancel stops the worker, and the
// offline single file runs it on the page's thread and says so.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, fileURL } from "./harness.mjs";
import { openPage, byTestId, text, waitStep, call } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

async function explore(page, bound) {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  const dialog = byTestId(page, "explorer");
  await dialog.waitFor();
  if (bound) await byTestId(page, "explore-bound").fill(String(bound));
  await byTestId(page, "explore-run").click();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 30000 });
  return dialog;
}

// A scenario whose exploration takes seconds (≈15,000 distinct states): time to cancel it.
const BIG = [
  "title: Many interleavings",
  "summary: Chunks between every barrier and one-row builders.",
  "table: {columns: [a, id], locality: [a], stream_key: [id]}",
  "vnodes: {count: 2, rule: ranges, bounds: [10]}",
  "chunk_size: 1",
  "fragment: 7",
  "steps:",
  "  - barrier: 1",
  `  - chunk: [${[1, 2, 3, 4, 5, 6, 7, 8].flatMap((i) => [`"+ ${i} ${100 + i}"`, `"+ ${10 + i} ${200 + i}"`]).join(", ")}]`,
  "  - barrier: {epoch: 2, start_backfill: [7]}",
  ...[0, 1, 2, 3, 4, 5].flatMap((k) => [`  - chunk: ["+ ${k + 1} ${300 + k}"]`, `  - chunk: ["+ ${k + 11} ${400 + k}"]`, `  - barrier: ${k + 3}`]),
  "",
].join("\n");

const stats = (page) => byTestId(page, "explore-stats").evaluate((dl) =>
  Object.fromEntries([...dl.querySelectorAll("div")].map((d) => [d.querySelector("dt").textContent, d.querySelector("dd").textContent])));

test("happy-path: explored in a worker, the invariant held in every schedule", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=4");
  const workers = [];
  page.on("worker", (w) => workers.push(w.url()));
  const dialog = await explore(page);
  assert.ok(workers.some((u) => u.endsWith("/web/tools/explore-worker.js")), `workers: ${workers}`);
  assert.equal(await text(page, "explore-verdict"), "✓Invariant held in every schedule");
  assert.deepEqual(await stats(page), {
    "schedules explored": "19,092", "distinct states": "351", "outcomes": "16", "exhaustive?": "yes, every schedule",
  });
  assert.equal(await byTestId(page, "explore-outcome").count(), 16);
  const first = (await byTestId(page, "explore-outcome").first().textContent()).replace(/\s+/g, " ");
  assert.match(first, /Outcome 1/);
  assert.match(first, /schedules/);
  assert.match(first, /Invariant holds/);
  await h.screenshot(page, "teach-explorer-1280", { fullPage: false });
  assert.deepEqual(await h.axe(page, { include: '[data-testid="explorer"]' }), []);
  // The open timeline is untouched by the exploration.
  await dialog.getByRole("button", { name: "Close" }).click();
  await waitStep(page, 4);
  // "Compare with this run": this run against one schedule of outcome 2, side by side.
  await page.keyboard.press("x");
  await byTestId(page, "explore-outcome").nth(1).getByRole("button", { name: "Compare with this run" }).click();
  const cmp = byTestId(page, "compare");
  await byTestId(page, "compare-stages").waitFor();
  assert.match(await cmp.textContent(), /outcome 2/);
  assert.match(await byTestId(page, "compare-left").locator(".cmp-side-label").textContent(), /this run/);
  assert.match(await byTestId(page, "compare-right").locator(".cmp-side-label").textContent(), /the other run/);
  h.assertNoErrors(page);
});

test("bug-mark-before-drain: violated, and an outcome opens as a timeline", async () => {
  const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=0");
  const dialog = await explore(page);
  assert.equal(await text(page, "explore-verdict"), "✗Invariant VIOLATED in 5 of the 21 outcomes");
  const bad = dialog.locator(".outcome.bad");
  assert.equal(await bad.count(), 5);
  assert.match(await bad.first().textContent(), /missing \(2,150\)/);
  await bad.first().getByRole("button", { name: "Open as timeline" }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.waitForFunction(() => /explored schedule/.test(document.querySelector('[data-testid="scenario-title"]').textContent));
  // The example replays the outcome and opens where it shows: at the barrier whose check broke
  // the invariant (its timeline mark), with the bug mode on.
  const opened = await page.evaluate(() => window.explainer.view());
  const broke = opened.marks.find((m) => m.kind === "invariant");
  assert.ok(broke, "the outcome's timeline has the invariant's mark");
  await waitStep(page, broke.step);
  assert.ok(broke.step > 0 && broke.step < opened.steps, `at step ${broke.step} of ${opened.steps}`);
  assert.ok(opened.marks.some((m) => m.kind === "barrier" && m.step === broke.step), "a barrier");
  await page.waitForFunction(() => /violated/.test(document.querySelector('[data-testid="invariant"]').textContent));
  assert.match(await text(page, "bug-banner"), /mark-before-drain/);
  // An outcome whose invariant holds opens at its end.
  await call(page, "open", "bug-mark-before-drain");
  await waitStep(page, 0);
  await explore(page);
  await dialog.locator(".outcome:not(.bad)").first().getByRole("button", { name: "Open as timeline" }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.waitForFunction(() => /explored schedule/.test(document.querySelector('[data-testid="scenario-title"]').textContent));
  const good = await page.evaluate(() => window.explainer.view());
  assert.ok(!good.marks.some((m) => m.kind === "invariant"));
  await waitStep(page, good.steps);
  h.assertNoErrors(page);
});

test("the bound caps the search; Cancel stops a running exploration", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  await explore(page, 20);
  // the engine's own words for where it stopped, and a verdict about the schedules explored only
  assert.equal((await stats(page))["exhaustive?"],
    "no — stopped at the budget of 20 states, not exhaustive: the counts are those of the schedules explored");
  assert.equal(await text(page, "explore-verdict"), "✓Invariant held in every schedule explored (not every schedule: see below)");
  assert.match(await text(page, "explore-not-exhaustive"), /^Not exhaustive\. The search stopped at the budget of 20 states, not exhaustive/);
  // A long exploration, cancelled while the worker is busy: the worker is terminated.
  await page.keyboard.press("Escape");
  await call(page, "load", BIG);
  await waitStep(page, 0);
  // (the explorer's worker starts with the dialog, and runs the exploration)
  const [worker] = await Promise.all([page.waitForEvent("worker", (w) => w.url().endsWith("/web/tools/explore-worker.js")), page.keyboard.press("x")]);
  const closed = new Promise((r) => worker.once("close", r));
  await byTestId(page, "explore-bound").fill("100000");
  await byTestId(page, "explore-run").click();
  assert.equal(await byTestId(page, "explore-status").locator(".spinner").count(), 1, "a spinner while it runs");
  // The page is not frozen meanwhile: the engine on the page answers while the exploration runs.
  assert.equal((await page.evaluate(() => window.explainer.view())).step, 0);
  assert.equal(await byTestId(page, "explore-status").locator(".spinner").count(), 1, "the page answered before the exploration ended");
  await byTestId(page, "explore-cancel").click();
  await closed;
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('[data-testid="explore-status"]').textContent));
  assert.equal(await byTestId(page, "explore-run").isEnabled(), true);
  assert.equal(await byTestId(page, "explore-verdict").count(), 0);
  h.assertNoErrors(page);
});

test("run, cancel, run again at once: the second run finishes and nothing of the first reaches the page", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  // The worker's own files arrive slowly, so cancels land while it is still loading them.
  await page.context().route(/\/web\/(wasm_exec|boot|explore-worker)\.js$/, async (route) => {
    await new Promise((r) => setTimeout(r, 60));
    route.continue();
  });
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  await byTestId(page, "explorer").waitFor();
  await page.evaluate(async () => {
    const run = document.querySelector('[data-testid="explore-run"]');
    for (let i = 0; i < 30; i++) {
      run.click();
      await new Promise((r) => setTimeout(r, (i * 7) % 120));
      document.querySelector('[data-testid="explore-cancel"]').click();
    }
    run.click();
  });
  await byTestId(page, "explore-verdict").waitFor({ timeout: 30000 });
  assert.equal(await text(page, "explore-verdict"), "✓Invariant held in every schedule");
  await page.waitForTimeout(500); // a late error of a cancelled worker would land now
  h.assertNoErrors(page);
});

test("offline single file: runs on the page's thread and says so", async () => {
  const page = await h.open(fileURL("dist/explainer-offline.html"));
  await page.waitForFunction(() => /^step \d+ \/ [1-9]/.test(document.querySelector('[data-testid="step-count"]')?.textContent || ""));
  await page.evaluate(() => document.getElementById("welcome").open && document.getElementById("welcome").close());
  const workers = [];
  page.on("worker", (w) => workers.push(w.url()));
  const dialog = await explore(page);
  assert.match(await dialog.textContent(), /cannot start a worker/);
  assert.equal(await text(page, "explore-verdict"), "✓Invariant held in every schedule");
  assert.deepEqual(workers, []);
  h.assertNoErrors(page);
});
