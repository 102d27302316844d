// create.test.mjs — how the job was created (engine/create.go), on the page: a link with
// &release=v3.0 at fatal-upstream-end's recovery shows the job dropped in the failure panel (its
// own end state, the engine's text: rerun the CREATE, SET BACKGROUND_DDL = true); the release
// menu's "background" runs it again where the job resumes and puts &create=background in the
// link; a bad &create= is a visible notice and the page keeps working.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, text, waitStep, byTestId, setupPrivate } from "./page-helpers.mjs";

const RECOVER = 11; // fatal-upstream-end's recover step

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

test("v3.0, foreground: the recovery drops the job; background resumes it, in the link too", async () => {
  const page = await openPage(h, `index.html#scenario=fatal-upstream-end&step=${RECOVER}&release=v3.0`);
  await waitStep(page, RECOVER);
  assert.equal(await text(page, "phase"), "phase: DROPPED");
  assert.equal(await byTestId(page, "fatal").isVisible(), true);
  assert.match(await text(page, "dropped-title"), /The recovery dropped the job/);
  const v = await page.evaluate(() => window.explainer.view());
  assert.equal(await text(page, "fatal-data-headline"), v.dropped.headline);
  assert.match(v.dropped.headline, /SET BACKGROUND_DDL = true/);
  assert.match(v.dropped.headline, /^The job is dropped/);
  await byTestId(page, "release-menu").click();
  await page.locator('.popover input[data-create="background"]').check();
  await page.waitForFunction(() => location.hash.includes("create=background"));
  await waitStep(page, RECOVER);
  assert.equal(await text(page, "phase"), "phase: STARTING");
  assert.equal(await byTestId(page, "fatal").isHidden(), true);
  assert.match(await text(page, "release-value"), /v3\.0 · background/);
  h.assertNoErrors(page);
});

test("a link with &create=background opens there; a bad &create= is a visible notice", async () => {
  let page = await openPage(h, `index.html#scenario=fatal-upstream-end&step=${RECOVER}&release=v3.0&create=background`);
  await waitStep(page, RECOVER);
  assert.equal(await text(page, "phase"), "phase: STARTING");
  page = await openPage(h, `index.html#scenario=fatal-upstream-end&step=3&create=later`);
  await byTestId(page, "toast").waitFor({ state: "visible", timeout: 10000 });
  assert.match(await text(page, "toast"), /unknown create type "later": expected one of foreground, background/);
  await waitStep(page, 3);
  h.assertNoErrors(page);
});

test("compare from the release menu: foreground beside background, the first difference at the recovery", async () => {
  const page = await openPage(h, `index.html#scenario=fatal-upstream-end&step=3&release=v3.0`);
  await byTestId(page, "release-menu").click();
  await byTestId(page, "compare-create-btn").click();
  await byTestId(page, "compare-summary").waitFor({ state: "visible", timeout: 15000 });
  assert.match(await byTestId(page, "compare-summary").textContent(), /first at step 11/);
  const engine = await page.evaluate(() => window.explainer.compare({ create: "foreground" }, { create: "background" }));
  assert.equal(engine.left, "foreground");
  assert.equal(engine.right, "background");
  h.assertNoErrors(page);
});
