// teach-presenter.test.mjs — presenter mode: the toggle (button and key p), large type with fewer
// panels, PageDown/PageUp stepping (clickers), the step's note as speaker notes in a second
// window (never on the projected one) that follows the main window and drives it, and autoplay
// stopping after a step marked `pause: true`. (stage-presenter.test.mjs: what fills the screen.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, text, waitStep, stepCount, blur, call } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });


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

test("presenter mode: p toggles it, PageDown/PageUp step; the note is not on the projected screen", async () => {
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
  // The speaker notes are not on this (the projected) page: a button opens them elsewhere.
  assert.equal(await byTestId(page, "speaker-notes").count(), 0, "no speaker notes on the projected page");
  assert.equal(await byTestId(page, "speaker-open").isVisible(), true);

  for (const n of [1, 2, 3]) {
    await page.keyboard.press("PageDown");
    await waitStep(page, n);
  }
  await page.keyboard.press("PageUp");
  await waitStep(page, 2);
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 3);
  const note = await page.evaluate(async () => (await window.explainer.view()).note);
  assert.match(note, /Watermarks only pass again/, "happy-path's note at step 3");
  assert.equal(await page.locator(".narration .note").isVisible(), false, "the note is not on the projected screen");
  await h.screenshot(page, "teach-presenter-1280");

  // The toggle (here: the Exit button beside the title) turns it off again; PageDown still steps (a clicker works in every mode).
  await byTestId(page, "presenter-exit").click();
  assert.equal(await byTestId(page, "presenter").getAttribute("aria-pressed"), "false");
  assert.equal(await page.locator(".narration .note").isVisible(), true, "out of presenter mode the note is in the narration");
  assert.equal(await byTestId(page, "speaker-open").isVisible(), false);
  await blur(page);
  await page.keyboard.press("PageDown");
  await waitStep(page, 4);
  h.assertNoErrors(page);
});

/** Open the speaker-notes window from presenter mode: the second page of the context. */
async function openSpeaker(page) {
  const [speaker] = await Promise.all([page.context().waitForEvent("page"), byTestId(page, "speaker-open").click()]);
  await speaker.waitForLoadState();
  assert.match(speaker.url(), /[?&]speaker=1(&|$)/);
  await byTestId(speaker, "speaker-step").waitFor({ timeout: 10000 });
  return speaker;
}

const speakerStep = async (speaker, n) => speaker.waitForFunction((n) =>
  document.querySelector('[data-testid="speaker-step"]')?.textContent.startsWith(`step ${n} /`), n, { timeout: 10000 });

test("speaker notes: a second window shows the note, the narration and what comes next, and steps both", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2");
  await byTestId(page, "presenter").click();
  const speaker = await openSpeaker(page);
  assert.equal(await speaker.evaluate(() => typeof window.explainer), "undefined", "the speaker window starts no engine");
  assert.match(await text(speaker, "speaker-step"), /^step 2 \/ 18$/);
  assert.match(await text(speaker, "speaker-notes"), /No note for this step/);

  // The main window steps: the speaker window follows, with the step's note, narration and next.
  await blur(page);
  await page.keyboard.press("PageDown");
  await waitStep(page, 3);
  await speakerStep(speaker, 3);
  const view = await page.evaluate(() => window.explainer.view());
  assert.ok((await text(speaker, "speaker-notes")).includes(view.note.replace(/\s+/g, " ").trim()), "the note is in the speaker window");
  for (const e of view.explanations) assert.ok((await text(speaker, "speaker-narration")).includes(e.text.replace(/\s+/g, " ").trim()), `narration: ${e.text}`);
  for (const a of view.actions) assert.ok((await text(speaker, "speaker-next")).includes(a.label), `next: ${a.label}`);
  assert.equal(await page.locator(".narration .note").isVisible(), false, "never on the projected window");

  // The speaker window's keys and buttons drive the main window.
  await speaker.keyboard.press("PageDown");
  await waitStep(page, 4);
  await speakerStep(speaker, 4);
  await speaker.keyboard.press("ArrowRight");
  await waitStep(page, 5);
  await speaker.keyboard.press("PageUp");
  await waitStep(page, 4);
  await speaker.getByRole("button", { name: /Back/ }).click();
  await waitStep(page, 3);
  await speaker.getByRole("button", { name: /Next/ }).click();
  await waitStep(page, 4);
  await speakerStep(speaker, 4);
  await h.screenshot(speaker, "teach-speaker-notes");
  assert.deepEqual(await h.axe(speaker), [], "axe on the speaker window");
  h.assertNoErrors(page);
  h.assertNoErrors(speaker);
});

test("presenter mode: autoplay stops after a step with pause: true", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  await call(page, "load", PAUSING);
  await waitStep(page, 0);
  await byTestId(page, "presenter").click();
  const speaker = await openSpeaker(page);
  await page.bringToFront();
  await page.selectOption("#speed", "300");
  await page.clock.install(); // the page's timers on a clock the test can run ahead (it flows meanwhile)
  await blur(page);
  await page.keyboard.press("Space");
  await waitStep(page, 3);
  await page.waitForFunction(() => document.getElementById("btn-play").getAttribute("aria-pressed") === "false");
  await page.clock.runFor(900); // three more ticks' worth, at once: it stays stopped
  assert.equal((await page.evaluate(() => window.explainer.view())).step, 3);
  assert.equal((await stepCount(page)).step, 3);
  await speakerStep(speaker, 3);
  assert.match(await text(speaker, "speaker-step"), /step 3/);
  assert.match(await speaker.locator(".sp-head").textContent(), /pause here/);
  assert.match(await text(speaker, "speaker-notes"), /ask the room/);
  // Play again: it goes on to the end.
  await page.keyboard.press("Space");
  await waitStep(page, 5);
  h.assertNoErrors(page);
});
