// create.test.mjs — how the job was created (engine/create.go), on the page: a link with
// &release=v3.0 at fatal-upstream-end's recovery shows the job dropped in the failure panel (its
// own end state, the engine's text: rerun the CREATE, SET BACKGROUND_DDL = true); the release
// menu's "background" runs it again where the job resumes and puts &create=background in the
// link; a bad &create= is a visible notice and the page keeps working. The element's `create`
// attribute (web/element.js) reaches its page: at v3.0's recovery one element without it shows the
// job dropped and one with create="background" the job resumed; setting the attribute later moves
// the page too. A job dropped before its first checkpoint is titled by that, whatever its create type.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, text, waitStep, byTestId, setupPrivate, welcomed } from "./page-helpers.mjs";

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

test("a job dropped before its first checkpoint: the title says so, not how it was created", async () => {
  const page = await openPage(h, "index.html#scenario=first-message-not-barrier&step=2&create=background");
  assert.equal(await text(page, "phase"), "phase: DROPPED");
  assert.equal(await text(page, "dropped-title"), "The recovery dropped the job · v3.1 · no checkpoint yet");
  h.assertNoErrors(page);
});

test("the element's create attribute: at v3.0's recovery foreground shows the job dropped, background resumed; a change moves the page", async () => {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false, viewport: { width: 1100, height: 900 } });
  const origin = new URL(h.url).origin;
  const el = (id, create) => `<backfill-explainer id="${id}" scenario="fatal-upstream-end" step="${RECOVER}" release="v3.0"${create ? ` create="${create}"` : ""} height="500"></backfill-explainer>`;
  await page.route(`${origin}/docs/create.html`, (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><html lang="en"><head><title>docs</title><script type="module" src="../web/element.js"></script></head><body>${el("fg")}${el("bg", "background")}</body></html>`,
  }));
  await page.goto(`${origin}/docs/create.html`);
  const frameOf = async (id) => {
    await page.locator(`#${id} iframe`).waitFor({ state: "attached" });
    const f = await (await page.locator(`#${id} iframe`).elementHandle()).contentFrame();
    await f.waitForFunction((n) => document.querySelector('[data-testid="step-count"]')?.textContent.startsWith(`step ${n} /`), RECOVER, { timeout: 30000 });
    return f;
  };
  const [fg, bg] = [await frameOf("fg"), await frameOf("bg")];
  const phase = (f) => f.locator('[data-testid="phase"]').textContent();
  assert.doesNotMatch(await page.locator("#fg iframe").getAttribute("src"), /create=/);
  assert.match(await page.locator("#bg iframe").getAttribute("src"), /&create=background$/);
  await fg.waitForFunction(() => document.querySelector('[data-testid="phase"]')?.textContent === "phase: DROPPED");
  assert.equal(await fg.locator('[data-testid="dropped-title"]').textContent(), "The recovery dropped the job · v3.0 · created in the foreground");
  await bg.waitForFunction(() => document.querySelector('[data-testid="phase"]')?.textContent === "phase: STARTING");
  assert.equal(await bg.locator('[data-testid="fatal"]').isHidden(), true, "background: no dropped job");
  assert.equal(await bg.evaluate(async () => (await window.explainer.view()).create), "background");
  // set later: the page follows, at the same step
  await page.evaluate(() => document.getElementById("fg").setAttribute("create", "background"));
  await fg.waitForFunction(() => document.querySelector('[data-testid="phase"]')?.textContent === "phase: STARTING", null, { timeout: 15000 });
  assert.equal(await phase(fg), "phase: STARTING");
  assert.equal(await fg.evaluate(async () => { const v = await window.explainer.view(); return `${v.create} ${v.release} ${v.step}`; }), `background v3.0 ${RECOVER}`);
  h.assertNoErrors(page);
});
