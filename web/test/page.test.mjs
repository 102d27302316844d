// page.test.mjs — a person steps through happy-path (protocol.md worked example A) on the real
// page with the Step button and reads the panels at the key steps; then goes back and forth with
// the buttons and the keyboard, and opens and closes the help overlay.
// Pages that only step a built-in and open the help open without the engine (harness
// holdEngine: the stored views answer); the link with a bug mode other than the built-in's own
// needs the engine and has it.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, openAt, text, waitStep, stepCount, snapshotLanes, progressTableRows, byTestId, setupPrivate } from "./page-helpers.mjs";

let h;
let shared; // the stepping test's page, reused (each page costs an engine start)
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

async function clickStep(page, expect) {
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await waitStep(page, expect);
}

test("the first-visit card shows on a plain first visit only, and its button keeps what is open", async () => {
  // A link that names a state opens it, without the card in front (even on a first visit).
  const deep = await h.open("index.html#scenario=fatal-upstream-end&step=3", { engine: false });
  await waitStep(deep, 3);
  assert.match(await text(deep, "scenario-title"), /upstream ends during backfill/i);
  await deep.waitForTimeout(300);
  assert.equal(await deep.evaluate(() => document.getElementById("welcome").open), false, "the card hides a deep link");
  // A plain first visit (a bug mode alone names no state): the card; its button keeps the scenario.
  const page = await h.open("index.html#bug=mark-before-drain");
  const card = page.locator("#welcome");
  await card.waitFor({ state: "visible" });
  assert.match(await card.textContent(), /backfill/i);
  await card.getByRole("button", { name: "Look around" }).click();
  await page.waitForFunction(() => !document.getElementById("welcome").open);
  assert.match(await text(page, "scenario-title"), /happy path/);
  assert.equal(await byTestId(page, "bug-banner").isVisible(), true, "the bug mode is still on");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "btn-step");
  assert.equal(await page.evaluate(() => localStorage.getItem("backfill-explainer:welcomed")), "1");
  h.assertNoErrors(page);
});

test("stepping through happy-path with the Step button: the panels at the key steps", async () => {
  const page = shared = await openPage(h, "index.html#scenario=happy-path&step=0", { engine: false, keep: true });
  assert.equal(await page.evaluate(() => document.getElementById("welcome").open), false, "first-visit card is open");
  assert.deepEqual(await stepCount(page), { step: 0, steps: 18 });
  assert.match(await text(page, "scenario-title"), /happy path/);

  // Step 1: barrier e1, the executor buffers.
  await clickStep(page, 1);
  assert.match(await text(page, "phase"), /buffering/i);
  assert.equal(await text(page, "step-count"), "step 1 / 18");
  assert.match(await page.evaluate(() => location.hash), /step=1\b/);

  for (let n = 2; n <= 6; n++) {
    await clickStep(page, n);
    assert.equal(await text(page, "step-count"), `step ${n} / 18`);
  }
  // Step 6: the start signal; the snapshot stream exists, nothing read yet.
  assert.match(await text(page, "phase"), /backfilling/i);
  assert.deepEqual(await snapshotLanes(page), { v0: ["(1,100)", "(2,101)"], v1: ["(11,200)", "(12,201)"] });
  assert.match(await text(page, "snapshot"), /as of e3|stream \(re\)started at step 6/);

  // Step 7: the snapshot delivers (1,100) and (2,101) into v0's builder.
  await clickStep(page, 7);
  const builders = await page.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll('[data-testid="builders"] .builder')].map((b) => [
      b.querySelector(".vnode").textContent.trim(),
      { count: b.querySelector(".count").textContent.trim(), rows: [...b.querySelectorAll(".chip .tuple")].map((c) => c.textContent) },
    ])));
  assert.deepEqual(builders.v0, { count: "2 / 256", rows: ["(1,100)", "(2,101)"] });
  assert.equal(builders.v1.count, "0 / 256");
  // Rows in a builder are not progress yet: progress moves when the builder's chunk is emitted.
  assert.match(await text(page, "progress"), /v0 ?○ not started/);

  for (let n = 8; n <= 10; n++) await clickStep(page, n);
  // Step 10: barrier e4 drains the builder, then marks the buffered chunk: both rows hidden.
  const marked = await page.evaluate(() => [...document.querySelectorAll('[data-testid="outputs"] li.msg-chunk')]
    .filter((li) => li.querySelector(".tag-src")?.textContent === "marked")
    .map((li) => ({
      text: li.textContent.replace(/\s+/g, ""),
      chips: [...li.querySelectorAll(".chip")].map((c) => ({ text: c.textContent, label: c.getAttribute("aria-label") })),
    })));
  assert.equal(marked.length, 1, `marked chunks in the output log: ${JSON.stringify(marked)}`);
  assert.deepEqual(marked[0].chips.map((c) => c.text), ["+(3,102)✗", "+(13,202)✗"], "✗ glyph on each hidden row");
  for (const c of marked[0].chips) assert.match(c.label, /hidden/, "hidden is said in words too");
  assert.match(await text(page, "outputs"), /builder ?\+\(1,100\)✓ ?\+\(2,101\)✓/);
  assert.match(await text(page, "progress"), /v0 ?◐ in progress ?pos \(2,101\) ?2 rows/);
  assert.deepEqual(await progressTableRows(page, "committed"), [["v0", "2", "101", "✗ no", "2"]]);
  assert.deepEqual(await progressTableRows(page, "durable"), [["v0", "2", "101", "✗ no", "2"]]);

  // To the end with the Step button.
  for (let n = 11; n <= 18; n++) await clickStep(page, n);
  assert.match(await text(page, "phase"), /forwarding/i);
  assert.equal(await text(page, "step-count"), "step 18 / 18");
  const downstream = await page.locator('[data-testid="downstream"] .chip .tuple').allTextContents();
  assert.deepEqual(downstream, ["(2,101)", "(3,102)", "(4,103)", "(11,200)", "(12,201)", "(13,202)"]);
  assert.match(await text(page, "invariant"), /invariant holds/);
  assert.equal(await page.getByRole("button", { name: /^Step forward/ }).isDisabled(), true, "Step is disabled at the end");
  h.assertNoErrors(page);
});

test("back and forward with the buttons and the keyboard; ? opens help, Escape closes it", async () => {
  const page = shared ?? await openPage(h, "index.html#scenario=happy-path&step=5", { engine: false });
  await openAt(page, "happy-path", 5);
  const btn = (name) => page.getByRole("button", { name });

  await btn(/^Back one step/).click();
  await waitStep(page, 4);
  await btn(/^Step forward/).click();
  await waitStep(page, 5);
  await btn(/^Last step/).click();
  await waitStep(page, 18);
  assert.match(await text(page, "phase"), /forwarding/i);
  await btn(/^First step/).click();
  await waitStep(page, 0);
  assert.equal(await btn(/^Back one step/).isDisabled(), true);
  assert.match(await text(page, "outputs"), /nothing emitted yet/);

  // Keyboard, with the focus on the page (not in a field).
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 1);
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 2);
  await page.keyboard.press("ArrowLeft");
  await waitStep(page, 1);
  assert.match(await text(page, "phase"), /buffering/i);
  await page.keyboard.press("End");
  await waitStep(page, 18);
  assert.match(await text(page, "invariant"), /invariant holds/);
  await page.keyboard.press("ArrowRight"); // at the end: stays
  await page.keyboard.press("Home");
  await waitStep(page, 0);
  await page.keyboard.press("ArrowLeft"); // at the start: stays
  await page.waitForTimeout(100);
  assert.equal((await stepCount(page)).step, 0);

  // Help overlay.
  const help = page.locator("#help");
  assert.equal(await help.isVisible(), false);
  await page.keyboard.press("?");
  await help.waitFor({ state: "visible" });
  assert.match(await help.textContent(), /How to read this page/);
  assert.match(await help.textContent(), /ArrowRight|→/);
  // While it is open the stage keys do nothing.
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(100);
  assert.equal((await stepCount(page)).step, 0);
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => document.getElementById("help").open), false);
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 1);
  // The ? button opens it too.
  await btn(/^Help and keyboard shortcuts/).click();
  await help.waitFor({ state: "visible" });
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "hidden" });
  assert.equal(await byTestId(page, "toast").isVisible(), false);
  h.assertNoErrors(page);
});
