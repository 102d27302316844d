// teach-presenter.test.mjs — presenter mode: the toggle (button and key p), large type with fewer
// panels, the step's note as speaker notes, PageDown/PageUp stepping (clickers), and autoplay
// stopping after a step marked `pause: true`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, text, waitStep, stepCount } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const blur = (page) => page.evaluate(() => document.activeElement?.blur());

const PAUSING = `title: Pauses for the presenter
summary: Five steps; autoplay stops after the third.
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, rule: ranges, bounds: [10]}
fragment: 7
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 11 200"]
  - barrier: {epoch: 2, start_backfill: [7]}
    note: Stop here and ask the room what the snapshot will read.
    pause: true
  - snapshot: 1
  - barrier: 3
`;

test("presenter mode: p toggles it, PageDown/PageUp step, speaker notes follow the step", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  const fontBefore = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
  await blur(page);
  await page.keyboard.press("p");
  assert.equal(await byTestId(page, "presenter").getAttribute("aria-pressed"), "true");
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains("presenter")), true);
  const fontAfter = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
  assert.ok(fontAfter > fontBefore, `base font ${fontBefore}px → ${fontAfter}px`);
  // Fewer panels: the summary and the tables go; the stage and the narration stay.
  assert.equal(await byTestId(page, "scenario-summary").isVisible(), false);
  assert.equal(await byTestId(page, "progress-table").isVisible(), false);
  assert.equal(await byTestId(page, "buffer").isVisible(), true);
  assert.equal(await byTestId(page, "narration").isVisible(), true);
  const notes = byTestId(page, "speaker-notes");
  assert.equal(await notes.isVisible(), true);
  assert.match(await text(page, "speaker-notes"), /^Speaker notes · step 0 \/ 18/);

  for (const n of [1, 2, 3]) {
    await page.keyboard.press("PageDown");
    await waitStep(page, n);
  }
  await page.keyboard.press("PageUp");
  await waitStep(page, 2);
  assert.match(await text(page, "speaker-notes"), /No note for this step/);
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 3);
  const note = await page.evaluate(async () => (await window.explainer.view()).note);
  assert.match(note, /Watermarks only pass again/, "happy-path's note at step 3");
  assert.ok((await text(page, "speaker-notes")).includes(note.replace(/\s+/g, " ").trim()), "the note is in the speaker notes");
  assert.equal(await page.locator(".narration .note").isVisible(), false, "the note is not repeated in the narration");
  await h.screenshot(page, "teach-presenter-1280");

  // The toggle button turns it off again; PageDown is the browser's again.
  await byTestId(page, "presenter").click();
  assert.equal(await notes.isVisible(), false);
  await blur(page);
  await page.keyboard.press("PageDown");
  await page.waitForTimeout(200);
  assert.equal((await stepCount(page)).step, 3);
  h.assertNoErrors(page);
});

test("presenter mode: autoplay stops after a step with pause: true", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  await page.evaluate((t) => window.explainer.load(t), PAUSING);
  await waitStep(page, 0);
  await byTestId(page, "presenter").click();
  await page.selectOption("#speed", "300");
  await blur(page);
  await page.keyboard.press("Space");
  await waitStep(page, 3);
  await page.waitForFunction(() => document.getElementById("btn-play").getAttribute("aria-pressed") === "false");
  await page.waitForTimeout(900); // three more ticks' worth: it stays stopped
  assert.equal((await stepCount(page)).step, 3);
  assert.match(await text(page, "speaker-notes"), /pause here/);
  assert.match(await text(page, "speaker-notes"), /ask the room/);
  // Play again: it goes on to the end.
  await page.keyboard.press("Space");
  await waitStep(page, 5);
  h.assertNoErrors(page);
});
