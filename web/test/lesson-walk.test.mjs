// lesson-walk.test.mjs — the lesson's "done when": the 45-minute built-in workshop runs start to
// finish with a clicker alone (PageDown, and PageUp back over every section's start) in presenter
// mode at 1280×800 and 1920×1080, with the speaker window open and following it; at every step of
// every section each panel the step changed is whole on screen (fit-check.mjs, presenter-fit's
// check: inside the viewport and its column, uncovered, its body whole, the title not cut) and
// the lesson bar is whole on screen too. One page (and one speaker window) per viewport.
// Screenshots: web/test/artifacts/lesson-walk-*.png (a section's first step, light and dark).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, byTestId, blur } from "./page-helpers.mjs";
import { problemsHere } from "./fit-check.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

async function waitWhere(page, want, timeout = 10000) {
  await page.waitForFunction((w) => {
    const p = new URLSearchParams(location.hash.slice(1));
    return Object.entries(w).every(([k, v]) => p.get(k) === v);
  }, want, { timeout });
}

/** In the page: the lesson bar's box inside the viewport, and none of its lines cut. */
function barProblems() {
  const bar = document.querySelector('[data-testid="lesson-bar"]');
  const r = bar.getBoundingClientRect();
  const bad = [];
  if (bar.hidden || r.height === 0) return ["the lesson bar is hidden"];
  if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) bad.push(`lesson bar ${Math.round(r.top)}..${Math.round(r.bottom)} is not inside the viewport`);
  for (const el of bar.querySelectorAll(".lesson-goal, .lesson-ask:not([hidden]), .lesson-section, .lesson-count")) {
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) bad.push(`lesson bar: ${el.className} is cut`);
  }
  return bad;
}

const speakerAt = (speaker, section, of, step) => speaker.waitForFunction(([section, of, step]) =>
  document.querySelector('[data-testid="speaker-section"]')?.textContent === `Section ${section} of ${of}`
  && document.querySelector('[data-testid="speaker-step"]')?.textContent.startsWith(`step ${step} /`), [section, of, step], { timeout: 10000 });

for (const [w, hgt] of [[1280, 800], [1920, 1080]]) {
  test(`the 45-minute workshop by the clicker alone in presenter mode at ${w}×${hgt}, the speaker window following, every changed panel whole`, async () => {
    const page = await openPage(h, "index.html#lesson=workshop&section=1", { viewport: { width: w, height: hgt } });
    await waitWhere(page, { scenario: "happy-path", step: "0", section: "1" });
    const plan = await page.evaluate(() => window.explainer.lesson("workshop"));
    assert.equal(plan.minutes, 45);
    // presenter mode, and the speaker window (the trainer's laptop)
    await byTestId(page, "presenter").click();
    const [speaker] = await Promise.all([page.context().waitForEvent("page"), byTestId(page, "speaker-open").click()]);
    await speaker.waitForLoadState();
    await speakerAt(speaker, 1, plan.sections.length, 0);
    await blur(page);

    const problems = [];
    const check = async (label) => {
      for (const p of await page.evaluate(problemsHere)) problems.push(`${label}: ${p}`);
      for (const p of await page.evaluate(barProblems)) problems.push(`${label}: ${p}`);
    };
    const press = async (key, want) => {
      await page.keyboard.press(key);
      await waitWhere(page, want);
    };
    let presses = 0;
    for (let i = 0; i < plan.sections.length; i++) {
      const s = plan.sections[i];
      const release = s.release && s.release !== "v3.1" ? s.release : null;
      const first = { scenario: s.scenario, step: String(s.stops[0]), section: String(i + 1) };
      if (i > 0) {
        await press("PageDown", first); // over the last stop: this section, at its first stop
        // PageUp at a section's first stop: the previous one, at its last stop; PageDown again
        const prev = plan.sections[i - 1];
        await press("PageUp", { scenario: prev.scenario, step: String(prev.stops.at(-1)), section: String(i) });
        await press("PageDown", first);
        presses += 3;
      }
      const v = await page.evaluate(async () => ({ release: (await window.explainer.view()).release }));
      assert.equal(v.release, s.release || "v3.1", `section ${i + 1} plays its release`);
      assert.equal(await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("release")), release, `section ${i + 1}: the link's release`);
      await speakerAt(speaker, i + 1, plan.sections.length, s.stops[0]);
      await check(`section ${i + 1} step ${s.stops[0]}`);
      if (i === 0 || i === 4) {
        for (const scheme of ["light", "dark"]) {
          await page.emulateMedia({ colorScheme: scheme });
          await h.screenshot(page, `lesson-walk-${w}-section${i + 1}-${scheme}`, { fullPage: false });
        }
        await page.emulateMedia({ colorScheme: "light" });
      }
      for (const stop of s.stops.slice(1)) {
        await press("PageDown", { step: String(stop), section: String(i + 1) });
        presses++;
        await speakerAt(speaker, i + 1, plan.sections.length, stop);
        await check(`section ${i + 1} step ${stop}`);
      }
    }
    // at the very end PageDown does nothing more
    const last = plan.sections.at(-1);
    await page.keyboard.press("PageDown");
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await waitWhere(page, { scenario: last.scenario, step: String(last.stops.at(-1)), section: String(plan.sections.length) });
    assert.deepEqual(problems, []);
    assert.ok(presses > 40, `${presses} presses`);
    await h.screenshot(speaker, `lesson-walk-${w}-speaker`);
    h.assertNoErrors(page);
    h.assertNoErrors(speaker);
  });
}
