// speaker-lesson.test.mjs — the speaker window carries the lesson: the section's notes, the next
// stop (not the script's next step) and at a section's end the next section's title; one clock
// with the lesson bar (the lesson's, over a reload of either window: time injected with
// Playwright's clock); the code line above the fold at 960×720; malformed view messages never
// throw nor show "undefined"; a burst of 2,000 views is drawn a few times, not 2,000.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, byTestId, text, blur, presentWithSpeaker as openSpeaker } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const speakerAt = (speaker, section, step) => speaker.waitForFunction(([section, step]) =>
  (document.querySelector('[data-testid="speaker-section"]')?.textContent || "").startsWith(`Section ${section} of`)
  && document.querySelector('[data-testid="speaker-step"]')?.textContent.startsWith(`step ${step} /`), [section, step], { timeout: 10000 });
const lessonTime = (page) => page.evaluate(() => /lesson (\d+:\d\d)/.exec(document.querySelector('[data-testid="lesson-time"]')?.textContent || "")?.[1]);

test("speaker window: the section's notes, the next stop, the next section's title at a section's end; the code line above the fold at 960×720", async () => {
  const page = await openPage(h, "index.html#lesson=met-this-error&section=2", { viewport: { width: 1280, height: 800 } });
  const plan = await page.evaluate(() => window.explainer.lesson("met-this-error"));
  const s = plan.sections[1];
  await page.waitForFunction((st) => new URLSearchParams(location.hash.slice(1)).get("step") === st, String(s.stops[0]));
  const speaker = await openSpeaker(page);
  await speaker.setViewportSize({ width: 960, height: 720 });
  await speakerAt(speaker, 2, s.stops[0]);
  // the next stop is the section's (11), said as such
  assert.match(await text(speaker, "speaker-next-stop"), new RegExp(`^Step ${s.stops[1]}`));
  await blur(page);
  for (const stop of s.stops.slice(1)) {
    await page.keyboard.press("PageDown");
    await speakerAt(speaker, 2, stop);
  }
  // at the section's last stop: the next section's title, not "the end of the script"
  assert.equal(await text(speaker, "speaker-next-stop"), `The next section: ${plan.sections[2].title}`);
  // section 1 has notes: they are in the speaker window at each of its stops
  await page.evaluate(() => { location.hash = location.hash.replace(/section=\d+/, "section=1"); });
  await speakerAt(speaker, 1, plan.sections[0].stops[0]);
  assert.ok(plan.sections[0].notes.length > 20);
  assert.ok((await text(speaker, "speaker-lesson-notes")).includes(plan.sections[0].notes.replace(/\s+/g, " ").trim().slice(0, 60)));
  // the lit code line is above the fold of a 960×720 window
  await page.keyboard.press("PageDown");
  await speakerAt(speaker, 1, plan.sections[0].stops[1]);
  const code = await byTestId(speaker, "speaker-code").evaluate((e) => {
    const li = e.querySelector("li") || e;
    const r = li.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, text: li.textContent };
  });
  assert.ok(code.bottom <= 720, `the code line at ${Math.round(code.top)}..${Math.round(code.bottom)}: ${code.text}`);
  await h.screenshot(speaker, "speaker-lesson-960x720");
  h.assertNoErrors(page);
  h.assertNoErrors(speaker);
});

test("one clock: the lesson bar's and the speaker window's, the same over a reload of either window", async () => {
  const page = await openPage(h, "index.html#lesson=workshop&section=1", { viewport: { width: 1280, height: 800 } });
  await page.context().clock.install();
  await page.reload();
  await byTestId(page, "lesson-bar").waitFor();
  const speaker = await openSpeaker(page);
  await speakerAt(speaker, 1, 0);
  await page.clock.fastForward(62_000);
  // Both windows read at one frozen instant (the clock paused, their ticks run): the same time.
  const same = async (label) => {
    const t = await speaker.evaluate(() => Date.now());
    await page.clock.pauseAt(t + 1000);
    await page.clock.runFor(2000);
    const bar = await lessonTime(page);
    const sp = await text(speaker, "speaker-elapsed");
    await page.clock.resume();
    assert.equal(sp, bar, `${label}: lesson bar ${bar}, speaker ${sp}`);
    return bar;
  };
  const before = await same("before the reloads");
  assert.match(before, /^1:\d\d$/);
  // reload the explainer window: the lesson's clock goes on
  await page.reload();
  await byTestId(page, "lesson-bar").waitFor();
  await page.waitForFunction(() => /lesson \d+:\d\d/.test(document.querySelector('[data-testid="lesson-time"]')?.textContent || ""));
  await speakerAt(speaker, 1, 0);
  const afterMain = await same("after the explainer window's reload");
  assert.ok(/^1:\d\d$/.test(afterMain) && afterMain >= before, `${before} → ${afterMain}`);
  // reload the speaker window: the same
  await speaker.reload();
  await speakerAt(speaker, 1, 0);
  const afterSpeaker = await same("after the speaker window's reload");
  assert.match(afterSpeaker, /^1:\d\d$/);
  assert.doesNotMatch(await text(speaker, "speaker-plan"), /over/);
  h.assertNoErrors(page);
  h.assertNoErrors(speaker);
});

test("speaker window: malformed view messages never throw nor show undefined; 2,000 views in a burst are drawn a few times", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=3");
  const speaker = await openSpeaker(page);
  const id = new URL(speaker.url()).searchParams.get("id");
  const bad = [
    { type: "view" },
    { type: "view", explanations: 5, actions: "x", code: {} },
    { type: "view", explanations: [null, 3, { text: {} }], actions: [null], code: [null] },
    { type: "view", step: "a", steps: {}, title: { a: 1 }, lesson: { section: "x", of: null } },
    { type: "view", lesson: 7 },
    { type: "view", lesson: { section: 2 }, actions: [{ label: 3 }] },
    { type: "view", title: "ok", step: 1, steps: 2, lesson: [], explanations: [{ kind: 9, text: 9 }] },
  ];
  for (const m of bad) {
    await page.evaluate(([id, m]) => new BroadcastChannel("backfill-explainer:speaker:" + id).postMessage(m), [id, m]);
    await speaker.waitForTimeout(150);
    const body = await speaker.locator("body").innerText();
    assert.doesNotMatch(body, /undefined|NaN|\[object Object\]/, JSON.stringify(m));
  }
  h.assertNoErrors(speaker);
  // a burst: count the redraws of the header
  await speaker.evaluate(() => {
    window.__draws = 0;
    new MutationObserver(() => { window.__draws++; }).observe(document.querySelector(".sp-head"), { childList: true });
  });
  await page.evaluate((id) => {
    const c = new BroadcastChannel("backfill-explainer:speaker:" + id);
    for (let i = 1; i <= 2000; i++) c.postMessage({ type: "view", title: "burst", step: i, steps: 2000, explanations: [], actions: [] });
  }, id);
  await speaker.waitForFunction(() => document.querySelector('[data-testid="speaker-step"]')?.textContent.startsWith("step 2000 /"), null, { timeout: 60000 });
  const draws = await speaker.evaluate(() => window.__draws);
  assert.ok(draws < 200, `${draws} draws for 2,000 views`);
  h.assertNoErrors(speaker);
});
