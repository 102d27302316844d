// changed.test.mjs — the change flash in a browser: a step after a pause flashes what it
// changed, steps in quick succession are drawn calm. (Which panels and items a step marks
// changed, and the progress table's header, are read without a browser:
// node/render-panels.test.mjs and node/render-stage.test.mjs.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { waitStep, setupPrivate, welcomed } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

// flash.js: at most three flashes a second (WCAG 2.3.1): views in quick succession keep their
// static highlight without the flash; the first view after a pause flashes again. The page's
// flash clock is the test's (flash.js's hook): how far apart the views come is set, not waited for.
test("the change flash: a step after a pause flashes; steps in quick succession are drawn calm, with the highlight but no flash", async () => {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false });
  await page.addInitScript(() => {
    window.__flashNow = 0;
    window.__backfillFlashClock = () => window.__flashNow;
  });
  await page.goto(new URL("index.html#scenario=happy-path&step=3", h.url).href);
  await waitStep(page, 3);
  await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false);
  const flashing = () => page.evaluate(() => ({
    calm: "calm" in document.documentElement.dataset,
    changed: document.querySelectorAll(".changed").length,
    // (the style, not the running animations: a slow machine may be past the flash's 1.1 s)
    running: [...document.querySelectorAll(".changed")].filter((el) => getComputedStyle(el).animationName === "flash").length,
  }));
  const pause = (ms) => page.evaluate((ms) => { window.__flashNow += ms; }, ms);
  await pause(1000);
  await page.evaluate(() => window.explainer.step());
  await waitStep(page, 4);
  let f = await flashing();
  assert.equal(f.calm, false, "a step after a pause is not calm");
  assert.ok(f.changed > 0 && f.running > 0, `a step after a pause flashes what it changed: ${JSON.stringify(f)}`);
  // two steps in a row, as a held key or a script makes them (the clock stands still: 0 ms apart)
  await page.evaluate(async () => { for (let i = 0; i < 2; i++) await window.explainer.step(); });
  await waitStep(page, 6);
  f = await flashing();
  assert.equal(f.calm, true, "steps in quick succession are calm");
  assert.ok(f.changed > 0, "the calm step still highlights what it changed");
  assert.equal(f.running, 0, "and nothing flashes");
  // after a pause, the next step flashes again
  await pause(1000);
  await page.evaluate(() => window.explainer.step());
  await waitStep(page, 7);
  f = await flashing();
  assert.equal(f.calm, false);
  assert.ok(f.running > 0, `the step after the pause flashes: ${JSON.stringify(f)}`);
  h.assertNoErrors(page);
});
