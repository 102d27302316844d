// scale.test.mjs — scale mode on the page: explainer.scale hands over exactly what
// `backfill run --json` prints for each built-in workload; the Scale panel runs a workload in its
// worker with a progress bar while the page keeps handling input, Cancel stops it (and a run
// after a cancel works), a bad workload shows its line:column error, and the charts (uPlot and
// the heat map) are drawn with values on hover, in light and dark mode and at 375 px. The
// offline single file runs it on the page's engine.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, BACKFILL, fileURL } from "./harness.mjs";
import { setupPrivate, welcomed, byTestId, text } from "./page-helpers.mjs";

const WORKLOADS = ["million-rows", "upstream-ends-at-scale", "no-state-write-at-scale"];
const cli = (name) => execFileSync(BACKFILL, ["run", "--json", join(ROOT, "scenarios/workloads", `${name}.yaml`)], { encoding: "utf8", maxBuffer: 1 << 26 });

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

async function openScale(page, workload) {
  await byTestId(page, "scale-btn").click();
  await page.waitForFunction(() => /rows:/.test(document.querySelector('[data-testid="scale-text"]')?.value || ""));
  if (workload) {
    await byTestId(page, "scale-workload").selectOption(workload);
    await page.waitForFunction((w) => document.querySelector('[data-testid="scale-text"]').value.includes(w), workload === "million-rows" ? "rows: 1000000" : "rows:");
  }
}

test("explainer.scale resolves with the command line's summary, byte for byte, for every built-in workload", async () => {
  const page = await h.open("index.html", welcomed(h));
  const names = (await page.evaluate(() => window.explainer.workloads())).map((w) => w.name);
  assert.deepEqual(names, WORKLOADS);
  for (const name of WORKLOADS) {
    const want = cli(name);
    const yaml = readFileSync(join(ROOT, "scenarios/workloads", `${name}.yaml`), "utf8");
    const asText = await page.evaluate((y) => window.explainer.scale(y, { text: true }), yaml);
    assert.equal(asText, want, `${name}: the page's summary text is the CLI's`);
    if (name === "no-state-write-at-scale") { // (the smallest: the default answer is that text parsed)
      const asObject = await page.evaluate((y) => window.explainer.scale(y), yaml);
      assert.deepEqual(asObject, JSON.parse(want), `${name}: the resolved object is the CLI's JSON`);
    }
  }
  // Errors reject with line:column, like load().
  const err = await page.evaluate(async () => {
    try { await window.explainer.scale("title: bad\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nworkload:\n  rows: 10\n  snapshot_per_epoch: 0\n"); return null; } catch (e) { return { message: e.message, line: e.line, column: e.column }; }
  });
  assert.equal(err.line, 5);
  assert.equal(err.column, 23);
  assert.match(err.message, /^5:23: workload\.snapshot_per_epoch: /);
  h.assertNoErrors(page);
});

const BAD = "title: bad\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nworkload:\n  rows: 10\n  snapshot_per_epoch: 0\n";

/** Count animation frames on the page from now on (window.__frames). */
async function countFrames(page) {
  await page.evaluate(() => {
    window.__frames = 0;
    const tick = () => { window.__frames++; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
}

/**
 * Make the million-rows text in the box a run of two million rows, for a run that a test cancels
 * midway: the engine runs a million rows in about half a second in a worker, and a test's clicks
 * under load can take longer than that (the run would end before Cancel is clicked).
 */
async function longerRun(page) {
  const t = await byTestId(page, "scale-text").evaluate((box) => { // (the box may be folded away)
    box.value = box.value.replace(/rows: 1000000\b/, "rows: 2000000");
    box.dispatchEvent(new Event("input", { bubbles: true }));
    return box.value;
  });
  assert.match(t, /rows: 2000000\b/);
}

/** Wait until the progress bar shows a run under way (0 < value < max). */
async function waitMidway(page) {
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="scale-progress"]');
    return b && !b.closest("[hidden]") && b.value > 0 && b.value < b.max;
  }, null, { timeout: 60000 });
}

test("the Scale panel: progress in a worker while the page responds, Cancel, a run after it, a bad workload, then the charts", async () => {
  const page = await h.open("index.html#scenario=happy-path", { ...welcomed(h), viewport: { width: 1280, height: 900 } });
  await openScale(page, "million-rows");
  await longerRun(page);
  await countFrames(page);
  await byTestId(page, "scale-run").click();
  await waitMidway(page);
  // The page keeps handling input while the run goes on: a click opens the file box.
  const before = await page.evaluate(() => window.__frames);
  await page.locator('[data-testid="scale-file"] > summary').click();
  assert.equal(await page.locator('[data-testid="scale-file"]').evaluate((d) => d.open), true);
  await page.waitForFunction((n) => window.__frames > n + 5, before, { timeout: 30000 });
  assert.equal(await byTestId(page, "scale-run").isDisabled(), true, "one run at a time");
  await byTestId(page, "scale-cancel").click();
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('[data-testid="scale-status"]').textContent));
  assert.equal(await byTestId(page, "scale-cancel").isHidden(), true);
  assert.equal(await byTestId(page, "scale-charts").count(), 0, "a cancelled run draws nothing");

  // A bad workload: the engine's line:column error and the line itself; nothing else breaks.
  await byTestId(page, "scale-text").fill(BAD);
  assert.equal(await byTestId(page, "scale-workload").inputValue(), "", "editing the text makes it your own");
  await byTestId(page, "scale-run").click();
  await byTestId(page, "scale-error-message").waitFor();
  assert.match(await text(page, "scale-error-message"), /^5:23: workload\.snapshot_per_epoch: /);
  assert.match(await text(page, "scale-error-line"), /5 \| snapshot_per_epoch: 0 \| \^/);

  // Run after the cancel and the error: the small workload, to the end.
  await byTestId(page, "scale-workload").selectOption("no-state-write-at-scale");
  await page.waitForFunction(() => document.querySelector('[data-testid="scale-text"]').value.includes("bug: no-state-write"));
  assert.equal(await byTestId(page, "scale-error").isHidden(), true, "choosing a workload clears the error");
  await byTestId(page, "scale-run").click();
  await page.locator('[data-testid="scale-heatmap"] canvas').waitFor({ timeout: 60000 });
  assert.match(await text(page, "scale-verdict"), /invariant violated/);
  assert.match(await text(page, "scale-violation"), /^Invariant violated at e5/);
  assert.match(await text(page, "scale-epochs"), /18/);
  assert.equal(await page.locator('[data-testid="scale-charts"] .uplot').count(), 3, "three uPlot charts");
  // The same numbers without hovering (keyboard, screen readers): the engine's series, barrier by barrier.
  await page.locator('[data-testid="scale-numbers"] > summary').click();
  assert.equal(await page.locator('[data-testid="scale-numbers"] tbody tr').count(), 18);
  const e4 = (await page.locator('[data-testid="scale-numbers"] tbody tr').nth(3).innerText()).split(/\s+/).join(" ");
  assert.equal(e4, "e4 backfilling 79 8,192 0 79 21 0", "e4: buffered, snapshot, visible, hidden, in progress, completed");

  // Hover: uPlot's legend shows the values at the cursor; the heat map's tip names vnode and barrier.
  const chart = page.locator('[data-testid="scale-chart-buffer"] .u-over');
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  await chart.hover({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
  const legend = await page.locator('[data-testid="scale-chart-buffer"] .u-legend').innerText();
  assert.match(legend, /e\d+ · (buffering|backfilling|forwarding)/, `legend: ${legend}`);
  assert.match(legend, /buffered rows:?\s*\d/, `legend: ${legend}`);
  const heat = page.locator('[data-testid="scale-heat-canvas"]');
  await heat.scrollIntoViewIfNeeded();
  const hb = await heat.boundingBox();
  await heat.hover({ position: { x: hb.width - 20, y: 20 } });
  assert.match(await text(page, "scale-heat-tip"), /^vnode \d+, e\d+ \(\w+\): [\d.]+% passed$/);
  const summary = await page.evaluate(() => window.explainer.scale(document.querySelector('[data-testid="scale-text"]').value));
  assert.equal(summary.invariant, "violated");
  h.assertNoErrors(page);
});

// A fault at the first barrier: the recovery drops the job whatever its create type; the Scale
// panel says so in the engine's words (drop_reason, drop_text), not that the rows are read again.
test("the Scale panel: a job dropped before its first checkpoint says why, and that nothing is read again", async () => {
  const page = await h.open("index.html", { ...welcomed(h), viewport: { width: 1280, height: 900 } });
  await openScale(page);
  await page.locator('[data-testid="scale-file"] > summary').click(); // (the text is folded away)
  await byTestId(page, "scale-text").fill("title: dropped\ncreate: background\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 8}\n"
    + "workload:\n  rows: 200\n  snapshot_per_epoch: 100\n  upstream_per_epoch: 4\n  fault: {kind: end, epoch: 1}\n");
  await byTestId(page, "scale-run").click();
  await byTestId(page, "scale-recovery").waitFor({ timeout: 30000 });
  const said = await text(page, "scale-recovery");
  assert.match(said, /^e1: the upstream ends instead of the barrier, while starting; the executor fails: .*\. The recovery dropped the job \(no checkpoint yet\)\. The job is dropped: .*The cost: run the whole CREATE again\.$/);
  assert.doesNotMatch(said, /foreground|BACKGROUND_DDL|reads, delivers and emits them again/);
  h.assertNoErrors(page);
});

test("the charts of the fault workload: the recovery marked, readable in light, dark and at 375 px (screenshots)", async () => {
  const page = await h.open("index.html", { ...welcomed(h), viewport: { width: 1280, height: 900 } });
  await openScale(page, "upstream-ends-at-scale");
  await byTestId(page, "scale-run").click();
  await page.locator('[data-testid="scale-heatmap"] canvas').waitFor({ timeout: 120000 });
  assert.match(await text(page, "scale-recovery"), /^e9: the upstream ends instead of the barrier, while backfilling; the executor fails: locality provider upstream ended unexpectedly during backfill\. Recovery to the checkpoint e8: 1,280 rows in the builders and 80 in the upstream buffer discarded until recovery, 64,256 emitted since the checkpoint rolled back downstream; the recovery reads, delivers and emits them again: no row is lost\.$/);
  assert.doesNotMatch(await text(page, "scale-verdict") + await text(page, "scale-recovery"), /\blost [0-9]/, "nothing is called lost where the invariant holds");
  assert.match(await text(page, "scale-phases"), /e9 upstream ended, recovered/);
  const dialog = page.locator('[data-testid="scale"]');
  const shots = [];
  shots.push(await h.screenshot(page, "scale-charts-light", { fullPage: false }));
  await dialog.evaluate((d) => d.querySelector('[data-testid="scale-charts"]').scrollIntoView());
  shots.push(await h.screenshot(page, "scale-charts-light-2", { fullPage: false }));
  const light = await page.evaluate(() => getComputedStyle(document.querySelector(".scale-uplot .u-legend")).color);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForFunction((c) => getComputedStyle(document.querySelector(".scale-uplot .u-legend")).color !== c, light);
  shots.push(await h.screenshot(page, "scale-charts-dark", { fullPage: false }));
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid="scale-chart-rows"] .uplot');
    const d = document.querySelector('[data-testid="scale"]');
    return c && c.getBoundingClientRect().right <= d.getBoundingClientRect().right;
  });
  const over = await page.evaluate(() => {
    const d = document.querySelector('[data-testid="scale"]');
    return [...d.querySelectorAll(".uplot, canvas, .u-legend")].filter((e) => e.getBoundingClientRect().right > d.getBoundingClientRect().right + 1).length;
  });
  assert.equal(over, 0, "nothing of the charts sticks out of the dialog at 375 px");
  shots.push(await h.screenshot(page, "scale-charts-375-dark", { fullPage: false }));
  await page.emulateMedia({ colorScheme: "light" });
  await dialog.evaluate((d) => d.querySelector('[data-testid="scale-heatmap"]').scrollIntoView());
  shots.push(await h.screenshot(page, "scale-charts-375", { fullPage: false }));
  console.log(`# screenshots: ${shots.join(" ")}`);
  assert.deepEqual(await h.axe(page, { include: '[data-testid="scale"]' }), []);
  h.assertNoErrors(page);
});

test("the offline single file runs a workload on the page's engine, with progress and Cancel", async () => {
  const page = await h.open(fileURL("dist/explainer-offline.html") + "#scenario=happy-path", { viewport: { width: 1280, height: 900 } });
  await openScale(page, "million-rows");
  await longerRun(page);
  assert.match(await text(page, "scale"), /This offline file cannot start a worker/);
  await countFrames(page);
  await byTestId(page, "scale-run").click();
  await waitMidway(page);
  await page.waitForFunction(() => window.__frames > 3, null, { timeout: 30000 }); // it paints between chunks
  await byTestId(page, "scale-cancel").click();
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('[data-testid="scale-status"]').textContent));
  await byTestId(page, "scale-workload").selectOption("no-state-write-at-scale");
  await page.waitForFunction(() => document.querySelector('[data-testid="scale-text"]').value.includes("bug: no-state-write"));
  await byTestId(page, "scale-run").click();
  await page.locator('[data-testid="scale-heatmap"] canvas').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('[data-testid="scale-charts"] .uplot').count(), 3);
  const want = cli("no-state-write-at-scale");
  const yaml = readFileSync(join(ROOT, "scenarios/workloads/no-state-write-at-scale.yaml"), "utf8");
  assert.equal(await page.evaluate((y) => window.explainer.scale(y, { text: true }), yaml), want);
  h.assertNoErrors(page);
});
