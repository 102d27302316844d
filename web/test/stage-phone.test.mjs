// stage-phone.test.mjs — on a phone (375×740, touch) the page is a document: the columns stack,
// the narration and the step controls stick to the bottom, and after each step the page brings
// what the step changed into view (follow.js): the first stage panel marked data-changed="true"
// (after the upstream queue, which changes with every delivery) sits wholly above the sticky
// bottom part, with nothing over it, and the narration is in view. Every control a finger can
// touch is at least 44 px each way; Compare and the explorer open, fit the screen and work.
// Screenshots, light and dark, in web/test/artifacts/stage-phone-*.png.
// The "Changed" strip at the top of the sticky part names every panel the step changed (exactly
// those marked data-changed="true", in stage order; checked in the same walk, at every step); at
// the steps that change the most, each of its 44 px buttons brings its panel into the free part
// of the screen, is marked aria-current, and leaves the keys stepping; the strip adds at most one
// 44 px row to the sticky part and is hidden in the one-screen layout.
// Screenshots in web/test/artifacts/phone-changed-strip-*.png.
// The pages open without the engine (harness holdEngine): stepping, goto, open and view of a
// built-in are its stored views', and what is checked is how the page lays out and follows the
// views they draw; Compare and the explorer are the engine's, and that test's page has it.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, waitStep, welcomed, byTestId } from "./page-helpers.mjs";
import { serveSources } from "./harness.mjs";
import { inView, settle, sideways } from "./stage-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const PHONE = { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true };

/** The panel follow.js brings into view after this step (the data-testid render.js marked in it), or null. */
const followed = async (page) => (await serveSources(page), page.evaluate(async () => {
  const { target, changedPanels } = await import("./__test/web/stage/follow.js"); // (harness.serveSources)
  const { changed } = await window.explainer.view();
  const t = target(changed);
  return t ? changedPanels(changed).find((c) => c.panel === t)?.id ?? null : null;
}));

/**
 * Interactive elements shown on the page smaller than 44 × 44 px (inline text links aside: the
 * glossary's term buttons are words inside a heading or a sentence, the inline targets that the
 * 44 px rule, WCAG 2.5.5, excepts).
 */
const smallTargets = (page) => page.evaluate(() => [...document.querySelectorAll("button, select, input, summary, textarea, [role=button]")]
  .filter((e) => e.getClientRects().length && !e.closest("dialog:not([open])") && !e.closest(".sr-only") && !e.classList.contains("term")
    && getComputedStyle(e).pointerEvents !== "none" && getComputedStyle(e).visibility !== "hidden")
  .map((e) => { const r = e.getBoundingClientRect(); return { what: `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""} "${(e.textContent || e.getAttribute("aria-label") || "").trim().slice(0, 24)}"`, w: Math.round(r.width), h: Math.round(r.height) }; })
  .filter((x) => x.w < 44 || x.h < 44));

/** The strip as shown: the panels its buttons name (data-panel), and which is current. */
const strip = (page) => page.evaluate(() => {
  const nav = document.querySelector('[data-testid="changed-strip"]');
  const chips = [...nav.querySelectorAll('[data-testid="changed-chip"]')];
  return {
    shown: nav.getClientRects().length > 0,
    panels: chips.map((c) => c.dataset.panel),
    current: chips.filter((c) => c.getAttribute("aria-current") === "true").map((c) => c.dataset.panel),
  };
});

/** The stage panels marked data-changed="true" and shown, in the page's order (the failure first). */
const markedPanels = (page) => page.evaluate(() => [...document.querySelectorAll('#fatal[data-changed="true"], #stage [data-changed="true"]')]
  .filter((e) => e.getClientRects().length).map((e) => e.dataset.testid));

/** Height the strip adds to the sticky part: the part measured with it and with it hidden. */
const stripAdds = (page) => page.evaluate(() => {
  const nav = document.querySelector('[data-testid="changed-strip"]');
  const b = document.getElementById("bottom");
  const withIt = b.getBoundingClientRect().height;
  const was = nav.hidden;
  nav.hidden = true;
  const without = b.getBoundingClientRect().height;
  nav.hidden = was;
  return { withIt, without };
});

for (const scenario of ["happy-path", "fatal-upstream-end"]) {
  test(`375×740: each step of ${scenario} brings what it changed into view above the sticky bottom; the Changed strip names every changed panel`, async () => {
    // (happy-path with a smooth scroll, as most readers have it; the page's other tests, this one
    // of fatal-upstream-end too, with the instant one of a reader who asks for less motion: harness.poolable)
    const motion = scenario === "happy-path" ? { reducedMotion: "no-preference" } : {};
    const page = await h.open(`index.html#scenario=${scenario}&step=0`, { ...PHONE, ...welcomed(h), ...motion, engine: false });
    await waitStep(page, 0);
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById("bottom")).position), "sticky");
    const steps = await page.evaluate(() => window.explainer.steps());
    const problems = [];
    let moved = 0;
    let most = { withIt: 0, without: 0 };
    for (let n = 1; n <= steps; n++) {
      const y0 = await page.evaluate(() => scrollY);
      await page.locator("#btn-step").tap();
      await waitStep(page, n);
      await settle(page);
      const id = await followed(page);
      const stageChanged = await page.evaluate(() => [...document.querySelectorAll('#stage [data-changed="true"], #fatal[data-changed="true"]')].length);
      if (stageChanged && !id) problems.push(`step ${n}: a panel changed but none is followed`);
      if (id) for (const p of await inView(page, [id], { bottomCover: "#bottom" })) problems.push(`step ${n}: ${p}`);
      for (const p of await inView(page, ["narration"])) problems.push(`step ${n}: ${p}`);
      if (await page.evaluate(() => scrollY) !== y0) moved++;
      if (await sideways(page)) problems.push(`step ${n}: ${await sideways(page)}`);
      // the Changed strip: exactly the changed panels, in stage order, the followed one current;
      // at most one 44 px row more in the sticky part, each button 44 px tall (its buttons are
      // tapped at a few steps: the strip's test below)
      problems.push(...(await stripAt(page, id)).map((p) => `step ${n}: ${p}`));
      const m = await stripAdds(page);
      if (m.withIt > most.withIt) most = m;
    }
    assert.deepEqual(problems, []);
    assert.ok(moved >= steps / 3, `the page followed the steps (it scrolled at ${moved} of ${steps})`);
    console.log(`# ${scenario}: sticky part at most ${most.withIt.toFixed(1)} px with the strip, ${most.without.toFixed(1)} px without it (of 740)`);
    h.assertNoErrors(page);
  });
}

test("375×740: touch targets are at least 44 px; screenshots mid-backfill and at the failure", async () => {
  const page = await h.open("index.html#scenario=happy-path&step=10", { ...PHONE, ...welcomed(h), engine: false });
  await waitStep(page, 10);
  await settle(page);
  assert.deepEqual(await smallTargets(page), [], "at step 10 of happy-path");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `stage-phone-375-${scheme}`, { fullPage: false });
  }
  await page.evaluate(async () => { await window.explainer.open("fatal-upstream-end"); await window.explainer.goto(10); });
  await waitStep(page, 10);
  await settle(page);
  assert.deepEqual(await inView(page, ["fatal"], { bottomCover: "#bottom" }), [], "the failure is brought into view");
  assert.deepEqual(await smallTargets(page), [], "at the failure");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `stage-phone-375-fatal-${scheme}`, { fullPage: false });
  }
  h.assertNoErrors(page);
});

/** The dialog fits the screen, the page does not scroll sideways, and its own tap targets are 44 px. */
async function fits(page, testid) {
  const box = await byTestId(page, testid).boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375.5, `${testid} fits the width: ${JSON.stringify(box)}`);
  assert.ok(box.y >= 0 && box.y + box.height <= 740.5, `${testid} fits the height: ${JSON.stringify(box)}`);
  assert.equal(await sideways(page), null);
  const small = (await smallTargets(page)).filter((x) => !/^input#explore-bound|^input.*checkbox/.test(x.what));
  assert.deepEqual(small, [], `${testid}: touch targets`);
}

test("375×740: Compare and the explorer are usable", async () => {
  const page = await h.open("index.html#scenario=bug-mark-before-drain&step=0", { ...PHONE, ...welcomed(h) });
  await waitStep(page, 0);
  // Compare, from the bug banner: the two runs, one at a time behind two toggles.
  await byTestId(page, "bug-banner").getByRole("button", { name: "Compare with the correct run" }).tap();
  const cmp = byTestId(page, "compare");
  await byTestId(page, "compare-stages").waitFor();
  await page.waitForFunction(() => /^step 0 \/ \d+$/.test(document.querySelector('[data-testid="compare-step"]')?.textContent || ""));
  await fits(page, "compare");
  const shown = await cmp.evaluate((d) => ["left", "right"].map((s) => d.querySelector(`[data-testid="compare-${s}"]`).checkVisibility()));
  assert.deepEqual(shown, [true, false], "one run at a time");
  assert.ok(await cmp.locator(".cmp-step-btn").count() >= 1, "the differing steps are listed");
  await h.screenshot(page, "stage-phone-375-compare", { fullPage: false });
  await cmp.getByRole("button", { name: "Close" }).first().tap();
  await cmp.waitFor({ state: "hidden" });

  // The explorer, from the header: run it, read the outcomes, open one as a comparison.
  await byTestId(page, "explore-btn").tap();
  const ex = byTestId(page, "explorer");
  await ex.waitFor();
  await byTestId(page, "explore-run").tap();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 60000 });
  await fits(page, "explorer");
  assert.ok(await byTestId(page, "explore-outcome").count() >= 2, "outcomes listed");
  await byTestId(page, "explore-outcome").first().scrollIntoViewIfNeeded();
  assert.equal(await byTestId(page, "explore-outcome").first().isVisible(), true);
  await h.screenshot(page, "stage-phone-375-explorer", { fullPage: false });
  h.assertNoErrors(page);
});

/**
 * Is the panel holding data-testid `id` in the free part of the screen (above the sticky part)?
 * Wholly, when it is not taller than that part; otherwise from its top (heading and first item,
 * stage-helpers' inView). And document.elementFromPoint at the middle of its visible part hits it.
 */
const inFreePart = (page, id) => page.evaluate((id) => {
  const el = document.querySelector(`[data-testid="${id}"]`);
  const panel = el.closest(".panel") || el;
  const free = document.getElementById("bottom").getBoundingClientRect().top;
  const r = panel.getBoundingClientRect();
  const problems = [];
  const fits = r.height <= free - 8;
  if (fits && (r.top < -0.5 || r.bottom > free + 0.5)) problems.push(`${id}: panel [${Math.round(r.top)} → ${Math.round(r.bottom)}] is not wholly above the sticky part (top ${Math.round(free)})`);
  if (!fits && (r.top < -0.5 || r.top > 16)) problems.push(`${id}: a panel taller (${Math.round(r.height)} px) than the free part (${Math.round(free)} px) should start at the top, not at ${Math.round(r.top)}`);
  const y = (Math.max(r.top, 0) + Math.min(r.bottom, free)) / 2;
  const at = document.elementFromPoint(r.left + r.width / 2, y);
  if (!at || !panel.contains(at)) problems.push(`${id}: at (${Math.round(r.left + r.width / 2)},${Math.round(y)}) the screen shows ${at ? at.tagName.toLowerCase() + (at.id ? "#" + at.id : "") : "nothing"}, not the panel`);
  return problems;
}, id);

/** What is wrong with the strip at this step (followedId: the panel follow.js brings into view). */
async function stripAt(page, followedId) {
  const problems = [];
  const marked = await markedPanels(page);
  const s = await strip(page);
  if (s.shown !== marked.length > 0) problems.push(`strip ${s.shown ? "shown" : "hidden"} with ${marked.length} changed panels`);
  if (JSON.stringify(s.panels) !== JSON.stringify(marked)) problems.push(`strip lists ${s.panels} but the changed panels are ${marked}`);
  if (followedId && JSON.stringify(s.current) !== JSON.stringify([followedId])) problems.push(`${followedId} is followed but the strip marks ${s.current}`);
  if (s.shown) {
    const m = await stripAdds(page);
    if (m.withIt - m.without > 44.5) problems.push(`the strip adds ${m.withIt - m.without} px to the sticky part`);
    for (const b of await page.locator('[data-testid="changed-chip"]').evaluateAll((bs) => bs.map((x) => x.getBoundingClientRect().height))) {
      if (b < 44) problems.push(`a strip button is ${b} px tall`);
    }
  }
  return problems;
}

// At these steps of each scenario every button of the strip is tapped: the steps that change the
// most panels (barriers: builders, buffer, progress, outputs, downstream …) and the failure.
const TAP_AT = { "happy-path": [10, 12], "fatal-upstream-end": [10, 11, 15] };

for (const scenario of ["happy-path", "fatal-upstream-end"]) {
  test(`375×740: ${scenario}: at the steps that change the most, each Changed strip button brings its panel into view`, async () => {
    // (each tap step reached from the step before it by one tap of Step, as a reader stepping
    // there has it; the strip at every step: the walk above)
    const first = TAP_AT[scenario][0];
    const page = await h.open(`index.html#scenario=${scenario}&step=${first - 1}`, { ...PHONE, ...welcomed(h), engine: false });
    await waitStep(page, first - 1);
    const problems = [];
    let tapped = 0;
    for (const n of TAP_AT[scenario]) {
      if (n !== first) {
        await page.evaluate((n) => window.explainer.goto(n), n - 1);
        await waitStep(page, n - 1);
      }
      await page.locator("#btn-step").tap();
      await waitStep(page, n);
      await settle(page);
      const marked = await markedPanels(page);
      problems.push(...(await stripAt(page, await followed(page))).map((p) => `step ${n}: ${p}`));
      if (marked.length < 3) problems.push(`step ${n}: only ${marked.length} panels changed (expected a step that changes several)`);
      // Tap them last to first, so each tap must scroll (the first ones are at the top of the page);
      // then again, each with its panel peeking out above the sticky part (covered below it).
      const peek = (id) => page.evaluate((id) => {
        const panel = document.querySelector(`[data-testid="${id}"]`).closest(".panel") || document.querySelector(`[data-testid="${id}"]`);
        window.scrollBy({ top: panel.getBoundingClientRect().top - (document.getElementById("bottom").getBoundingClientRect().top - 40), behavior: "instant" });
      }, id);
      for (const [id, before] of [...[...marked].reverse().map((id) => [id, null]), ...marked.map((id) => [id, peek])]) {
        if (before) await before(id);
        await page.locator(`[data-testid="changed-chip"][data-panel="${id}"]`).tap();
        await settle(page);
        tapped++;
        for (const p of await inFreePart(page, id)) problems.push(`step ${n}, after tapping ${id}: ${p}`);
        for (const p of await inView(page, [id], { bottomCover: "#bottom" })) problems.push(`step ${n}, after tapping ${id}: ${p}`);
        const after = await strip(page);
        if (JSON.stringify(after.current) !== JSON.stringify([id])) problems.push(`step ${n}: after tapping ${id} the strip marks ${after.current}`);
        if (JSON.stringify(after.panels) !== JSON.stringify(marked)) problems.push(`step ${n}: after tapping ${id} the strip lists ${after.panels}`);
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(tapped >= 20, `tapped ${tapped} buttons`);
    h.assertNoErrors(page);
  });
}

test("375×740: the Changed strip is reachable by Tab and leaves the keys stepping; hidden at 1280×800; screenshots", async () => {
  const page = await h.open("index.html#scenario=happy-path&step=9", { ...PHONE, ...welcomed(h), engine: false });
  await waitStep(page, 9);
  await page.locator("#btn-step").tap();
  await waitStep(page, 10);
  await settle(page);
  // Tab from the last panel of the stage reaches the strip (the first thing in the sticky part).
  await page.locator("#invariant").focus();
  let reached = null;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.dataset?.testid === "changed-chip" ? document.activeElement.dataset.panel : null);
  }
  assert.equal(reached, "upstream-next", "Tab reaches the strip's first button");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  const id = await page.evaluate(() => document.activeElement.dataset.panel);
  assert.equal(id, "buffer");
  await page.keyboard.press("Enter");
  await settle(page);
  assert.deepEqual(await inFreePart(page, id), [], "Enter brings the panel into view");
  assert.deepEqual((await strip(page)).current, [id]);
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 11);
  await page.keyboard.press("ArrowLeft");
  await waitStep(page, 10);
  await page.keyboard.press(" ");
  assert.equal(await page.locator("#btn-play").getAttribute("aria-pressed"), "true", "Space plays after a strip button was used");
  await page.keyboard.press(" ");
  assert.equal(await page.locator("#btn-play").getAttribute("aria-pressed"), "false", "Space pauses");
  await page.evaluate(async () => { await window.explainer.goto(10); });
  await waitStep(page, 10);
  await settle(page);
  await page.locator('[data-testid="changed-chip"][data-panel="builders"]').tap();
  await settle(page);
  assert.deepEqual(await smallTargets(page), [], "touch targets with the strip");
  const chipBoxes = await page.locator('[data-testid="changed-chip"]').evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect()).map((r) => ({ w: r.width, h: r.height })));
  assert.ok(chipBoxes.length >= 5 && chipBoxes.every((b) => b.w >= 44 && b.h >= 44), `strip buttons: ${JSON.stringify(chipBoxes)}`);
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `phone-changed-strip-${scheme}`, { fullPage: false });
  }
  h.assertNoErrors(page);

  const wide = await h.open("index.html#scenario=happy-path&step=10", { viewport: { width: 1280, height: 800 }, ...welcomed(h), engine: false });
  await waitStep(wide, 10);
  const w = await wide.evaluate(() => ({
    changed: document.querySelectorAll('#stage [data-changed="true"]').length,
    shown: document.querySelector('[data-testid="changed-strip"]').getClientRects().length,
  }));
  assert.ok(w.changed >= 3, `panels changed at step 10: ${w.changed}`);
  assert.equal(w.shown, 0, "the strip is hidden in the one-screen layout");
  h.assertNoErrors(wide);
});
