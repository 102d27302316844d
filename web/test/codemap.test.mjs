// codemap.test.mjs — the code map (codemap.js): `c` and the header's Code button show it as a
// column of the stage; at a step it marks (▶, aria-current) exactly the lines the engine lit, in
// the run's release (v3.1's fatal upstream end, v3.0's silent one), each linked to the release's
// lines; a predict quiz hides the lit line until it is answered; the speaker window names the lit
// lines; in the embed and at 375 px it is one line naming the current branch, which unfolds; the
// offline file shows it. Screenshots at
// 1280×800 and 1920×1080 (light and dark), the embed and 375×740 in web/test/artifacts/codemap-*.png.
// Pages open without the engine (harness holdEngine: the stored views carry the run's code map and
// each step's lit lines) but for the release test (export), predict mode and the speaker window.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURL, waitStarted } from "./harness.mjs";
import { setupPrivate, waitStep, WELCOMED_KEY, call, pageStarted } from "./page-helpers.mjs";
import { inView, requiredFor, settle, sideways } from "./stage-helpers.mjs";

const CODEMAP_KEY = "backfill-explainer:codemap"; // codemap.js KEY

let h;
before(async () => {
  const file = (name) => readFileSync(new URL(name, import.meta.url), "utf8");
  h = await setupPrivate({ extra: { "docs/embed.html": file("docs-page.html"), "docs/docs-page.css": file("docs-page.css") } });
});
after(async () => { await h?.close(); });

/** Open the page at `hash` with the first-visit card seen and the code map's choice `map` ("1", "0" or null);
 *  without the engine (harness holdEngine: the map is the stored views' code_map and code_lit) unless options.engine. */
async function open(hash, { map = null, ...options } = {}) {
  const storage = [{ name: WELCOMED_KEY, value: "1" }];
  if (map !== null) storage.push({ name: CODEMAP_KEY, value: map });
  const page = await h.open("index.html" + hash, { engine: false,
    storageState: { cookies: [], origins: [{ origin: new URL(h.url).origin, localStorage: storage }] }, ...options,
  });
  const m = /step=(\d+)/.exec(hash);
  if (m) await waitStep(page, Number(m[1]));
  await pageStarted(page);
  return page;
}

/** The lit lines as the page marks them: [id, text] of each line with ▶ shown and aria-current
 *  (read after the next frame, as a reader sees it). */
async function lit(target) {
  await target.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return target.evaluate(() => [...document.querySelectorAll('[data-testid="codemap-lines"] > li')]
    .filter((li) => li.getAttribute("aria-current") === "step")
    .map((li) => {
      const mark = li.querySelector(".cm-mark");
      if (!mark || getComputedStyle(mark).visibility !== "visible" || mark.textContent !== "▶") throw new Error(`lit line ${li.dataset.id} shows no ▶`);
      return li.dataset.id;
    }));
}

async function goto(page, n) {
  await call(page, "goto", n);
  await waitStep(page, n);
}

test("c shows the code map beside the stage; it lights the step's lines (happy-path)", async () => {
  const page = await open("#scenario=happy-path&step=9", { map: "0", viewport: { width: 1280, height: 800 } });
  const map = page.locator('[data-testid="codemap"]');
  assert.equal(await map.isVisible(), false, "hidden by choice");
  await page.locator("#stage").focus();
  await page.keyboard.press("c");
  assert.equal(await map.isVisible(), true, "c shows it");
  assert.equal(await page.locator('[data-testid="codemap-toggle"]').getAttribute("aria-pressed"), "true");
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), CODEMAP_KEY), "1", "the choice is kept");
  assert.deepEqual(await lit(page), ["back-chunk"]);
  const line = page.locator('[data-testid="codemap-lines"] > li[data-id="back-chunk"]');
  assert.match(await line.textContent(), /upstream chunk → compact, buffer/);
  assert.equal(await line.locator("a").getAttribute("href"),
    "https://github.com/risingwavelabs/risingwave/blob/448c6570b1b9d636736708340f61a85900c2b7d7/src/stream/src/executor/locality_provider.rs#L592-L595");
  for (const [n, want] of [[1, ["first-barrier", "load", "need-buffering", "buf-order"]], [2, ["buf-chunk"]], [3, ["buf-watermark"]],
    [10, ["bar-drain", "bar-refresh-check", "bar-mark", "bar-commit", "bar-report", "bar-persist", "bar-emit", "bar-refresh", "emit-builder", "mark-row"]],
    [15, ["comp-barrier", "comp-report", "comp-persist", "comp-truncate", "comp-emit"]], [18, ["fwd-barrier"]], [0, []]]) {
    await goto(page, n);
    assert.deepEqual(await lit(page), want, `step ${n}`);
    assert.deepEqual(await lit(page), await page.evaluate(async () => (await window.explainer.view()).code_lit), `step ${n}: the engine's lines`);
  }
  // The stage yields room: the three columns stay side by side, right of the map, one screen.
  await goto(page, 10);
  const cols = await page.evaluate(() => [document.getElementById("codemap"), ...document.querySelectorAll("#stage > .col")]
    .map((c) => Math.round(c.getBoundingClientRect().left)));
  assert.ok(cols[0] < cols[1] && cols[1] < cols[2] && cols[2] < cols[3], `map and columns at ${cols}`);
  assert.equal(await sideways(page), null);
  assert.equal(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight), true, "one screen");
  // the lit lines are in sight inside the map
  const seen = await page.evaluate(() => {
    const box = document.querySelector('[data-testid="codemap-lines"]').getBoundingClientRect();
    const li = document.querySelector('[data-testid="codemap-lines"] > li.lit').getBoundingClientRect();
    return li.top >= box.top - 1 && li.bottom <= box.bottom + 1;
  });
  assert.ok(seen, "the first lit line is in sight");
  // The header's button hides it again.
  await page.locator('[data-testid="codemap-toggle"]').click();
  assert.equal(await map.isVisible(), false);
  h.assertNoErrors(page);
});

test("screenshots at 1280×800 and 1920×1080, light and dark: the map beside a one-screen stage", async () => {
  for (const [w, hgt] of [[1280, 800], [1920, 1080]]) {
    // one load a size, dark by the media query as a reader's system switches it (the page's
    // schemes are its style sheet's: nothing it draws reads the scheme at load)
    const page = await open("#scenario=happy-path&step=10", { map: "1", viewport: { width: w, height: hgt } });
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      assert.equal(await page.locator('[data-testid="codemap"]').isVisible(), true);
      assert.equal(await sideways(page), null, `${w}×${hgt}`);
      const problems = await inView(page, await requiredFor(page));
      assert.deepEqual(problems, [], `${w}×${hgt} ${scheme}: the stage's panels in view`);
      await h.screenshot(page, `codemap-${w}-${scheme}`, { fullPage: false });
      assert.deepEqual(await h.axe(page, { include: "#codemap" }), [], `axe ${w} ${scheme}`);
    }
    await page.close();
  }
});

test("fatal-upstream-end: v3.1 lights its fatal line; under v3.0 there is none, the silent end instead", async () => {
  const page = await open("#scenario=fatal-upstream-end&step=10", { engine: true, map: "1", viewport: { width: 1280, height: 800 } });
  assert.deepEqual(await lit(page), ["back-end"]);
  assert.match(await page.locator('li[data-id="back-end"]').textContent(), /upstream ended → error/);
  await goto(page, 9);
  assert.deepEqual(await lit(page), ["back-chunk"]);
  // the same scenario under v3.0 (its file with `release: v3.0`); `create: background`, since
  // v3.0's recovery (step 11) drops a foreground job and a file with steps after that is an error
  // (docs/scenario-format.md, The job); the create type changes nothing before the recovery
  const text = await page.evaluate(async () => (await window.explainer.export()).scenario);
  await call(page, "load", text.replace(/^steps:/m, "release: v3.0\ncreate: background\nsteps:"));
  await goto(page, 10);
  assert.equal(await page.locator('li[data-id="back-end"]').count(), 0, "v3.0 has no fatal upstream end");
  assert.deepEqual(await lit(page), ["back-end-silent", "snap-row", "snap-end", "comp-wait", "comp-end", "fwd-end", "actor-exits", "emit-builder"]);
  assert.match(await page.locator('li[data-id="back-end-silent"] a').getAttribute("href"), /\/blob\/v3\.0\.3\/src\/stream\/src\/executor\/locality_provider\.rs#L573-L589$/);
  assert.match(await page.locator('[data-testid="codemap"] .cm-release').textContent(), /v3\.0/);
  h.assertNoErrors(page);
});

test("predict mode: the lit line is hidden while the quiz asks, shown once it is answered", async () => {
  const page = await open("#scenario=happy-path&step=9", { engine: true, map: "1", viewport: { width: 1280, height: 800 } });
  await page.evaluate(() => sessionStorage.setItem("backfill-explainer:predict-on", "true"));
  await page.reload();
  await waitStep(page, 9);
  await pageStarted(page);
  assert.deepEqual(await lit(page), ["back-chunk"]);
  await page.locator("#btn-step").click();
  await page.locator('[data-testid="predict-quiz"]').waitFor();
  assert.deepEqual(await lit(page), [], "no line lit while asking");
  await page.locator('[data-testid="predict-skip"]').click();
  await waitStep(page, 10);
  assert.ok((await lit(page)).includes("bar-mark"), "the barrier's lines after answering");
  h.assertNoErrors(page);
});

test("the embed folds the map to one line naming the branch; it unfolds", async () => {
  const page = await h.open("docs/embed.html", { engine: false, ready: false, viewport: { width: 1000, height: 900 } });
  await page.evaluate((src) => { document.getElementById("ex").src = src; }, "../index.html?embed=1#scenario=fatal-upstream-end&step=9");
  const frame = await (await page.locator("#ex").elementHandle()).contentFrame();
  await waitStarted(frame, page);
  await waitStep(frame, 9);
  await settle(frame);
  const fold = frame.locator('[data-testid="codemap-fold"]');
  assert.equal(await fold.isVisible(), true, "one line in the embed");
  assert.equal(await fold.getAttribute("aria-expanded"), "false");
  assert.equal(await frame.locator('[data-testid="codemap-lines"]').isVisible(), false);
  assert.match(await frame.locator('[data-testid="codemap-branch"]').textContent(), /^▶ backfill loop › upstream chunk → compact, buffer$/);
  const hgt = await frame.evaluate(() => document.getElementById("codemap").getBoundingClientRect().height);
  assert.ok(hgt <= 40, `one line: ${hgt}px`);
  assert.deepEqual(await inView(frame, await requiredFor(frame)), [], "the stage's panels stay in view");
  assert.equal(await frame.evaluate(() => document.documentElement.scrollHeight <= innerHeight), true, "one screen");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(frame);
    await h.screenshot(page, `codemap-embed-${scheme}`, { fullPage: false });
  }
  await fold.click();
  assert.equal(await fold.getAttribute("aria-expanded"), "true");
  assert.equal(await frame.locator('[data-testid="codemap-lines"]').isVisible(), true, "it unfolds");
  assert.deepEqual(await lit(frame), ["back-chunk"]);
  // at the failure the failure panel takes its room; the lit line is the fatal exit all the same
  await goto(frame, 10);
  assert.equal(await fold.isVisible(), false);
  assert.match(await frame.locator('[data-testid="codemap-branch"]').textContent(), /backfill loop › upstream ended → error/);
  // (as in stage-embed.test: the failure's lead takes the executor column's third panel's room in
  // 640 px, so the per-vnode progress, which the failure does not change, is a scroll away; the
  // invariant, which it changes, stays in view)
  const atFailure = [...(await requiredFor(frame)).filter((id) => id !== "progress"), "invariant"];
  assert.deepEqual(await inView(frame, atFailure), [], "at the failure the stage's panels stay in view");
  await goto(frame, 9);
  await page.emulateMedia({ colorScheme: "light" });
  await settle(frame);
  await h.screenshot(page, "codemap-embed-open", { fullPage: false });
  h.assertNoErrors(page);
});

test("375×740: off by default; once shown, one line naming the branch, first in the stage", async () => {
  for (const scheme of ["light", "dark"]) {
    const page = await open("#scenario=happy-path&step=10", { viewport: { width: 375, height: 740 }, colorScheme: scheme });
    const fold = page.locator('[data-testid="codemap-fold"]');
    assert.equal(await page.locator('[data-testid="codemap"]').isVisible(), false, "off by default on a phone");
    await page.keyboard.press("c");
    assert.equal(await fold.isVisible(), true, "shown folded on a phone once asked for");
    assert.match(await page.locator('[data-testid="codemap-branch"]').textContent(), /^▶ backfill loop › barrier → 1\. drain every builder \(\+9\)$/);
    assert.equal(await sideways(page), null);
    await page.locator('[data-testid="codemap"]').scrollIntoViewIfNeeded();
    await h.screenshot(page, `codemap-375-${scheme}`, { fullPage: false });
    await fold.click();
    assert.equal(await page.locator('[data-testid="codemap-lines"]').isVisible(), true);
    await page.evaluate(() => window.scrollBy(0, document.getElementById("codemap").getBoundingClientRect().top - 8));
    assert.equal(await sideways(page), null, "unfolded, nothing sideways");
    await h.screenshot(page, `codemap-375-open-${scheme}`, { fullPage: false });
    await page.close();
  }
});

test("the offline file shows the code map from file://", async () => {
  const page = await h.open(fileURL("dist/explainer-offline.html"), { ready: false, viewport: { width: 1280, height: 800 } });
  await page.evaluate(() => window.explainer.ready);
  await page.evaluate(() => { localStorage.setItem("backfill-explainer:codemap", "1"); location.hash = "#scenario=fatal-upstream-end&step=10"; });
  await waitStep(page, 10);
  await page.evaluate(() => document.getElementById("welcome").open && document.getElementById("welcome").close());
  await page.keyboard.press("Escape");
  if (!(await page.locator('[data-testid="codemap"]').isVisible())) {
    await page.locator("#stage").focus();
    await page.keyboard.press("c");
  }
  assert.equal(await page.locator('[data-testid="codemap"]').isVisible(), true);
  assert.deepEqual(await lit(page), ["back-end"]);
  assert.ok(await page.locator('[data-testid="codemap-lines"] > li').count() > 30, "the whole map");
  await h.screenshot(page, "codemap-offline", { fullPage: false });
  h.assertNoErrors(page);
});

test("the speaker window names the step's lit lines", async () => {
  const page = await open("#scenario=happy-path&step=8", { engine: true, viewport: { width: 1280, height: 800 } });
  await page.locator('[data-testid="presenter"]').click();
  const [speaker] = await Promise.all([page.context().waitForEvent("page"), page.locator('[data-testid="speaker-open"]').click()]);
  await speaker.waitForLoadState();
  const at = (n) => speaker.waitForFunction((n) => document.querySelector('[data-testid="speaker-step"]')?.textContent.startsWith(`step ${n} /`), n, { timeout: 10000 });
  await at(8);
  const code = () => speaker.locator('[data-testid="speaker-code"] li').allTextContents();
  assert.deepEqual(await code(), ["▶ backfill loop › upstream watermark → drop  locality_provider.rs:596-598"]);
  await goto(page, 9);
  await at(9);
  assert.deepEqual(await code(), ["▶ backfill loop › upstream chunk → compact, buffer  locality_provider.rs:592-595"]);
  assert.equal(await speaker.locator('[data-testid="speaker-code"] li[aria-current="step"]').count(), 1);
  h.assertNoErrors(page);
});
