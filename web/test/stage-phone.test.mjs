// stage-phone.test.mjs — on a phone (375×740, touch) the page is a document: the columns stack,
// the narration and the step controls stick to the bottom, and after each step the page brings
// what the step changed into view (follow.js): the first stage panel marked data-changed="true"
// (after the upstream queue, which changes with every delivery) sits wholly above the sticky
// bottom part, with nothing over it, and the narration is in view. Every control a finger can
// touch is at least 44 px each way; Compare and the explorer open, fit the screen and work.
// Screenshots, light and dark, in web/test/artifacts/stage-phone-*.png.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, waitStep, welcomed, byTestId } from "./page-helpers.mjs";
import { inView, settle, sideways } from "./stage-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const PHONE = { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true };

/** The panel follow.js brings into view after this step (its data-testid), or null. */
const followed = (page) => page.evaluate(async () => {
  const { target } = await import("./web/follow.js");
  const t = target();
  // (a glossary term in the panel's heading has data-testid="term": the panel's own id is wanted)
  return t ? (t.dataset.testid || t.querySelector("[data-testid]:not([data-testid=term])")?.dataset.testid || null) : null;
});

/**
 * Interactive elements shown on the page smaller than 44 × 44 px. Inline text aside: a glossary
 * term is a word inside a sentence or a heading (WCAG 2.5.8's inline exception); on a touch
 * screen its tappable area is grown beyond its box by style.css, which this box check cannot see.
 */
const smallTargets = (page) => page.evaluate(() => [...document.querySelectorAll("button, select, input, summary, textarea, [role=button]")]
  .filter((e) => !e.classList.contains("term"))
  .filter((e) => e.getClientRects().length && !e.closest("dialog:not([open])") && !e.closest(".sr-only")
    && getComputedStyle(e).pointerEvents !== "none" && getComputedStyle(e).visibility !== "hidden")
  .map((e) => { const r = e.getBoundingClientRect(); return { what: `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""} "${(e.textContent || e.getAttribute("aria-label") || "").trim().slice(0, 24)}"`, w: Math.round(r.width), h: Math.round(r.height) }; })
  .filter((x) => x.w < 44 || x.h < 44));

for (const scenario of ["happy-path", "fatal-upstream-end"]) {
  test(`375×740: each step of ${scenario} brings what it changed into view above the sticky bottom`, async () => {
    const page = await h.open(`index.html#scenario=${scenario}&step=0`, { ...PHONE, ...welcomed(h) });
    await waitStep(page, 0);
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById("bottom")).position), "sticky");
    const steps = await page.evaluate(() => window.explainer.steps());
    const problems = [];
    let moved = 0;
    for (let n = 1; n <= steps; n++) {
      const y0 = await page.evaluate(() => scrollY);
      await page.locator("#btn-step").tap();
      await waitStep(page, n);
      await settle(page);
      const id = await followed(page);
      const stageChanged = await page.evaluate(() => [...document.querySelectorAll('#stage [data-changed="true"], #fatal[data-changed="true"]')].length);
      if (stageChanged && !id) problems.push(`step ${n}: a panel changed but none is followed`);
      if (id) for (const p of await inView(page, [id], { bottomCover: "#bottom" })) problems.push(`step ${n}: ${p}`);
      for (const p of await inView(page, ["narration"])) problems.push(`step ${n}: ${p}`);
      if (await page.evaluate(() => scrollY) !== y0) moved++;
      if (await sideways(page)) problems.push(`step ${n}: ${await sideways(page)}`);
    }
    assert.deepEqual(problems, []);
    assert.ok(moved >= steps / 3, `the page followed the steps (it scrolled at ${moved} of ${steps})`);
    h.assertNoErrors(page);
  });
}

test("375×740: touch targets are at least 44 px; screenshots mid-backfill and at the failure", async () => {
  const page = await h.open("index.html#scenario=happy-path&step=10", { ...PHONE, ...welcomed(h) });
  await waitStep(page, 10);
  await settle(page);
  assert.deepEqual(await smallTargets(page), [], "at step 10 of happy-path");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `stage-phone-375-${scheme}`, { fullPage: false });
  }
  await page.evaluate(async () => { await window.explainer.open("fatal-upstream-end"); await window.explainer.goto(10); });
  await waitStep(page, 10);
  await settle(page);
  assert.deepEqual(await inView(page, ["fatal"], { bottomCover: "#bottom" }), [], "the failure is brought into view");
  assert.deepEqual(await smallTargets(page), [], "at the failure");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `stage-phone-375-fatal-${scheme}`, { fullPage: false });
  }
  h.assertNoErrors(page);
});

/** The dialog fits the screen, the page does not scroll sideways, and its own tap targets are 44 px. */
async function fits(page, testid) {
  const box = await byTestId(page, testid).boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375.5, `${testid} fits the width: ${JSON.stringify(box)}`);
  assert.ok(box.y >= 0 && box.y + box.height <= 740.5, `${testid} fits the height: ${JSON.stringify(box)}`);
  assert.equal(await sideways(page), null);
  const small = (await smallTargets(page)).filter((x) => !/^input#explore-bound|^input.*checkbox/.test(x.what));
  assert.deepEqual(small, [], `${testid}: touch targets`);
}

test("375×740: Compare and the explorer are usable", async () => {
  const page = await h.open("index.html#scenario=bug-mark-before-drain&step=0", { ...PHONE, ...welcomed(h) });
  await waitStep(page, 0);
  // Compare, from the bug banner: the two runs side by side, the table scrolling inside the dialog.
  await byTestId(page, "bug-banner").getByRole("button", { name: "Compare with the correct run" }).tap();
  const cmp = byTestId(page, "compare");
  await cmp.locator("table.cmp-table").waitFor();
  await fits(page, "compare");
  const table = await cmp.evaluate((d) => {
    const t = d.querySelector("table.cmp-table");
    let box = t.parentElement;
    while (box && box !== d && getComputedStyle(box).overflowX === "visible") box = box.parentElement;
    return { rows: t.querySelectorAll("tbody tr").length, differs: t.querySelectorAll("tr.differs").length, scrolls: !!box && box.scrollWidth >= box.clientWidth };
  });
  assert.ok(table.rows > 5 && table.differs >= 1 && table.scrolls, `the comparison: ${JSON.stringify(table)}`);
  await h.screenshot(page, "stage-phone-375-compare", { fullPage: false });
  await cmp.getByRole("button", { name: "Close" }).first().tap();
  await cmp.waitFor({ state: "hidden" });

  // The explorer, from the header: run it, read the outcomes, open one as a comparison.
  await byTestId(page, "explore-btn").tap();
  const ex = byTestId(page, "explorer");
  await ex.waitFor();
  await byTestId(page, "explore-run").tap();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 60000 });
  await fits(page, "explorer");
  assert.ok(await byTestId(page, "explore-outcome").count() >= 2, "outcomes listed");
  await byTestId(page, "explore-outcome").first().scrollIntoViewIfNeeded();
  assert.equal(await byTestId(page, "explore-outcome").first().isVisible(), true);
  await h.screenshot(page, "stage-phone-375-explorer", { fullPage: false });
  h.assertNoErrors(page);
});
