// teach-compare.test.mjs — compare lays two runs side by side as two stages (the main stage's
// panels, drawn by its render modules), stepping together: bug-mark-before-drain with its bug mode
// turned off (as RisingWave does it) against the same script under mark-before-drain. The engine
// says what differs; the page marks those panels ≠ and "Jump to the first difference" lands on
// the first step it lists (8, the barrier e3). The two stages fill the screen's width at 1280,
// 1366 and 1920 (and in presenter mode) with nothing behind a horizontal scrollbar; at 375 they
// are one at a time behind two toggles. No raw identifier (not_started, …) reaches the text.
// Screenshots: web/test/artifacts/teach-compare-*.png.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, waitStep, waitView } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

// What the page must never print: the engine's identifiers, the JSON's keys.
const BANNED = ["not_started", "in_progress", "NotStarted", "InProgress", "upstream_next", "upstream_content", "state_table",
  "progress_table", "only_left", "only_right", "outputs_differ", "progress_differs", "downstream_differs", "changed_vnodes",
  "undefined", "null", "NaN", "[object Object]"];

async function compareFromMenu(page) {
  // The scenario turns mark-before-drain on; the menu turns it off…
  await byTestId(page, "bug-menu").click();
  await page.locator('.popover input[data-bug="none"]').check();
  await waitView(page, (v) => v.bug === null);
  await byTestId(page, "bug-banner").waitFor({ state: "hidden" });
  // …and "Compare with bug mode…" compares this correct run with the bug mode.
  await byTestId(page, "bug-menu").click();
  await byTestId(page, "compare-bug-btn").click();
  const dialog = byTestId(page, "compare");
  await dialog.waitFor();
  await byTestId(page, "compare-stages").waitFor();
  await page.waitForFunction(() => /^step \d+ \/ \d+$/.test(document.querySelector('[data-testid="compare-step"]')?.textContent || ""));
  assert.equal(await byTestId(page, "compare-bug-select").inputValue(), "mark-before-drain");
  return dialog;
}

async function compareFromBanner(page) {
  await byTestId(page, "bug-banner").getByRole("button", { name: "Compare with the correct run" }).click();
  await byTestId(page, "compare-stages").waitFor();
  return byTestId(page, "compare");
}

const compareStep = async (page, n) => page.waitForFunction((n) => document.querySelector('[data-testid="compare-step"]')?.textContent === `step ${n} / 10`, n);

/** Per side: the panels marked ≠ (by their data-part) and what the side's heading says. */
async function marks(page) {
  return page.evaluate(() => Object.fromEntries(["left", "right"].map((side) => {
    const sec = document.querySelector(`[data-testid="compare-${side}"]`);
    return [side, {
      differs: [...sec.querySelectorAll(".panel[data-differs]")].map((p) => p.querySelector("[data-part]").dataset.part).sort(),
      badges: sec.querySelectorAll(".panel[data-differs] .diff-badge").length,
      where: sec.querySelector(".cmp-side-step").textContent,
      label: sec.querySelector(".cmp-side-label").textContent,
    }];
  })));
}

async function assertPlainWords(dialog) {
  const t = await dialog.evaluate((el) => el.innerText);
  for (const w of BANNED) assert.ok(!new RegExp(`\\b${w.replace(/[[\]]/g, "\\$&")}\\b`).test(t), `the compare text holds ${JSON.stringify(w)}`);
  // (the narration may name RisingWave's functions and files: the controls and stages may not)
  const stagesText = await dialog.evaluate((el) => { const c = el.cloneNode(true); for (const n of c.querySelectorAll(".cmp-narr")) n.remove(); return c.textContent; });
  assert.doesNotMatch(stagesText, /\b[a-z]+_[a-z_]+\b/, "no snake_case identifier in the compare text");
}

test("compare: two stages at the open step; jump to the first difference lands on step 8, marked ≠", async () => {
  const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=3");
  const dialog = await compareFromMenu(page);
  await compareStep(page, 3);
  // Both stages hold the main stage's panels, drawn for each run.
  for (const side of ["left", "right"]) {
    const sec = byTestId(page, `compare-${side}`);
    for (const part of ["upstream-next", "snapshot", "buffer", "builders", "progress", "state-table", "progress-table", "outputs", "downstream", "invariant"]) {
      assert.equal(await sec.locator(`[data-part="${part}"]`).count(), 1, `${side}: ${part}`);
    }
    assert.match(await sec.locator('[data-part="progress"]').textContent(), /not started|in progress|finished/);
  }
  let m = await marks(page);
  assert.match(m.left.label, /as RisingWave does it/);
  assert.match(m.right.label, /bug mode mark-before-drain/);
  assert.deepEqual(m.left.differs, [], "the runs agree at step 3");
  assert.equal(m.left.where, "step 3 of 10");
  assert.match(await byTestId(page, "compare-summary").textContent(), /first at step 8/);
  // The main stage keeps its own test ids: the copies have none.
  assert.equal(await page.locator('[data-testid="progress"]').count(), 1);

  // Jump to the first difference: step 8, where outputs, downstream and the invariant differ.
  await byTestId(page, "compare-first-diff").click();
  await compareStep(page, 8);
  m = await marks(page);
  // the panels the engine names (compare's differ list), each marked on both stages
  const engine = await page.evaluate(async () => (await window.explainer.compare({ bug: "none" }, { bug: "mark-before-drain" })).differ[0]);
  assert.equal(engine.step, 8);
  const named = engine.panels.map((k) => k.replaceAll("_", "-")).sort();
  assert.ok(named.includes("outputs") && named.includes("downstream"), named.join());
  assert.deepEqual(m.left.differs, named);
  assert.deepEqual(m.right.differs, named);
  assert.equal(m.left.badges, named.length);
  assert.equal(m.right.where, "step 8 of 10");
  const here = (await byTestId(page, "compare-here").textContent()).replace(/\s+/g, " ");
  assert.match(here, /At step 8 the runs differ in: .*Output log.*Downstream/);
  // (2,150) is only on the left, and marked there.
  const only = await byTestId(page, "compare-left").locator('[data-part="downstream"] .chip.changed').evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label")));
  assert.deepEqual(only, ["(2,150)"]);
  assert.equal(await byTestId(page, "compare-right").locator('[data-part="downstream"] .chip.changed').count(), 0);
  assert.match(await byTestId(page, "compare-right").locator('[data-part="invariant"]').textContent(), /violated/i);
  assert.match(await byTestId(page, "compare-left").locator('[data-part="invariant"]').textContent(), /holds/i);
  // The badge is visible text, not colour alone.
  assert.equal(await byTestId(page, "compare-left").locator(".diff-badge").first().isVisible(), true);
  await assertPlainWords(dialog);

  // By keyboard: ← steps both back, n goes to the next difference, Home and f jump again.
  await byTestId(page, "compare-here").click();
  await page.keyboard.press("ArrowLeft");
  await compareStep(page, 7);
  assert.deepEqual((await marks(page)).left.differs, []);
  await page.keyboard.press("n");
  await compareStep(page, 8);
  await page.keyboard.press("Home");
  await compareStep(page, 0);
  await page.keyboard.press("f");
  await compareStep(page, 8);
  await byTestId(page, "compare-first-diff").focus();
  await page.keyboard.press("End");
  await compareStep(page, 10);
  await assertPlainWords(dialog);
  assert.deepEqual(await h.axe(page, { include: '[data-testid="compare"]' }), []);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await waitStep(page, 3);
  h.assertNoErrors(page);
});

// The two stages fill the screen: the dialog ≥ 90% of the viewport's width, each stage half of
// it, nothing wider than its box, no page-wide horizontal scroll.
for (const [name, vp, opts] of [
  ["1280", { width: 1280, height: 800 }, {}],
  ["1366", { width: 1366, height: 768 }, {}],
  ["1920", { width: 1920, height: 1080 }, {}],
  ["1920-dark", { width: 1920, height: 1080 }, { colorScheme: "dark" }],
  ["presenter-1920", { width: 1920, height: 1080 }, { presenter: true }],
]) {
  test(`compare at ${name}: the two stages fill the width, nothing behind a scrollbar`, async () => {
    const { presenter, ...ctx } = opts;
    const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=8", { viewport: vp, ...ctx });
    if (presenter) {
      await byTestId(page, "presenter").click();
      await page.waitForFunction(() => document.documentElement.classList.contains("presenter"));
    }
    // (presenter mode hides the top bar: the bug banner opens compare there)
    const dialog = presenter ? await compareFromBanner(page) : await compareFromMenu(page);
    await compareStep(page, 8);
    await h.screenshot(page, `teach-compare-${name}`, { fullPage: false });
    const m = await page.evaluate(() => {
      const r = (sel) => document.querySelector(sel).getBoundingClientRect();
      const over = [...document.querySelectorAll('[data-testid="compare"] *')].filter((el) => {
        const s = getComputedStyle(el);
        return el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(s.overflowX) && el.clientWidth > 0;
      }).map((el) => el.className || el.tagName);
      return {
        dialog: r('[data-testid="compare"]').width, stages: r('[data-testid="compare-stages"]').width,
        left: r('[data-testid="compare-left"]'), right: r('[data-testid="compare-right"]'),
        page: document.documentElement.scrollWidth, over,
      };
    });
    assert.ok(m.dialog >= 0.9 * vp.width, `dialog ${m.dialog} of ${vp.width}`);
    assert.ok(m.stages >= 0.9 * vp.width - 40, `stages ${m.stages} of ${vp.width}`);
    assert.ok(m.left.width >= 0.42 * vp.width && m.right.width >= 0.42 * vp.width, `sides ${m.left.width}, ${m.right.width}`);
    assert.ok(m.left.right <= m.right.left, "side by side");
    assert.equal(Math.round(m.left.top), Math.round(m.right.top), "at the same height");
    assert.ok(m.left.bottom <= vp.height, `the stages end on the screen (${m.left.bottom})`);
    assert.deepEqual(m.over, [], "nothing scrolls sideways");
    assert.ok(m.page <= vp.width, `no page-wide horizontal scroll (${m.page})`);
    // The first difference is in view without scrolling: the marked panels are on the screen.
    for (const side of ["left", "right"]) {
      const b = await byTestId(page, `compare-${side}`).locator(".panel[data-differs]").first().boundingBox();
      assert.ok(b && b.y + 10 < vp.height && b.x + b.width <= vp.width, `${side}: a marked panel is on the screen`);
    }
    await assertPlainWords(dialog);
    h.assertNoErrors(page);
  });
}

test("compare at 375 px: one run at a time behind two toggles, nothing sideways", async () => {
  for (const [name, opts] of [["light", {}], ["dark", { colorScheme: "dark" }]]) {
    const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=8", { viewport: { width: 375, height: 740 }, ...opts });
    const dialog = await compareFromMenu(page);
    await compareStep(page, 8);
    const visible = async () => ({ left: await byTestId(page, "compare-left").isVisible(), right: await byTestId(page, "compare-right").isVisible() });
    assert.deepEqual(await visible(), { left: true, right: false });
    await dialog.getByRole("button", { name: /bug mode mark-before-drain/ }).click();
    assert.deepEqual(await visible(), { left: false, right: true });
    assert.equal(await dialog.getByRole("button", { name: /bug mode mark-before-drain/ }).getAttribute("aria-pressed"), "true");
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= 375), true, "no page-wide horizontal scroll");
    const w = await dialog.evaluate((el) => ({ w: el.getBoundingClientRect().width, sw: el.scrollWidth, cw: el.clientWidth }));
    assert.ok(w.w <= 375 && w.sw <= w.cw + 1, `dialog ${JSON.stringify(w)}`);
    await assertPlainWords(dialog);
    await h.screenshot(page, `teach-compare-375-${name}`, { fullPage: false });
    h.assertNoErrors(page);
    await page.close(); // (its context serves the next: harness.mjs)
  }
});

test("compare from the bug banner: the bug run against the correct one", async () => {
  const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=10");
  await compareFromBanner(page);
  await compareStep(page, 10);
  // Now the open run (left) is the bug mode: (2,150) is only on the right.
  const m = await marks(page);
  assert.match(m.left.label, /bug mode mark-before-drain/);
  assert.match(m.right.label, /as RisingWave does it/);
  assert.deepEqual(await byTestId(page, "compare-right").locator('[data-part="downstream"] .chip.changed').evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label"))), ["(2,150)"]);
  await page.keyboard.press("Escape");
  await byTestId(page, "compare").waitFor({ state: "hidden" });
  await waitStep(page, 10);
  h.assertNoErrors(page);
});

// Two releases: fatal-upstream-end under v3.0 (the open run) against v3.1, from the release menu.
// The first difference is the upstream's end (step 10): v3.1 fails there, v3.0 ends silently.
for (const [name, vp] of [["1280", { width: 1280, height: 800 }], ["1920", { width: 1920, height: 1080 }]]) {
  test(`compare two releases at ${name}: v3.0 against v3.1, the first difference at the upstream's end`, async () => {
    const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=3&release=v3.0", { viewport: vp });
    const engine = await page.evaluate(() => window.explainer.compare({ release: "v3.0" }, { release: "v3.1" }));
    assert.equal(engine.left, "v3.0");
    assert.equal(engine.right, "v3.1");
    assert.equal(engine.differ[0].step, 10);
    await byTestId(page, "release-menu").click();
    await byTestId(page, "compare-release-btn").click();
    const dialog = byTestId(page, "compare");
    await byTestId(page, "compare-stages").waitFor();
    assert.equal(await byTestId(page, "compare-release-select").inputValue(), "v3.1", "the default release, against a run under another");
    assert.equal(await byTestId(page, "compare-kind-select").inputValue(), "release");
    const steps = engine.steps;
    const at = (n) => page.waitForFunction((t) => document.querySelector('[data-testid="compare-step"]')?.textContent === t, `step ${n} / ${steps}`);
    await at(3);
    let m = await marks(page);
    assert.match(m.left.label, /v3\.0$/);
    assert.match(m.right.label, /v3\.1$/);
    assert.match(await byTestId(page, "compare-summary").textContent(), /first at step 10/);
    await byTestId(page, "compare-first-diff").click();
    await at(10);
    m = await marks(page);
    assert.deepEqual(m.left.differs, engine.differ[0].panels.filter((p) => !["phase", "epoch", "fatal"].includes(p)).map((p) => p.replaceAll("_", "-")).sort());
    const here = (await byTestId(page, "compare-here").textContent()).replace(/\s+/g, " ");
    assert.match(here, /At step 10 the runs differ in: phase, .*failure/);
    const phases = await page.evaluate(() => ["left", "right"].map((side) => document.querySelector(`[data-testid="compare-${side}"] .cmp-side-head .phase`).textContent));
    assert.deepEqual(phases, ["phase: ENDED", "phase: FAILED"], "each side's head names its phase");
    assert.match(await byTestId(page, "compare-right").textContent(), /upstream ended unexpectedly during backfill/);
    assert.doesNotMatch(await byTestId(page, "compare-left").locator(".stage, .cmp-stage").first().textContent(), /upstream ended unexpectedly during backfill/);
    await assertPlainWords(dialog);
    await h.screenshot(page, `teach-compare-releases-${name}`, { fullPage: false });
    // the stages fit side by side, the marked panels on the screen
    const box = await page.evaluate(() => ({ l: document.querySelector('[data-testid="compare-left"]').getBoundingClientRect().toJSON(),
      r: document.querySelector('[data-testid="compare-right"]').getBoundingClientRect().toJSON(), page: document.documentElement.scrollWidth }));
    assert.ok(box.l.right <= box.r.left && box.page <= vp.width, JSON.stringify(box));
    if (name === "1280") {
      // the other kind of run: a bug mode, then back to a release
      await byTestId(page, "compare-kind-select").selectOption("bug");
      await byTestId(page, "compare-bug-select").waitFor();
      await byTestId(page, "compare-kind-select").selectOption("release");
      await byTestId(page, "compare-release-select").selectOption("v2.7");
      await page.waitForFunction(() => /v2\.7$/.test(document.querySelector('[data-testid="compare-right"] .cmp-side-label')?.textContent || ""));
      assert.deepEqual(await h.axe(page, { include: '[data-testid="compare"]' }), []);
    }
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await waitStep(page, 3);
    assert.equal((await page.evaluate(() => window.explainer.view())).release, "v3.0", "the open run keeps its release");
    h.assertNoErrors(page);
  });
}
