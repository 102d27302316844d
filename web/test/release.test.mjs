// release.test.mjs — the release menu (web/teach/release-menu.js): it lists the view's releases with
// their summaries and the newer-main note; choosing v3.0 on fatal-upstream-end at its end step
// runs it again there under v3.0 (no fatal error: the silent end) and puts &release=v3.0 in the
// link; such a link opens straight there (served and in the offline file); explainer.release
// rejects an unknown name with the engine's message and the page keeps working; the keyboard
// reaches the menu and gets the stage back after a choice; <backfill-explainer release="…">.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURL } from "./harness.mjs";
import { openPage, welcomed, text, waitStep, byTestId, setupPrivate, call, waitView } from "./page-helpers.mjs";

const END = 10; // fatal-upstream-end's upstream end: fatal in v3.1, a silent end before it

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const hash = (page) => page.evaluate(() => location.hash);
const view = (page) => page.evaluate(() => window.explainer.view());

test("the menu lists the view's releases with their summaries, and the newer-main note", async () => {
  const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=3");
  const v = await view(page);
  assert.equal(await text(page, "release-value"), "v3.1");
  await byTestId(page, "release-menu").click();
  const opts = await page.locator(".popover input[data-release]").evaluateAll((xs) => xs.map((x) => ({
    name: x.value, checked: x.checked, summary: x.closest("label").querySelector('[data-testid="release-summary"]').textContent,
  })));
  assert.deepEqual(opts.map((o) => o.name), v.releases.map((r) => r.name));
  assert.deepEqual(opts.map((o) => o.summary), v.releases.map((r) => r.summary));
  assert.deepEqual(opts.filter((o) => o.checked).map((o) => o.name), v.releases.filter((r) => r.default).map((r) => r.name));
  assert.equal(await text(page, "release-newer-main"), v.newer_main);
  assert.match(v.newer_main, /PR #27020/);
  h.assertNoErrors(page);
});

test("choosing v3.0 at fatal-upstream-end's end: no fatal error, the silent end, &release=v3.0", async () => {
  const page = await openPage(h, `index.html#scenario=fatal-upstream-end&step=${END}`);
  assert.equal(await text(page, "phase"), "phase: FAILED");
  assert.equal(await byTestId(page, "fatal").isVisible(), true);
  await byTestId(page, "release-menu").click();
  await page.locator('.popover input[data-release="v3.0"]').check();
  await page.waitForFunction(() => document.querySelector('[data-testid="release-value"]')?.textContent === "v3.0");
  await waitStep(page, END);
  assert.equal(await byTestId(page, "release-menu").getAttribute("aria-expanded"), "false", "a pointer choice closes the menu");
  assert.equal(await text(page, "phase"), "phase: ENDED");
  assert.equal(await byTestId(page, "fatal").isHidden(), true, "no fatal error under v3.0");
  assert.match(await text(page, "narration"), /v3\.0 reads the upstream and the snapshot stream together/);
  await page.waitForFunction(() => location.hash.includes("release=v3.0"));
  assert.equal(await hash(page), `#scenario=fatal-upstream-end&step=${END}&release=v3.0`);
  // and back: the default leaves the link without release=
  await call(page, "release", "v3.1");
  await page.waitForFunction(() => !location.hash.includes("release="));
  assert.equal(await text(page, "phase"), "phase: FAILED");
  h.assertNoErrors(page);
});

test("a link with &release=v3.0 opens straight there; editing it to another release moves the page", async () => {
  const page = await openPage(h, `index.html#scenario=fatal-upstream-end&step=${END}&release=v3.0`);
  assert.equal(await text(page, "phase"), "phase: ENDED");
  assert.equal(await text(page, "release-value"), "v3.0");
  assert.equal((await view(page)).release, "v3.0");
  assert.equal(await hash(page), `#scenario=fatal-upstream-end&step=${END}&release=v3.0`);
  await page.evaluate((n) => { location.hash = `#scenario=fatal-upstream-end&step=${n}`; }, END);
  await page.waitForFunction(() => document.querySelector('[data-testid="release-value"]')?.textContent === "v3.1");
  assert.equal(await text(page, "phase"), "phase: FAILED", "a scenario= link without release= plays the default");
  h.assertNoErrors(page);
});

test("a bad release in a link is shown, and the page opens its scenario at its step under the default", async () => {
  const page = await openPage(h, `index.html#scenario=fatal-upstream-end&step=4&release=v9`);
  await byTestId(page, "toast").waitFor({ state: "visible", timeout: 10000 });
  const names = await page.evaluate(() => window.explainer.view().then((v) => v.releases.map((x) => x.name).join(", ")));
  assert.ok((await text(page, "toast")).includes(`Showing v3.1: unknown release "v9": expected one of ${names}`), await text(page, "toast"));
  assert.equal(await text(page, "release-value"), "v3.1");
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await waitStep(page, 5);
  h.assertNoErrors(page);
});

test("explainer.release rejects an unknown name with the engine's message; the page keeps working", async () => {
  const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=4");
  const r = await page.evaluate(async () => {
    try { await window.explainer.release("v9"); return null; } catch (e) { return e.message; }
  });
  const names = await page.evaluate(() => window.explainer.view().then((v) => v.releases.map((x) => x.name).join(", ")));
  assert.equal(r, `unknown release "v9": expected one of ${names}`);
  const v = await page.evaluate(() => window.explainer.release("v2.7"));
  assert.equal(v.release, "v2.7");
  assert.equal(v.step, 4, "the same step");
  await page.waitForFunction(() => document.querySelector('[data-testid="release-value"]')?.textContent === "v2.7");
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await waitStep(page, 5);
  h.assertNoErrors(page);
});

test("the keyboard reaches the menu, the arrows choose, Enter closes it and the keys step again", async () => {
  const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=4");
  // Tab from the scenario picker reaches the release menu
  await byTestId(page, "scenario-picker").focus();
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.dataset.testid === "release-menu");
  }
  assert.ok(reached, "Tab reaches the release menu");
  await page.keyboard.press("Enter");
  assert.equal(await byTestId(page, "release-menu").getAttribute("aria-expanded"), "true");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.release), "v3.1", "the focus on the release played");
  await page.keyboard.press("ArrowUp");
  await waitView(page, (v) => v.release === "v3.0");
  assert.equal(await byTestId(page, "release-menu").getAttribute("aria-expanded"), "true", "the arrows choose within the menu");
  await page.keyboard.press("Enter");
  assert.equal(await byTestId(page, "release-menu").getAttribute("aria-expanded"), "false");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "stage", "the focus back on the stage");
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 5);
  h.assertNoErrors(page);
});

test("the offline file opens a link with &release=v3.0 from file://", async () => {
  const page = await h.open(fileURL(`dist/explainer-offline.html`) + `#scenario=fatal-upstream-end&step=${END}&release=v3.0`, { ready: false });
  await page.evaluate(() => window.explainer.ready);
  await waitStep(page, END);
  await page.waitForFunction(() => document.querySelector('[data-testid="release-value"]')?.textContent === "v3.0");
  assert.equal(await text(page, "phase"), "phase: ENDED");
  h.assertNoErrors(page);
});

test("the embed's caption names the release; <backfill-explainer release> sets and moves it", async () => {
  const origin = new URL(h.url).origin;
  const page = await h.open("about:blank", { ...welcomed(h), ready: false, viewport: { width: 900, height: 800 } });
  await page.route(`${origin}/docs/rel.html`, (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><meta charset="utf-8"><script type="module" src="/web/element.js"></script>
      <backfill-explainer id="e" scenario="fatal-upstream-end" step="${END}" release="v3.0"></backfill-explainer>`,
  }));
  await page.goto(`${origin}/docs/rel.html`);
  const frame = page.frameLocator("#e iframe");
  await frame.locator('[data-testid="embed-release"]').waitFor({ timeout: 20000 });
  assert.match(await page.evaluate(() => document.querySelector("#e iframe").src), /#scenario=fatal-upstream-end&step=10&release=v3\.0$/);
  await frame.locator('[data-testid="step-count"]').filter({ hasText: /^step 10 \// }).waitFor();
  assert.equal((await frame.locator('[data-testid="embed-release"]').textContent()).trim(), "RisingWave v3.0");
  assert.match(await frame.locator('[data-testid="phase"]').textContent(), /ENDED/);
  // changing the attribute moves the embed (by its hash: no reload)
  await page.evaluate(() => document.getElementById("e").setAttribute("release", "v2.8"));
  await frame.locator('[data-testid="embed-release"]').filter({ hasText: "RisingWave v2.8" }).waitFor({ timeout: 10000 });
  assert.match(await frame.locator('[data-testid="phase"]').textContent(), /ENDED/);
  // and a scenario changed while release is set keeps the release
  await page.evaluate(() => { const e = document.getElementById("e"); e.setAttribute("scenario", "happy-path"); e.setAttribute("step", "3"); });
  await frame.locator('[data-testid="embed-title"]').filter({ hasText: /happy path/i }).waitFor({ timeout: 10000 });
  await frame.locator('[data-testid="step-count"]').filter({ hasText: /^step 3 \// }).waitFor();
  assert.equal((await frame.locator('[data-testid="embed-release"]').textContent()).trim(), "RisingWave v2.8");
  h.assertNoErrors(page);
});
