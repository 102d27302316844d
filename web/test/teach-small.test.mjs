// teach-small.test.mjs — the smaller teaching items: a broken invariant's timeline mark (its glyph
// and meaning from the engine's legend); an explored outcome opens at its broken barrier (or at
// its end); a saved run reopens at its step (open_at); the Scale panel uses the screen's width.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { setup } from "./harness.mjs";
import { openPage, byTestId, text, waitStep, welcomed, call } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

test("timeline: a broken invariant has its mark (≠) at the barrier whose check failed, named by the legend", async () => {
  const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=0");
  const view = await page.evaluate(() => window.explainer.view());
  const broke = view.marks.filter((m) => m.kind === "invariant");
  assert.equal(broke.length, 1);
  const n = broke[0].step;
  assert.ok(view.marks.some((m) => m.kind === "barrier" && m.step === n), "at a barrier");
  const mark = page.locator(`#marks .tl-mark.mk-invariant[data-step="${n}"]`);
  assert.equal(await mark.count(), 1);
  assert.equal(await mark.locator(".tick").textContent(), "≠");
  assert.match(await mark.getAttribute("title"), /^invariant broken at step \d+: the invariant broke: downstream differs/);
  assert.equal(await mark.getAttribute("aria-label"), `go to invariant broken at step ${n}`);
  // Its glyph does not cover its barrier's: both can be seen and clicked.
  const [a, b] = await Promise.all([mark.boundingBox(), page.locator(`#marks .tl-mark.mk-barrier[data-step="${n}"]`).boundingBox()]);
  assert.ok(a.x + a.width / 2 > b.x + b.width / 2, `the ≠ sits right of the barrier's tick (${JSON.stringify(a)} vs ${JSON.stringify(b)})`);
  await mark.click();
  await waitStep(page, n);
  assert.equal((await page.evaluate(() => window.explainer.view())).invariant.status, "violated");
  for (const [w, hh] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: hh });
    await h.screenshot(page, `teach-invariant-mark-${w}`, { fullPage: false });
  }
  // happy-path never breaks it: no such mark.
  await call(page, "open", "happy-path");
  await page.waitForFunction(() => document.querySelectorAll("#marks .tl-mark.mk-barrier").length > 0 && !document.querySelector("#marks .mk-invariant"));
  h.assertNoErrors(page);
});

test("Save: the scenario file carries open_at, and loading it reopens the run at its step", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=6");
  const branch = page.locator('[data-testid="actions"] button.action:not(.scripted)');
  await branch.first().click();
  await waitStep(page, 7);
  await call(page, "goto", 9);
  await waitStep(page, 9);
  const want = await page.evaluate(() => window.explainer.state());
  await byTestId(page, "export-menu").click();
  const [dl] = await Promise.all([page.waitForEvent("download"), byTestId(page, "download-scenario").click()]);
  const saved = await readFile(await dl.path(), "utf8");
  assert.match(saved, /\n# Saved at step 9 of the run: the page opens the file there\.\nopen_at: 9\n$/);
  // Opened again (a file, as Open… or a drop does): at step 9, in the same state.
  await call(page, "open", "happy-path");
  await waitStep(page, 0);
  await page.locator("#open-btn").click();
  await byTestId(page, "editor").fill(saved);
  await page.getByRole("button", { name: "Load scenario" }).click();
  await waitStep(page, 9);
  assert.deepEqual(await page.evaluate(() => window.explainer.state()), want);
  // At step 0 nothing is added.
  await call(page, "goto", 0);
  await waitStep(page, 0);
  await byTestId(page, "export-menu").click();
  const [dl0] = await Promise.all([page.waitForEvent("download"), byTestId(page, "download-scenario").click()]);
  assert.doesNotMatch(await readFile(await dl0.path(), "utf8"), /open_at/);
  h.assertNoErrors(page);
});

test("Scale panel: as wide as the screen allows, and its charts follow (1920×1080 and 1280×800)", async () => {
  for (const [w, hh] of [[1920, 1080], [1280, 800]]) {
    const page = await h.open("index.html#scenario=happy-path", { ...welcomed(h), viewport: { width: w, height: hh } });
    await byTestId(page, "scale-btn").click();
    await page.waitForFunction(() => /rows:/.test(document.querySelector('[data-testid="scale-text"]')?.value || ""));
    await page.locator('[data-testid="scale-file"] > summary').click();
    const ta = byTestId(page, "scale-text");
    await ta.fill((await ta.inputValue()).replace(/rows: \d+/, "rows: 20000"));
    await byTestId(page, "scale-run").click();
    await page.locator('[data-testid="scale-heatmap"] canvas').waitFor({ timeout: 120000 });
    const sizes = await page.evaluate(() => ({
      dialog: document.querySelector('[data-testid="scale"]').getBoundingClientRect().width,
      chart: document.querySelector('[data-testid="scale-chart-rows"] .uplot').getBoundingClientRect().width,
      heat: document.querySelector('[data-testid="scale-heatmap"] canvas').getBoundingClientRect().width,
    }));
    assert.ok(sizes.dialog >= Math.min(1800, w - 3 * 16) - 1 && sizes.dialog <= w, `${w}px: the dialog is ${sizes.dialog}px wide`);
    assert.ok(sizes.chart > sizes.dialog - 120, `${w}px: the chart (${sizes.chart}px) fills the dialog (${sizes.dialog}px)`);
    assert.ok(sizes.heat > sizes.dialog - 120, `${w}px: the heat map (${sizes.heat}px) too`);
    if (w === 1920) assert.ok(sizes.dialog > 870 && sizes.chart > 870);
    await page.locator('[data-testid="scale-charts"]').scrollIntoViewIfNeeded();
    await h.screenshot(page, `teach-scale-${w}`, { fullPage: false });
    h.assertNoErrors(page);
    await page.close();
  }
});
