// clicker.test.mjs — a presentation clicker (PageDown/PageUp, sometimes Space) works everywhere:
// PageDown/PageUp step outside presenter mode too; at a predict quiz the first PageDown shows the
// answer and the second steps on (in presenter mode at 1280×800, with every asked row and the
// submit button in view); after a click on "Speaker notes" Space plays instead of pressing that
// button again; a step with `pause: true` stops autoplay outside presenter mode too; predict's
// answer in the normal layout at 1280×800 leaves Inject… and the Next actions uncovered.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, byTestId, waitStep, stepCount, blur, call } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const playing = (page) => page.locator("#btn-play").getAttribute("aria-pressed");

const PAUSING = `title: Pauses for the presenter
summary: Five steps; autoplay stops after the third.
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, rule: ranges, bounds: [10]}
fragment: 7
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 11 200"]
  - barrier: {epoch: 2, start_backfill: [7]}
    pause: true
  - snapshot: 1
  - barrier: 3
`;

test("PageDown/PageUp step outside presenter mode", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2");
  assert.equal(await byTestId(page, "presenter").getAttribute("aria-pressed"), "false");
  await blur(page);
  await page.keyboard.press("PageDown");
  await waitStep(page, 3);
  await page.keyboard.press("PageDown");
  await waitStep(page, 4);
  await page.keyboard.press("PageUp");
  await waitStep(page, 3);
  h.assertNoErrors(page);
});

test("a predict quiz in presenter mode at 1280×800: every row and the submit button in view; PageDown shows the answer, the next PageDown steps on", async () => {
  const page = await openPage(h, "index.html#scenario=mixed-visibility&step=6", { viewport: { width: 1280, height: 800 } });
  await byTestId(page, "predict").click();
  await byTestId(page, "presenter").click();
  await blur(page);
  await page.keyboard.press("PageDown"); // the marking barrier is next: the quiz asks first
  await byTestId(page, "predict-quiz").waitFor();
  assert.equal((await stepCount(page)).step, 6);
  const seen = await page.evaluate(() => {
    const inView = (el) => {
      const r = el.getBoundingClientRect();
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
      const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      return !!at && (at === el || el.contains(at));
    };
    const rows = [...document.querySelectorAll(".predict-row")];
    return { rows: rows.length, shown: rows.filter(inView).length, submit: inView(document.querySelector('[data-testid="predict-submit"]')), focus: document.activeElement?.type };
  });
  assert.ok(seen.rows >= 8, `rows asked: ${seen.rows}`);
  assert.deepEqual({ shown: seen.shown, submit: seen.submit }, { shown: seen.rows, submit: true }, "every asked row and the submit button in view");
  assert.equal(seen.focus, "radio", "the quiz has the focus (its first row)");
  await h.screenshot(page, "clicker-predict-presenter-1280");
  await page.keyboard.press("PageDown"); // from the radio: shows the answer
  await waitStep(page, 7);
  await byTestId(page, "predict-result").waitFor();
  assert.equal(await byTestId(page, "predict-answer").count(), seen.rows);
  await page.keyboard.press("PageDown"); // and steps on
  await waitStep(page, 8);
  assert.equal(await byTestId(page, "predict-result").count(), 0, "the result goes once the learner steps on");
  h.assertNoErrors(page);
});

test("after a click on Speaker notes, Space plays (it does not press the button again)", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2");
  await page.locator("#speed").selectOption("2400");
  await byTestId(page, "presenter").click();
  const [speaker] = await Promise.all([page.context().waitForEvent("page"), byTestId(page, "speaker-open").click()]);
  await speaker.waitForLoadState();
  await page.bringToFront();
  assert.notEqual(await page.evaluate(() => document.activeElement?.dataset.testid), "speaker-open", "the keys are back on the stage");
  await page.keyboard.press(" ");
  assert.equal(await playing(page), "true", "Space plays");
  await page.keyboard.press(" ");
  assert.equal(await playing(page), "false", "and pauses");
  h.assertNoErrors(page);
  h.assertNoErrors(speaker);
});

test("a step with pause: true stops autoplay outside presenter mode", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  await call(page, "load", PAUSING);
  await waitStep(page, 0);
  assert.equal(await byTestId(page, "presenter").getAttribute("aria-pressed"), "false");
  await page.selectOption("#speed", "300");
  await blur(page);
  await page.keyboard.press(" ");
  await page.waitForFunction(() => document.getElementById("btn-play").getAttribute("aria-pressed") === "true");
  // autoplay stops either at the paused step (3) or, without the pause, at the end (5)
  await page.waitForFunction(() => document.getElementById("btn-play").getAttribute("aria-pressed") === "false");
  assert.equal((await stepCount(page)).step, 3);
  h.assertNoErrors(page);
});

test("predict's answer in the normal layout at 1280×800: nothing is drawn over Inject… or the Next actions", async () => {
  const page = await openPage(h, "index.html#scenario=mixed-visibility&step=6", { viewport: { width: 1280, height: 800 } });
  await byTestId(page, "predict").click();
  await page.keyboard.press("PageDown");
  await byTestId(page, "predict-quiz").waitFor();
  await page.keyboard.press("PageDown");
  await byTestId(page, "predict-result").waitFor();
  const covered = await page.evaluate(() => [document.getElementById("inject-btn"), ...document.querySelectorAll('[data-testid="actions"] button')].flatMap((el) => {
    // (what paints at a point: elementFromPoint, or the narration drawn past its box, which does not take the pointer there)
    const r = el.getBoundingClientRect();
    const narr = document.getElementById("narration").getBoundingClientRect();
    const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    const problems = [];
    if (!at || !(at === el || el.contains(at))) problems.push(`${el.textContent.trim().slice(0, 20)}: covered by ${at?.tagName}`);
    const live = document.getElementById("narration-live").getBoundingClientRect();
    if (getComputedStyle(document.getElementById("narration")).overflow === "visible" && live.bottom > narr.bottom + 1 && live.bottom > r.top && live.top < r.bottom) problems.push(`${el.textContent.trim().slice(0, 20)}: the narration is drawn over it`);
    return problems;
  }));
  assert.deepEqual(covered, []);
  h.assertNoErrors(page);
});
