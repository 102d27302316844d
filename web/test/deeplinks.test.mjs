// deeplinks.test.mjs — links are honoured in a fresh browser (no localStorage, so a first visit):
// #scenario=…&step=…(&bug=…), #run=… (also of a run that left its script under a bug mode its
// script was not written for) and #src=… open straight onto their scenario, step and bug mode,
// with no first-visit card in front; a plain first visit shows the card, whose main button keeps
// the scenario that is open.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setup, DIST } from "./harness.mjs";
import { text, waitStep, stepCount } from "./page-helpers.mjs";

const LESSON = `title: A lesson served beside the page
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, rule: ranges, bounds: [10]}
fragment: 7
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 11 200"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 2
  - barrier: 3
`;

let h;
let dir;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "explainer-links-"));
  cpSync(DIST, dir, { recursive: true, filter: (src) => !src.endsWith("explainer-offline.html") });
  mkdirSync(join(dir, "lessons"));
  writeFileSync(join(dir, "lessons/one.yaml"), LESSON);
  h = await setup({ dir });
});
after(async () => { await h?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

const cardOpen = (page) => page.evaluate(() => document.getElementById("welcome").open);
const bugName = (page) => page.evaluate(async () => (await window.explainer.view()).bug?.name ?? null);

/** A fresh browser at `path`: no storage, so a first visit. */
async function fresh(path) {
  const page = await h.open(path);
  const m = /[#&]step=(\d+)/.exec(path);
  if (m) await waitStep(page, Number(m[1]));
  return page;
}

for (const [path, title, bug] of [
  ["index.html#scenario=fatal-upstream-end&step=9", /upstream ends during backfill/i, null],
  ["index.html#scenario=happy-path&step=11&bug=mark-before-drain", /happy path/i, "mark-before-drain"],
  ["index.html#scenario=bug-no-state-write&step=7&bug=none", /no state write/i, null],
  ["index.html#scenario=recovery-resumes&step=0", /recovery resumes/i, null],
  ["index.html#src=lessons/one.yaml&step=4", /lesson served beside/i, null],
  ["index.html#src=lessons/one.yaml&step=4&bug=emit-beyond-pos", /lesson served beside/i, "emit-beyond-pos"],
]) {
  test(`a first visit to ${path.replace("index.html", "")} opens it, with no card in front`, async () => {
    const page = await fresh(path);
    assert.match(await text(page, "scenario-title"), title);
    assert.equal(await bugName(page), bug);
    await page.waitForTimeout(300);
    assert.equal(await cardOpen(page), false, "the first-visit card hides a deep link");
    assert.equal(await page.evaluate(() => document.querySelector('[data-testid="toast"]').hidden), true, "no error");
    h.assertNoErrors(page);
  });
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

test("a plain first visit shows the card; Start stepping keeps the open scenario and focuses Step", async () => {
  const page = await h.open("index.html");
  await page.locator("#welcome").waitFor({ state: "visible" });
  await page.getByRole("button", { name: "Start stepping" }).click();
  await page.waitForFunction(() => !document.getElementById("welcome").open);
  assert.match(await text(page, "scenario-title"), /happy path/i);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "btn-step");
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 1);
  // and the next visit (the card seen) shows it no more
  await page.reload();
  await page.evaluate(() => window.explainer.ready);
  await page.waitForTimeout(500);
  assert.equal(await cardOpen(page), false);
  h.assertNoErrors(page);
});
