// teach-bug.test.mjs — bug modes: the permalink #scenario=builder-fills-mid-epoch&step=8&bug=
// mark-before-drain opens with the banner and the invariant violated; the header menu (key b,
// arrow keys) switches modes and the URL follows, and that URL opens the same page again;
// bug=none turns off a scenario's own bug mode.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, text, waitStep, stepCount } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const hash = (page) => page.evaluate(() => location.hash);

test("#…&bug=mark-before-drain: the banner, the bug narration and the invariant violated", async () => {
  const page = await openPage(h, "index.html#scenario=builder-fills-mid-epoch&step=8&bug=mark-before-drain");
  const banner = byTestId(page, "bug-banner");
  await banner.waitFor();
  const t = await text(page, "bug-banner");
  assert.match(t, /mark-before-drain/);
  assert.match(t, /buffered chunks are marked before the builders are drained/);
  assert.match(t, /RisingWave drains every builder first, then marks/);
  assert.match(await byTestId(page, "bug-source").getAttribute("href"), /^https:\/\/github\.com\/risingwavelabs\/risingwave\/blob\/[0-9a-f]+\/src\/stream\/src\/executor\/locality_provider\.rs#L658-L682$/);
  assert.equal(await byTestId(page, "bug-fix").count(), 0, "mark-before-drain has no fix link");
  assert.match(await text(page, "invariant"), /invariant violated/);
  assert.match(await text(page, "invariant"), /\(2,150\)/);
  const bugItem = page.locator('[data-testid="narration"] .why-item.why-bug');
  assert.ok(await bugItem.count() >= 1, "a bug-mode explanation stands out");
  assert.match(await bugItem.first().textContent(), /bug mode mark-before-drain/);
  assert.equal(await bugItem.first().locator(".tag.kind").textContent(), "bug mode");
  assert.equal(await hash(page), "#scenario=builder-fills-mid-epoch&step=8&bug=mark-before-drain");
  assert.match(await byTestId(page, "bug-menu").textContent(), /mark-before-drain/);
  await h.screenshot(page, "teach-bug-1280", { fullPage: false });
  assert.deepEqual(await h.axe(page), []);
  h.assertNoErrors(page);
});

test("the bug menu by keyboard: b opens it, arrows switch modes, the URL follows and round-trips", async () => {
  const page = await openPage(h, "index.html#scenario=builder-fills-mid-epoch&step=8");
  assert.equal(await byTestId(page, "bug-banner").isVisible(), false);
  assert.match(await text(page, "invariant"), /invariant holds/);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("b");
  const menu = page.locator(".popover").filter({ has: page.locator('input[data-bug="none"]') });
  await menu.waitFor();
  assert.equal(await byTestId(page, "bug-menu").getAttribute("aria-expanded"), "true");
  const names = await menu.locator("input[type=radio]").evaluateAll((rs) => rs.map((r) => r.value));
  assert.deepEqual(names, ["none", "no-state-write", "mark-before-drain", "mark-on-arrival", "emit-beyond-pos"]);
  assert.equal(await page.evaluate(() => document.activeElement.value), "none");

  // ↓ chooses no-state-write (it has a fix link); ↓ again chooses mark-before-drain.
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => /bug=no-state-write/.test(location.hash));
  assert.match(await text(page, "bug-banner"), /no-state-write/);
  assert.match(await byTestId(page, "bug-fix").getAttribute("href"), /^https:\/\/github\.com\/risingwavelabs\/risingwave\/pull\/\d+$/);
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => /bug=mark-before-drain/.test(location.hash));
  assert.equal((await stepCount(page)).step, 8, "the step stays");
  assert.match(await text(page, "invariant"), /invariant violated/);
  assert.equal((await stepCount(page)).step, 8, "arrows in the menu do not step");

  // Esc closes the menu and gives focus back to its button.
  await page.keyboard.press("Escape");
  assert.equal(await byTestId(page, "bug-menu").getAttribute("aria-expanded"), "false");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "bug-menu");

  // The URL opens the same page again.
  const href = await page.evaluate(() => location.href);
  const again = await openPage(h, href.slice(h.url.length));
  await byTestId(again, "bug-banner").waitFor();
  assert.match(await text(again, "bug-banner"), /mark-before-drain/);
  assert.match(await text(again, "invariant"), /invariant violated/);
  assert.equal((await stepCount(again)).step, 8);
  h.assertNoErrors(page);
  h.assertNoErrors(again);
});

test("bug=none turns off a scenario's own bug mode; Turn off writes it", async () => {
  const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=8");
  await byTestId(page, "bug-banner").waitFor();
  assert.match(await text(page, "invariant"), /invariant violated/);
  await byTestId(page, "bug-off").click();
  await byTestId(page, "bug-banner").waitFor({ state: "hidden" });
  await page.waitForFunction(() => /bug=none/.test(location.hash));
  assert.match(await text(page, "invariant"), /invariant holds/);

  const again = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=8&bug=none");
  await waitStep(again, 8);
  assert.equal(await byTestId(again, "bug-banner").isVisible(), false);
  assert.match(await text(again, "invariant"), /invariant holds/);
  h.assertNoErrors(again);
});
