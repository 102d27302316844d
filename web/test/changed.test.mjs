// changed.test.mjs — the change flash in a browser: a step after a pause flashes what it
// changed, steps in quick succession are drawn calm. (Which panels and items a step marks
// changed, and the progress table's header, are read without a browser:
// node/render-panels.test.mjs and node/render-stage.test.mjs.)
// Its pages open without the engine (harness holdEngine): they step built-ins, whose views (and
// what each marks changed) are their stored ones.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, waitStep, stepCount, setupPrivate, welcomed, call, pageStarted } from "./page-helpers.mjs";
import { serveSources } from "./harness.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

// flash.js: at most three flashes a second (WCAG 2.3.1): views in quick succession keep their
// static highlight without the flash; the first view after a pause flashes again. The page's
// flash clock is the test's (flash.js's hook): how far apart the views come is set, not waited for.
test("the change flash: a step after a pause flashes; steps in quick succession are drawn calm, with the highlight but no flash", async () => {
  // (the flash is motion: a reader who asks for less motion gets none, harness.poolable)
  const page = await h.open("about:blank", { engine: false, ...welcomed(h), ready: false, reducedMotion: "no-preference" });
  await page.addInitScript(() => {
    window.__flashNow = 0;
    window.__backfillFlashClock = () => window.__flashNow;
  });
  await page.goto(new URL("index.html#scenario=happy-path&step=3", h.url).href);
  await waitStep(page, 3);
  await pageStarted(page);
  const flashing = () => page.evaluate(() => ({
    calm: "calm" in document.documentElement.dataset,
    changed: document.querySelectorAll(".changed").length,
    // (the style, not the running animations: a slow machine may be past the flash's 1.1 s)
    running: [...document.querySelectorAll(".changed")].filter((el) => getComputedStyle(el).animationName === "flash").length,
  }));
  const pause = (ms) => page.evaluate((ms) => { window.__flashNow += ms; }, ms);
  await pause(1000);
  await call(page, "step");
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
  await call(page, "step");
  await waitStep(page, 7);
  f = await flashing();
  assert.equal(f.calm, false);
  assert.ok(f.running > 0, `the step after the pause flashes: ${JSON.stringify(f)}`);
  h.assertNoErrors(page);
});

test("the stage panels a step changed are the view's `changed` keys, in stage order, not read back from the page", async () => {
  const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=0", { engine: false, viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  await serveSources(page);
  const failed = await page.evaluate(async () => { // the step that fails: the failure panel is shown
    let v = await window.explainer.view();
    while (!v.error) v = await window.explainer.step();
    return v.step;
  });
  await waitStep(page, failed);
  const got = await page.evaluate(async () => {
    const { changedPanels } = await import("./__test/web/stage/follow.js"); // (harness.serveSources)
    const { changed } = await window.explainer.view();
    for (const el of document.querySelectorAll("[data-changed]")) delete el.dataset.changed; // (what the page marked is not read)
    // every key on: the stage panels are the failure panel and #stage's, in document order
    const all = Object.fromEntries(Object.keys(changed).map((k) => [k, true]));
    const some = { ...Object.fromEntries(Object.keys(changed).map((k) => [k, false])), outputs: true, buffer: true, note: true, fatal: true };
    return { all: changedPanels(all).map((c) => c.id), some: changedPanels(some).map((c) => c.id), none: changedPanels({}).length };
  });
  assert.deepEqual(got.all, ["fatal", "upstream-next", "snapshot", "upstream-content", "buffer", "builders",
    "progress", "state-table", "progress-table", "outputs", "downstream", "invariant"].filter((id) => got.all.includes(id)));
  assert.ok(got.all.includes("fatal") && got.all.includes("outputs") && got.all.includes("upstream-next"), got.all.join());
  assert.deepEqual(got.some, ["fatal", "buffer", "outputs"], "the narration's note is no stage panel; the failure comes first");
  assert.equal(got.none, 0);
  h.assertNoErrors(page);
});
