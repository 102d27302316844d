// changed.test.mjs — what the last step changed is the engine's answer (the view's `changed`),
// and the page marks exactly those panels data-changed="true": at every step of happy-path and of
// fatal-upstream-end, going forward with the Step button and jumping with the timeline. The
// progress table's header is the view's own column names.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, waitStep, stepCount, setupPrivate, welcomed } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

/** The panels the page marks, and the ones the view says changed (that the page has). */
const marks = (page) => page.evaluate(async () => {
  const v = await window.explainer.view();
  const want = Object.entries(v.changed).filter(([, on]) => on).map(([k]) => k.replaceAll("_", "-"))
    .filter((id) => document.querySelector(`[data-testid="${id}"]`)).sort();
  const got = [...document.querySelectorAll('[data-changed="true"]')].map((el) => el.dataset.testid).sort();
  return { want, got, step: v.step };
});

test("every step of happy-path: the marked panels are the view's `changed`", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  assert.deepEqual((await marks(page)).got, [], "nothing is marked before the first step");
  const { steps } = await stepCount(page);
  const seen = new Set();
  for (let n = 1; n <= steps; n++) {
    await page.getByRole("button", { name: /^Step forward/ }).click();
    await waitStep(page, n);
    const m = await marks(page);
    assert.deepEqual(m.got, m.want, `step ${n}`);
    for (const id of m.got) seen.add(id);
  }
  for (const id of ["upstream-next", "buffer", "builders", "progress", "outputs", "narration", "note", "snapshot", "downstream", "invariant", "state-table", "progress-table"]) {
    assert.ok(seen.has(id), `${id} was marked at some step`);
  }
  h.assertNoErrors(page);
});

test("specific steps: a watermark dropped while backfilling changes only the queue and the story; a barrier changes the tables", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=8");
  let m = await marks(page);
  assert.deepEqual(m.got, ["narration", "upstream-next"], "step 8 (a watermark, dropped)");
  await page.getByLabel("Timeline: go to step").fill("10");
  await waitStep(page, 10);
  m = await marks(page);
  assert.deepEqual(m.got, m.want);
  for (const id of ["buffer", "builders", "progress", "outputs", "progress-table", "state-table", "upstream-next", "narration"]) {
    assert.ok(m.got.includes(id), `step 10 (barrier e4) marks ${id}: ${m.got}`);
  }
  assert.ok(!m.got.includes("upstream-content"), "the barrier does not change the upstream's content");
  // Only the items the engine names are highlighted: builder v0 was drained, v1 held nothing.
  const builders = await page.evaluate(() => [...document.querySelectorAll('[data-testid="builders"] .builder')]
    .map((b) => [b.dataset.vnode, !!b.querySelector(".count.changed")]));
  assert.deepEqual(builders, [["0", true], ["1", false]]);
  h.assertNoErrors(page);
});

test("the fatal step marks the fatal panel; the progress table's header is the view's columns in words", async () => {
  const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=10");
  const m = await marks(page);
  assert.deepEqual(m.got, m.want);
  assert.ok(m.got.includes("fatal"), m.got.join(" "));
  const { header, columns } = await page.evaluate(async () => ({
    header: [...document.querySelectorAll('[data-testid="progress-table"] table')[0].querySelectorAll("th")].map((th) => th.textContent),
    columns: (await window.explainer.view()).progress_table.columns.map((c) => c.name),
  }));
  // the pos columns (pos.a, pos.id) under one "position" heading, each named by its column
  assert.deepEqual(header, ["vnode", "position", "finished", "rows", "a", "id"]);
  assert.deepEqual(columns, ["vnode", "pos.a", "pos.id", "finished", "rows"]);
  h.assertNoErrors(page);
});

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
