// teach-predict.test.mjs — predict mode, keyboard only: at happy-path's barrier e4 (step 10) the
// Step key asks first; the learner answers each buffered row with the arrow keys, Space and Tab,
// submits with Enter; the page steps and marks each answer right or wrong against the engine's
// prediction (the view's `predict`, worked out on a copy of the run), with the engine's why, and
// keeps the running score in sessionStorage. Rows held back (no vnode in progress) are hidden,
// and the engine says why.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, text, waitStep, stepCount } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const activeDesc = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return a && a.type === "radio" ? `${a.name}=${a.value}` : a?.tagName;
});

test("predict at happy-path's barrier e4 with the keyboard only: per-row answers and the score", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=9");
  await page.locator("body").focus();

  // f turns predict mode on; the score starts at 0 / 0.
  await page.keyboard.press("f");
  assert.equal(await byTestId(page, "predict").getAttribute("aria-pressed"), "true");
  assert.equal(await text(page, "predict-score"), "score: 0 / 0");

  const predicted = await page.evaluate(async () => (await window.explainer.view()).predict);
  assert.equal(predicted.next, true);
  assert.equal(predicted.step, 10);
  // → asks first instead of stepping: one radio group per buffered row, focus on the first.
  await page.keyboard.press("ArrowRight");
  const quiz = byTestId(page, "predict-quiz");
  await quiz.waitFor();
  assert.equal((await stepCount(page)).step, 9, "the step waited for the prediction");
  assert.match((await quiz.textContent()).replace(/\s+/g, " "), /barrier e4 is next/);
  assert.equal(await quiz.locator("fieldset.predict-row").count(), 2);
  assert.deepEqual(
    await quiz.locator("fieldset.predict-row legend .chip").evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label"))),
    ["insert (3,102)", "insert (13,202)"]);
  assert.equal(await activeDesc(page), "predict-0=visible");

  // Row 1: ArrowDown moves to "hidden" and checks it. Tab: row 2. Space: "visible" (wrong).
  await page.keyboard.press("ArrowDown");
  assert.equal(await activeDesc(page), "predict-0=hidden");
  await page.keyboard.press("Tab");
  assert.equal(await activeDesc(page), "predict-1=visible");
  await page.keyboard.press("Space");
  assert.equal((await stepCount(page)).step, 9, "Space in the quiz does not play");
  await page.keyboard.press("Enter");

  await waitStep(page, 10);
  const result = byTestId(page, "predict-result");
  await result.waitFor();
  const answers = await byTestId(page, "predict-answer").evaluateAll((lis) => lis.map((li) => ({
    verdict: li.dataset.verdict,
    chip: li.querySelector(".chip").getAttribute("aria-label"),
    text: li.querySelector(".pa-text").textContent,
  })));
  assert.equal(answers.length, 2);
  assert.equal(answers[0].verdict, "right");
  assert.match(answers[0].chip, /^insert \(3,102\), hidden/);
  assert.match(answers[0].text, /you said hidden; it was hidden: \+\(3,102\) hidden: vnode 0 is in progress at \(2,101\)/);
  assert.equal(answers[1].verdict, "wrong");
  assert.match(answers[1].text, /you said visible; it was hidden: \+\(13,202\) hidden: vnode 1 has not started/);
  assert.deepEqual(answers.map((a) => a.text.replace(/^.*?: /, "")), predicted.rows.map((r) => r.why), "the engine's whys");
  assert.match(await result.textContent(), /✓ right/);
  assert.match(await result.textContent(), /✗ wrong/);
  assert.equal(await text(page, "predict-score"), "score: 1 / 2");

  // Continue closes the result; the score is kept for the session (a reload keeps it).
  await page.keyboard.press("Enter");
  await result.waitFor({ state: "detached" });
  await page.reload();
  await waitStep(page, 10);
  assert.equal(await text(page, "predict-score"), "score: 1 / 2");
  assert.equal(await byTestId(page, "predict").getAttribute("aria-pressed"), "true");
  assert.deepEqual(await h.axe(page), []);
  h.assertNoErrors(page);
});

test("predict: rows held back (no vnode in progress) count as hidden", async () => {
  const page = await openPage(h, "index.html#scenario=no-vnode-in-progress&step=2");
  await byTestId(page, "predict").click();
  await page.getByRole("button", { name: /^Step forward/ }).click();
  const quiz = byTestId(page, "predict-quiz");
  await quiz.waitFor();
  for (const fs of await quiz.locator("fieldset.predict-row").all()) await fs.getByLabel("visible").check();
  await byTestId(page, "predict-submit").click();
  await waitStep(page, 3);
  await byTestId(page, "predict-held").waitFor();
  const verdicts = await byTestId(page, "predict-answer").evaluateAll((lis) => lis.map((li) => [li.dataset.verdict, li.querySelector(".pa-text").textContent]));
  assert.equal(verdicts.length, 2);
  for (const [v, t] of verdicts) {
    assert.equal(v, "wrong");
    assert.match(t, /it was hidden \(held back\): .* hidden, held back: no vnode is in progress at this barrier/, "the engine says why");
  }
  assert.equal(await text(page, "predict-score"), "score: 0 / 2");
  h.assertNoErrors(page);
});

test("predict mode off: Step steps at once", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=9");
  await page.locator("body").focus();
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 10);
  assert.equal(await byTestId(page, "predict-quiz").count(), 0);
  h.assertNoErrors(page);
});
