// autoplay.test.mjs — every command stops autoplay first: a button, a key, a timeline mark, an
// action, the scenario picker, the bug menu. (◀ during playback used to go back while playback
// carried on.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, stepCount, byTestId, setupPrivate, call } from "./page-helpers.mjs";

let h;
let page;
before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=happy-path&step=0");
  await page.clock.install(); // the page's timers on a clock the tests run ahead (it flows meanwhile)
});
after(async () => { await h?.close(); });

const playing = () => page.locator("#btn-play").getAttribute("aria-pressed");

/** Play at 4× from step `from` until the page has stepped twice, then run `command`. */
async function playThen(from, command) {
  await call(page, "goto", from);
  await page.locator("#speed").selectOption("300");
  await page.locator("#btn-play").click();
  assert.equal(await playing(), "true");
  await page.waitForFunction((n) => {
    const m = /^step (\d+)/.exec(document.querySelector('[data-testid="step-count"]').textContent);
    return m && Number(m[1]) >= n + 2;
  }, from);
  await command();
  assert.equal(await playing(), "false", "autoplay stopped");
  const at = (await stepCount(page)).step;
  await page.clock.runFor(1000); // three ticks of 4× playback, at once
  assert.equal((await page.evaluate(() => window.explainer.view())).step, at, "and it stays stopped");
  assert.equal((await stepCount(page)).step, at, "and it stays stopped");
}

const COMMANDS = [
  ["the ◀ button", () => page.getByRole("button", { name: /^Back one step/ }).click()],
  ["the first-step button", () => page.getByRole("button", { name: /^First step/ }).click()],
  ["the last-step button", () => page.getByRole("button", { name: /^Last step/ }).click()],
  ["the → key", async () => { await page.locator("body").focus(); await page.keyboard.press("ArrowRight"); }],
  ["the ← key", async () => { await page.locator("body").focus(); await page.keyboard.press("ArrowLeft"); }],
  ["a timeline mark", () => page.locator('#marks .tl-mark[data-step="1"]').click()],
  ["the timeline slider", () => page.getByLabel("Timeline: go to step").fill("3")],
  ["an action button", () => page.locator('[data-testid="actions"] button').first().click()],
  ["the scenario picker", () => byTestId(page, "scenario-picker").selectOption("builder-fills-mid-epoch")],
  ["a bug mode", async () => { await byTestId(page, "bug-menu").click(); await page.locator('input[data-bug="mark-before-drain"]').check(); }],
];

for (const [name, command] of COMMANDS) {
  test(`${name} stops autoplay`, async () => {
    await call(page, "open", "happy-path");
    await playThen(2, command);
    h.assertNoErrors(page);
  });
}

test("Space starts and stops autoplay; autoplay stops by itself at the end", async () => {
  await call(page, "open", "happy-path");
  await call(page, "goto", 15);
  await page.locator("#speed").selectOption("300");
  await page.keyboard.press("Escape"); // close a menu left open
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press(" ");
  assert.equal(await playing(), "true");
  await page.waitForFunction(() => /^step 18 \//.test(document.querySelector('[data-testid="step-count"]').textContent));
  await page.waitForFunction(() => document.getElementById("btn-play").getAttribute("aria-pressed") === "false");
  h.assertNoErrors(page);
});
