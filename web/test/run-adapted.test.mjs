// run-adapted.test.mjs — a run played under a bug mode its script was not written for, that then
// leaves its script, travels whole as #run= and opens in a fresh browser (no storage: a first
// visit) on the same step and state, with no card, no error and no editor in front: the saved run
// leaves out the step that could not happen in it, and the link's step counts the steps the file
// has. (The first-visit card and plain deep links are the stage's tests.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { waitStep, stepCount } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const cardOpen = (page) => page.evaluate(() => document.getElementById("welcome").open);
const bugName = (page) => page.evaluate(async () => (await window.explainer.view()).bug?.name ?? null);

/** A fresh browser at `path`: no storage, so a first visit. */
async function fresh(path) {
  const page = await h.open(path);
  const m = /[#&]step=(\d+)/.exec(path);
  if (m) await waitStep(page, Number(m[1]));
  return page;
}

test("a run that left its script under a bug mode travels as #run= and opens, in a fresh browser, on the same step and state", async () => {
  // pause-and-throttle under no-state-write: its script was written without a bug mode, and in
  // this run its step 13 (a snapshot delivery) cannot happen; the run then leaves its script at
  // its end (the next barrier, which the page offers there). The saved run leaves step 13 out, so
  // the link's step is one less than the page's.
  const page = await fresh("index.html#scenario=pause-and-throttle&step=14&bug=no-state-write");
  const before = await page.evaluate(async () => {
    const a = (await window.explainer.actions()).find((x) => x.id === "barrier");
    const v = await window.explainer.apply(a);
    return { step: v.step, state: await window.explainer.state() };
  });
  assert.equal(before.step, 15);
  await page.waitForFunction(() => /^#run=[A-Za-z0-9_-]+&step=14&bug=no-state-write$/.test(location.hash), null, { timeout: 10000 });
  const hash = await page.evaluate(() => location.hash);

  const again = await fresh("index.html" + hash);
  assert.equal(await cardOpen(again), false);
  assert.equal(await again.evaluate(() => document.querySelector('[data-testid="toast"]').hidden), true, "no error");
  assert.equal(await again.evaluate(() => document.getElementById("editor-dialog").open), false, "no editor with an error");
  assert.equal(await bugName(again), "no-state-write");
  assert.equal((await stepCount(again)).step, 14);
  const after = await again.evaluate(() => window.explainer.state());
  const same = (s) => ({ ...s, step: null, outputs: s.outputs.map((o) => ({ ...o, step: null })) });
  assert.deepEqual(same(after), same(before.state), "the link replays the same run");
  assert.deepEqual(after.outputs.map((o) => o.step), before.state.outputs.map((o) => (o.step > 13 ? o.step - 1 : o.step)),
    "only the steps after the one left out are numbered one less");
  h.assertNoErrors(again);
});
