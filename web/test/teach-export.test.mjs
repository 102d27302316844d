// teach-export.test.mjs — Save ▾: after a branch (the snapshot delivers first) and an injected
// chunk, "Download scenario" gives a file that replays the run: loaded back with explainer.load
// and run to the end, its state() equals the original's. "Download trace" gives the trace JSON of
// the whole run; "… up to this step" the trace as the page shows it now. "Download readable
// trace" gives the text `backfill run NAME` prints (its golden file), written by the engine.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { setup } from "./harness.mjs";
import { openPage, byTestId, waitStep, call } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

async function download(page, testid) {
  await byTestId(page, "export-menu").click();
  const [dl] = await Promise.all([page.waitForEvent("download"), byTestId(page, testid).click()]);
  return { name: dl.suggestedFilename(), text: await readFile(await dl.path(), "utf8") };
}

test("download the scenario after a branch and an injected chunk; loading it back replays the run", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=6");
  // A branch: at step 6 the script has the snapshot deliver; the learner has the upstream go first.
  const branch = page.locator('[data-testid="actions"] button.action:not(.scripted)');
  assert.match(await branch.first().textContent(), /branch/);
  await branch.first().click();
  await waitStep(page, 7);
  // An injected chunk.
  await call(page, "apply", 'chunk: ["+ 5 104", "+ 14 203"]');
  await waitStep(page, 8);

  const { name, text } = await download(page, "download-scenario");
  assert.equal(name, "happy-path.yaml");
  assert.match(text, /^title: /m);
  assert.match(text, /\+ 5 104/);

  const original = await page.evaluate(async () => {
    const v = await window.explainer.view();
    await window.explainer.goto(v.steps);
    return { steps: v.steps, state: await window.explainer.state() };
  });
  const replayed = await page.evaluate(async (t) => {
    const v = await window.explainer.load(t);
    await window.explainer.goto(v.steps);
    return { steps: v.steps, state: await window.explainer.state() };
  }, text);
  assert.equal(replayed.steps, original.steps);
  assert.deepEqual(replayed.state, original.state);
  assert.ok(original.state.outputs.length > 0);
  h.assertNoErrors(page);
});

test("download the trace: the whole run's trace, or the trace up to this step, each saying which", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=12");
  await byTestId(page, "export-menu").click();
  assert.match(await byTestId(page, "download-trace").textContent(), /whole run/);
  assert.match(await byTestId(page, "download-trace-here").textContent(), /up to this step/);
  await byTestId(page, "export-menu").click();
  // The whole run: every step of the script, as `backfill run --json` prints it, from step 12.
  const whole = await download(page, "download-trace");
  assert.equal(whole.name, "happy-path.trace.json");
  const trace = JSON.parse(whole.text);
  const expected = await page.evaluate(async () => {
    const v = await window.explainer.view();
    await window.explainer.goto(v.steps);
    const s = await window.explainer.state();
    await window.explainer.goto(12);
    return s;
  });
  await waitStep(page, 12);
  assert.equal(trace.step, 18);
  assert.deepEqual(trace, expected);
  assert.ok(trace.outputs.some((o) => o.step > 12), "outputs after step 12 are in it");
  // Up to this step: what the page shows at step 12.
  const here = await download(page, "download-trace-here");
  assert.equal(here.name, "happy-path.step-12.trace.json");
  const upTo = JSON.parse(here.text);
  assert.equal(upTo.step, 12);
  assert.ok(upTo.outputs.every((o) => o.step <= 12));
  h.assertNoErrors(page);
});

test("download the readable trace: the text `backfill run NAME` prints, from any step", async () => {
  for (const name of ["happy-path", "fatal-upstream-end"]) {
    const page = await openPage(h, `index.html#scenario=${name}&step=5`);
    await byTestId(page, "export-menu").click();
    assert.match(await byTestId(page, "download-text").textContent(), /readable trace.*\.txt/);
    await byTestId(page, "export-menu").click();
    const got = await download(page, "download-text");
    assert.equal(got.name, `${name}.txt`);
    // the golden text `backfill check` holds equal to `backfill run NAME`
    const cli = await readFile(new URL(`../../scenarios/testdata/golden/${name}.txt`, import.meta.url), "utf8");
    assert.equal(got.text, cli, name);
    await waitStep(page, 5);
    h.assertNoErrors(page);
    await page.close(); // (its context serves the next: harness.mjs)
  }
});

test("the Save menu by keyboard: Enter opens it, focus on the first item, Esc closes it", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=3");
  await byTestId(page, "export-menu").focus();
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "download-scenario");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "download-text");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "download-trace");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "download-trace-here");
  await page.keyboard.press("Escape");
  assert.equal(await byTestId(page, "export-menu").getAttribute("aria-expanded"), "false");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "export-menu");
  h.assertNoErrors(page);
});
