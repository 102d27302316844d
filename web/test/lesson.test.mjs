// lesson.test.mjs — a lesson on the page (lesson-bar.js, lesson-plan.js): a link opens it at a
// section, the bar says which, Next section moves the scenario and the link, PageDown walks a
// section's stops and on over its last one into the next section (PageUp back), a section with a
// release opens under it (the picker and the link follow); the printable plan has one section per
// page with its questions and answers. Screenshots (light/dark) as artifacts. The whole workshop
// by the clicker in presenter mode: lesson-walk.test.mjs.
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
    return { scenario: p.get("scenario"), step: p.get("step"), release: p.get("release"), lesson: p.get("lesson"), section: p.get("section") };
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
  assert.equal(await text(page, "lesson-count"), "Section 1 of 7");
  assert.equal(await text(page, "lesson-section-title"), "Why buffer");
  assert.match(await text(page, "lesson-goal"), /store its input in its own state table/);
  assert.equal(await byTestId(page, "lesson-prev").isDisabled(), true);
  await byTestId(page, "lesson-next").click();
  await waitWhere(page, { scenario: "builder-fills-mid-epoch", step: "2", section: "2" });
  assert.equal(await text(page, "lesson-count"), "Section 2 of 7");
  await waitStep(page, 2);
  // a link to a later section and a step opens there and keeps the step
  const deep = await openPage(h, "index.html#scenario=fatal-upstream-end&step=9&lesson=workshop&section=4");
  await byTestId(deep, "lesson-bar").waitFor();
  assert.equal(await text(deep, "lesson-count"), "Section 4 of 7");
  await waitWhere(deep, { scenario: "fatal-upstream-end", step: "9", section: "4" });
  // and a link to a section under its release keeps the step
  const rel = await openPage(h, "index.html#scenario=fatal-upstream-end&step=10&release=v3.0&lesson=workshop&section=5");
  await byTestId(rel, "lesson-bar").waitFor();
  assert.equal(await text(rel, "lesson-count"), "Section 5 of 7");
  await waitWhere(rel, { scenario: "fatal-upstream-end", step: "10", release: "v3.0", section: "5" });
  assert.equal(await rel.evaluate(() => document.querySelector('[data-testid="lesson-bar"]').classList.contains("off-scenario")), false);
  h.assertNoErrors(page);
  h.assertNoErrors(deep);
  h.assertNoErrors(rel);
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
  await page.keyboard.press("PageDown"); // past the last stop: the next section, under its release
  await waitWhere(page, { scenario: "fatal-upstream-end", step: "9", release: "v3.0", section: "5" });
  assert.equal(await text(page, "lesson-count"), "Section 5 of 7");
  assert.equal(await text(page, "lesson-release"), "as v3.0");
  assert.equal(await text(page, "release-value"), "v3.0", "the release picker shows the section's release");
  await page.keyboard.press("PageDown");
  await waitWhere(page, { step: "10", release: "v3.0" });
  let v = await page.evaluate(() => window.explainer.view());
  assert.equal(v.release, "v3.0");
  assert.equal(v.phase, "ended", "v3.0: the upstream's end is a silent end");
  assert.equal(v.error, null);
  await page.keyboard.press("PageDown");
  await waitWhere(page, { step: "11", release: "v3.0" });
  await page.keyboard.press("PageDown"); // section 6: the same end under v3.1, at its step 9 then 10
  await waitWhere(page, { scenario: "fatal-upstream-end", step: "9", section: "6" });
  assert.equal((await where(page)).release, null, "v3.1 is the default: the link names no release");
  assert.equal(await text(page, "lesson-release"), "as v3.1");
  await page.keyboard.press("PageDown");
  await waitWhere(page, { step: "10", section: "6" });
  v = await page.evaluate(() => window.explainer.view());
  assert.equal(v.phase, "failed");
  assert.match(v.error.message, /upstream ended unexpectedly during backfill/);
  for (const [step, section, release] of [["9", "6", null], ["11", "5", "v3.0"], ["10", "5", "v3.0"], ["9", "5", "v3.0"], ["17", "4", null]]) {
    await page.keyboard.press("PageUp"); // back through them: before a first stop, the previous section at its end
    await waitWhere(page, { scenario: "fatal-upstream-end", step, section });
    assert.equal((await where(page)).release, release, `step ${step} of section ${section}`);
  }
  h.assertNoErrors(page);
});

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
    assert.equal(await byTestId(page, "plan-section").count(), 7);
    const all = await plan.innerText();
    assert.match(all, /Section 1 of 7: Why buffer/);
    assert.match(all, /Hidden: \+\(3,102\); \+\(13,202\)/);
    assert.match(all, /Answer: It is dropped\./);
    assert.match(all, /fatal-upstream-end \(The upstream ends during backfill \(a silent end\)\) · steps 9 to 11, one at a time · release v3\.0/);
    await h.screenshot(page, `lesson-plan-${scheme}`, { fullPage: false });
    await page.emulateMedia({ media: "print" });
    const breaks = await page.evaluate(() => [...document.querySelectorAll(".plan-section")].map((s) => getComputedStyle(s).breakBefore));
    assert.deepEqual(breaks, Array(7).fill("page"));
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
