// lesson.test.mjs — a lesson on the page (lesson-bar.js, lesson-plan.js): a link opens it at a
// section, the bar says which, Next section moves the scenario and the link, PageDown walks a
// section's stops and on over its last one into the next section (PageUp back), in presenter mode
// at 1280×800 and 1920×1080 the whole 45-minute workshop runs by PageDown alone; the printable plan
// has one section per page with its questions and answers. Screenshots (light/dark) as artifacts.
// No assertion reads the clock.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, text, waitStep } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const blur = (page) => page.evaluate(() => document.activeElement?.blur());
async function where(page) {
  return page.evaluate(() => {
    const p = new URLSearchParams(location.hash.slice(1));
    return { scenario: p.get("scenario"), step: p.get("step"), lesson: p.get("lesson"), section: p.get("section") };
  });
}
async function waitWhere(page, want, timeout = 10000) {
  await page.waitForFunction((w) => {
    const p = new URLSearchParams(location.hash.slice(1));
    return Object.entries(w).every(([k, v]) => p.get(k) === v);
  }, want, { timeout });
}

test("a link opens a lesson at its section; Next section moves the scenario and the link", async () => {
  const page = await openPage(h, "index.html#lesson=workshop&section=1");
  await byTestId(page, "lesson-bar").waitFor();
  await waitWhere(page, { scenario: "happy-path", step: "0", lesson: "workshop", section: "1" });
  assert.equal(await text(page, "lesson-count"), "Section 1 of 6");
  assert.equal(await text(page, "lesson-section-title"), "Why buffer");
  assert.match(await text(page, "lesson-goal"), /store its input in its own state table/);
  assert.equal(await byTestId(page, "lesson-prev").isDisabled(), true);
  await byTestId(page, "lesson-next").click();
  await waitWhere(page, { scenario: "builder-fills-mid-epoch", step: "2", section: "2" });
  assert.equal(await text(page, "lesson-count"), "Section 2 of 6");
  await waitStep(page, 2);
  // a link to a later section and a step opens there and keeps the step
  const deep = await openPage(h, "index.html#scenario=fatal-upstream-end&step=9&lesson=workshop&section=4");
  await byTestId(deep, "lesson-bar").waitFor();
  assert.equal(await text(deep, "lesson-count"), "Section 4 of 6");
  await waitWhere(deep, { scenario: "fatal-upstream-end", step: "9", section: "4" });
  h.assertNoErrors(page);
  h.assertNoErrors(deep);
});

test("PageDown walks a section's stops and crosses into the next section; PageUp comes back", async () => {
  const page = await openPage(h, "index.html#lesson=workshop&section=4");
  await waitWhere(page, { scenario: "fatal-upstream-end", step: "5", section: "4" });
  await blur(page);
  // stops 5, 6, 9, 10 …: PageDown jumps from 6 to 9
  await page.keyboard.press("PageDown");
  await waitWhere(page, { step: "6" });
  await page.keyboard.press("PageDown");
  await waitWhere(page, { step: "9" });
  await page.keyboard.press("PageUp");
  await waitWhere(page, { step: "6" });
  for (const s of ["9", "10", "11", "12", "13", "15", "17"]) {
    await page.keyboard.press("PageDown");
    await waitWhere(page, { step: s });
  }
  await page.keyboard.press("PageDown"); // past the last stop: the next section
  await waitWhere(page, { scenario: "rescale-mid-backfill", step: "5", section: "5" });
  assert.equal(await text(page, "lesson-count"), "Section 5 of 6");
  await page.keyboard.press("PageUp"); // before its first stop: the previous section, at its end
  await waitWhere(page, { scenario: "fatal-upstream-end", step: "17", section: "4" });
  h.assertNoErrors(page);
});

// The lesson's stops in order, by section: what PageDown must visit.
async function expectedWalk(page) {
  return page.evaluate(async () => {
    const plan = await window.explainer.lesson("workshop");
    return plan.sections.map((s) => ({ scenario: s.scenario, stops: s.stops, questions: s.questions.filter((q) => q.predict).map((q) => q.at) }));
  });
}

for (const [w, hgt] of [[1280, 800], [1920, 1080]]) {
  test(`the 45-minute workshop runs start to finish by PageDown alone in presenter mode at ${w}x${hgt}`, async () => {
    const page = await openPage(h, "index.html#lesson=workshop&section=1", { viewport: { width: w, height: hgt } });
    await waitWhere(page, { scenario: "happy-path", step: "0", section: "1" });
    await blur(page);
    await page.keyboard.press("p");
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains("presenter")), true);
    await blur(page);
    const walk = await expectedWalk(page);
    let presses = 0;
    for (let i = 0; i < walk.length; i++) {
      const s = walk[i];
      if (i > 0) { await page.keyboard.press("PageDown"); presses++; }
      await waitWhere(page, { scenario: s.scenario, step: String(s.stops[0]), section: String(i + 1) });
      // the bar is on screen, whole, in presenter mode
      const box = await byTestId(page, "lesson-bar").boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= hgt, `section ${i + 1}: the bar is in view`);
      for (const stop of s.stops.slice(1)) {
        await page.keyboard.press("PageDown");
        presses++;
        await waitWhere(page, { step: String(stop) });
      }
      if (i === 0) await h.screenshot(page, `lesson-bar-presenter-${w}`, { fullPage: false });
    }
    // at the very end PageDown does nothing more
    await page.keyboard.press("PageDown");
    await page.waitForTimeout(200);
    assert.deepEqual(await where(page), { scenario: "bug-no-state-write", step: "10", lesson: "workshop", section: "6" });
    assert.ok(presses > 40, `${presses} presses`);
    h.assertNoErrors(page);
  });
}

test("the bar asks the room at a question's step; the plan prints one page per section with answers", async () => {
  for (const scheme of ["light", "dark"]) {
    const page = await openPage(h, "index.html#scenario=happy-path&step=9&lesson=workshop&section=1", { colorScheme: scheme, viewport: { width: 1280, height: 800 } });
    await byTestId(page, "lesson-bar").waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="lesson-ask"]').hidden);
    assert.match(await text(page, "lesson-ask"), /Barrier e4 is next/);
    await h.screenshot(page, `lesson-bar-${scheme}`, { fullPage: false });
    await byTestId(page, "lesson-plan-btn").click();
    const plan = byTestId(page, "lesson-plan");
    await plan.waitFor();
    assert.equal(await byTestId(page, "plan-section").count(), 6);
    const all = await plan.innerText();
    assert.match(all, /Section 1 of 6: Why buffer/);
    assert.match(all, /Hidden: \+ 3 102; \+ 13 202/);
    assert.match(all, /Answer: It is dropped\./);
    await h.screenshot(page, `lesson-plan-${scheme}`, { fullPage: false });
    await page.emulateMedia({ media: "print" });
    const breaks = await page.evaluate(() => [...document.querySelectorAll(".plan-section")].map((s) => getComputedStyle(s).breakBefore));
    assert.deepEqual(breaks, Array(6).fill("page"));
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById("main")).display), "none");
    await h.screenshot(page, `lesson-plan-print-${scheme}`);
    await page.emulateMedia({ media: "screen" });
    await byTestId(page, "lesson-plan-close").click();
    await plan.waitFor({ state: "detached" });
    assert.deepEqual(await h.axe(page), []);
    h.assertNoErrors(page);
  }
});

test("ending the lesson hides the bar and takes it out of the link", async () => {
  const page = await openPage(h, "index.html#lesson=met-this-error&section=2");
  await waitWhere(page, { scenario: "fatal-upstream-end", step: "10", section: "2" });
  assert.equal(await text(page, "lesson-count"), "Section 2 of 4");
  await byTestId(page, "lesson-close").click();
  await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).get("lesson"));
  assert.equal(await byTestId(page, "lesson-bar").isHidden(), true);
  assert.equal((await where(page)).scenario, "fatal-upstream-end");
  h.assertNoErrors(page);
});
