// teach-compare.test.mjs — compare two runs aligned by step: bug-mark-before-drain with its bug
// mode turned off (as RisingWave does it) against the same script under mark-before-drain, opened
// from the bug-mode menu. Differing steps carry a visible ≠ marker, only the correct run holds
// (2,150), and the table scrolls inside its own box at 375 px.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, waitStep } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

async function compareFromMenu(page) {
  // The scenario turns mark-before-drain on; the menu turns it off…
  await byTestId(page, "bug-menu").click();
  await page.locator('.popover input[data-bug="none"]').check();
  await page.waitForFunction(async () => (await window.explainer.view()).bug === null);
  await byTestId(page, "bug-banner").waitFor({ state: "hidden" });
  // …(a choice closes the menu and gives the keys back to the stage)…
  assert.equal(await byTestId(page, "bug-menu").getAttribute("aria-expanded"), "false");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "stage");
  // …and "Compare with bug mode…" compares this correct run with the bug mode.
  await byTestId(page, "bug-menu").click();
  await byTestId(page, "compare-bug-btn").click();
  const dialog = byTestId(page, "compare");
  await dialog.waitFor();
  await dialog.locator("table.cmp-table").waitFor();
  assert.equal(await byTestId(page, "compare-bug-select").inputValue(), "mark-before-drain");
  return dialog;
}

test("compare: correct vs mark-before-drain — differing steps marked, only the correct run holds (2,150)", async () => {
  const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=10");
  const dialog = await compareFromMenu(page);

  const rows = await dialog.locator("tr.cmp-row").evaluateAll((trs) => trs.map((tr) => ({
    step: Number(tr.dataset.step),
    differs: tr.dataset.differs || "",
    marker: tr.querySelector(".diff-mark")?.textContent || "",
    sr: tr.querySelector(".cmp-step .sr-only")?.textContent || "",
    onlyLeft: [...tr.querySelectorAll(".cmp-only.left .chip")].map((c) => c.getAttribute("aria-label")),
  })));
  assert.ok(rows.length >= 10, `${rows.length} rows`);
  const differing = rows.filter((r) => r.differs);
  assert.ok(differing.length > 0, "some step differs");
  for (const r of rows) assert.equal(r.marker, r.differs ? "≠" : "", `step ${r.step}: marker`);
  // At barrier e3 (step 8) the outputs and downstream differ; from there on only the left holds (2,150).
  const e3 = rows.find((r) => r.step === 8);
  assert.match(e3.differs, /outputs/);
  assert.match(e3.differs, /downstream/);
  assert.match(e3.sr, /differs in outputs, downstream/);
  assert.deepEqual(e3.onlyLeft, ["(2,150)"]);
  for (const r of rows.filter((r) => r.step < 8)) assert.equal(r.differs, "", `step ${r.step} agrees`);

  // The summary: the correct run holds, the bug mode violates, and (2,150) is only on the left.
  const summary = (await byTestId(page, "compare-summary").textContent()).replace(/\s+/g, " ");
  assert.match(summary, /steps differ/);
  assert.match(summary, /✓ holds/);
  assert.match(summary, /✗ violated/);
  assert.deepEqual(await byTestId(page, "compare-summary").locator(".cmp-only.left .chip").evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label"))), ["(2,150)"]);
  assert.equal(await byTestId(page, "compare-summary").locator(".cmp-only.right").count(), 0);
  // The differing row is highlighted beyond colour: the marker is visible text.
  assert.equal(await dialog.locator('tr.cmp-row[data-step="8"] .diff-mark').isVisible(), true);
  await h.screenshot(page, "teach-compare-1280", { fullPage: false });
  assert.deepEqual(await h.axe(page, { include: '[data-testid="compare"]' }), []);
  h.assertNoErrors(page);
});

test("compare at 375 px: the table scrolls inside its own box, the page does not", async () => {
  for (const [name, opts] of [["light", {}], ["dark", { colorScheme: "dark" }]]) {
    const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=10", { viewport: { width: 375, height: 740 }, ...opts });
    const dialog = await compareFromMenu(page);
    const box = byTestId(page, "compare-table");
    const m = await box.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth, ov: getComputedStyle(el).overflowX }));
    assert.ok(m.sw > m.cw, `the table is wider than its box (${m.sw} > ${m.cw})`);
    assert.equal(m.ov, "auto");
    const dlg = await dialog.evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(dlg <= 375, `dialog width ${dlg}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= 375), true, "no page-wide horizontal scroll");
    await dialog.locator('tr.cmp-row[data-step="8"]').scrollIntoViewIfNeeded();
    await h.screenshot(page, `teach-compare-375-${name}`, { fullPage: false });
    h.assertNoErrors(page);
  }
});

test("compare from the bug banner: the bug run against the correct one", async () => {
  const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=10");
  await byTestId(page, "bug-banner").getByRole("button", { name: "Compare with the correct run" }).click();
  const dialog = byTestId(page, "compare");
  await dialog.locator("table.cmp-table").waitFor();
  // Now the open run (left) is the bug mode: (2,150) is only on the right.
  assert.deepEqual(await dialog.locator('tr.cmp-row[data-step="8"] .cmp-only.right .chip').evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label"))), ["(2,150)"]);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await waitStep(page, 10);
  h.assertNoErrors(page);
});
