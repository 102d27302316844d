// teach-speaker.test.mjs — the speaker window's tools beyond the notes (teach-presenter.test.mjs
// has those): choosing what happens next (a branch) from the speaker window, by key and by
// button; the note of the step coming next; the clock (time injected: Playwright's clock), and
// the lesson's planned time when the explainer window sends one.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, text, waitStep, call, presentWithSpeaker as openSpeaker } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const speakerStep = (speaker, n) => speaker.waitForFunction((n) =>
  document.querySelector('[data-testid="speaker-step"]')?.textContent.startsWith(`step ${n} /`), n, { timeout: 10000 });
const collapse = (s) => String(s).replace(/\s+/g, " ").trim();

/** The first step of happy-path where more than one thing can happen next. */
async function firstChoice(page) {
  return page.evaluate(async () => {
    const x = window.explainer;
    for (let n = 0; ; n++) {
      const v = await x.goto(n);
      if (v.actions.length > 1) return n;
      if (n >= v.steps) return -1;
    }
  });
}

test("speaker window: a choice of what happens next, by key 2 and by its button, branches the explainer window", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  const n = await firstChoice(page);
  assert.ok(n >= 0, "happy-path has a step with a choice");
  await call(page, "goto", n);
  await waitStep(page, n);
  const speaker = await openSpeaker(page);
  await speakerStep(speaker, n);
  const view = await page.evaluate(() => window.explainer.view());
  const buttons = byTestId(speaker, "speaker-action");
  assert.equal(await buttons.count(), view.actions.length, "one button per action");
  for (let i = 0; i < view.actions.length; i++) {
    assert.equal(collapse(await buttons.nth(i).textContent()), collapse(`${i + 1} ${view.actions[i].label}`));
    assert.equal(await buttons.nth(i).getAttribute("aria-keyshortcuts"), String(i + 1));
  }
  assert.equal(view.actions[0].scripted, true);
  assert.equal(view.actions[1].scripted, false);
  assert.match(await text(speaker, "speaker-next"), /choose \(1–\d\)/);
  await h.screenshot(speaker, "teach-speaker-choice");

  // Key 2 in the speaker window: the explainer window applies the second action (a branch).
  await speaker.keyboard.press("2");
  await waitStep(page, n + 1);
  const after = await page.evaluate(() => window.explainer.view());
  assert.equal(after.branched, true, "the run left its script");
  await speakerStep(speaker, n + 1);

  // Back, and the second action's button does the same.
  await page.evaluate((n) => window.explainer.open("happy-path").then(() => window.explainer.goto(n)), n);
  await speakerStep(speaker, n);
  await buttons.nth(1).click();
  await waitStep(page, n + 1);
  assert.equal((await page.evaluate(() => window.explainer.view())).branched, true);
  // Key 1 follows the script.
  await page.evaluate((n) => window.explainer.open("happy-path").then(() => window.explainer.goto(n)), n);
  await speakerStep(speaker, n);
  await speaker.keyboard.press("1");
  await waitStep(page, n + 1);
  assert.equal((await page.evaluate(() => window.explainer.view())).branched, false, "1 is the scripted step");
  assert.deepEqual(await h.axe(speaker), []);
  h.assertNoErrors(page);
  h.assertNoErrors(speaker);
});

test("speaker window: the next step's note, from the view's next_note", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  // every step's note and next_note, read before the speaker window opens (one view a step)
  const views = await page.evaluate(async () => {
    const out = [];
    for (let n = 0, steps = 0; n <= steps; n++) {
      const v = await window.explainer.goto(n);
      steps = v.steps;
      out.push({ note: v.note, next_note: v.next_note });
    }
    await window.explainer.goto(0);
    return out;
  });
  const steps = views.length - 1;
  for (let n = 0; n < steps; n++) assert.equal(collapse(views[n].next_note), collapse(views[n + 1].note), `step ${n}: next_note is step ${n + 1}'s note`);
  await waitStep(page, 0);
  const speaker = await openSpeaker(page);
  let shown = 0;
  for (let n = 0; n <= steps; n++) {
    await call(page, "goto", n);
    await speakerStep(speaker, n);
    const t = await text(speaker, "speaker-next-note");
    const v = views[n];
    if (v.next_note) { assert.ok(t.includes(collapse(v.next_note)), `step ${n}: ${t}`); shown++; }
    else assert.match(t, n >= steps ? /end of the script/ : /has no note/);
  }
  assert.ok(shown > 0, "happy-path has notes");
  h.assertNoErrors(speaker);
});

test("speaker window: a clock of the time since it started, and the lesson's plan when one is open", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=1");
  await page.context().clock.install();
  const speaker = await openSpeaker(page);
  await speaker.clock.pauseAt(Date.now() + 3_600_000); // the clock stops: time moves only when told
  await byTestId(speaker, "speaker-clock-restart").click();
  assert.equal(await text(speaker, "speaker-elapsed"), "0:00");
  await speaker.clock.runFor(5 * 60_000 + 7_000);
  assert.equal(await text(speaker, "speaker-elapsed"), "5:07");
  assert.equal(await text(speaker, "speaker-plan"), "", "no lesson: no plan");

  // The explainer window opens a lesson (the lesson bar's seam: a window event, or presenter.setLesson).
  await page.evaluate(() => window.dispatchEvent(new CustomEvent("explainer:lesson", { detail: { section: 2, of: 5, planned_minutes: 45, title: "Marking" } })));
  await speaker.waitForFunction(() => /45:00/.test(document.querySelector('[data-testid="speaker-plan"]')?.textContent || ""));
  assert.equal(await text(speaker, "speaker-plan"), "of 45:00 planned (39:53 left) · lesson “Marking”, section 2 of 5");
  await h.screenshot(speaker, "teach-speaker-clock");
  await speaker.clock.runFor(41 * 60_000);
  assert.equal(await text(speaker, "speaker-elapsed"), "46:07");
  assert.match(await text(speaker, "speaker-left"), /^\(1:07 over\)$/);
  assert.equal(await byTestId(speaker, "speaker-clock").evaluate((e) => e.classList.contains("over")), true);
  await speaker.clock.runFor(60 * 60_000);
  assert.equal(await text(speaker, "speaker-elapsed"), "1:46:07");
  // The lesson closes: the plan goes.
  await page.evaluate(() => window.dispatchEvent(new CustomEvent("explainer:lesson", { detail: null })));
  await speaker.waitForFunction(() => document.querySelector('[data-testid="speaker-plan"]')?.textContent === "");
  h.assertNoErrors(speaker);
});

test("speaker window: it follows the lesson: section n of m, its planned time, its goal, the question at this step and its answer", async () => {
  const page = await openPage(h, "index.html#lesson=workshop&section=1", { viewport: { width: 1280, height: 800 } });
  await byTestId(page, "lesson-bar").waitFor();
  await waitStep(page, 0);
  const speaker = await openSpeaker(page);
  const section = byTestId(speaker, "speaker-lesson-section");
  await speaker.waitForFunction(() => document.querySelector('[data-testid="speaker-section"]')?.textContent === "Section 1 of 7");
  assert.match(collapse(await section.innerText()), /^LESSON · The locality provider's backfill: a 45-minute workshop Section 1 of 7: Why buffer · stop 1 of \d+ 7 min planned/);
  assert.equal(collapse(await text(speaker, "speaker-section-time")), "7 min planned (minute 0 to 7 of 45)");
  assert.match(await text(speaker, "speaker-goal"), /store its input in its own state table/);
  assert.equal(await byTestId(speaker, "speaker-ask").count(), 0, "no question at step 0");
  assert.match(await text(speaker, "speaker-plan"), /of 7:00 planned .* section 1 of 7/);

  // the explainer window's clicker goes to step 2, where the room is asked a question
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("PageDown");
  await page.keyboard.press("PageDown");
  await speakerStep(speaker, 2);
  await byTestId(speaker, "speaker-ask").waitFor();
  assert.match(await text(speaker, "speaker-ask"), /At step 2 a chunk arrives/);
  assert.match(await text(speaker, "speaker-answer"), /Every owned vnode is not started/);
  // a predict question's answer: the rows as the engine marks them
  await call(page, "goto", 9);
  await speakerStep(speaker, 9);
  await speaker.waitForFunction(() => /Barrier e4 is next/.test(document.querySelector('[data-testid="speaker-ask"]')?.textContent || ""));
  assert.equal(collapse(await text(speaker, "speaker-answer")), "Answer Visible: none. Hidden: +(3,102); +(13,202).");
  await h.screenshot(speaker, "teach-speaker-lesson");

  // a section change (the bar's Next section): the speaker window follows, with its release
  for (let n = 2; n <= 5; n++) await byTestId(page, "lesson-next").click();
  await speaker.waitForFunction(() => document.querySelector('[data-testid="speaker-section"]')?.textContent === "Section 5 of 7");
  assert.match(collapse(await section.innerText()), /Section 5 of 7: What each release does: an upstream end under v3\.0 · stop 1 of \d+ as v3\.0 3 min planned/);
  assert.equal(await text(speaker, "speaker-release"), "as v3.0");
  assert.equal(collapse(await text(speaker, "speaker-section-time")), "3 min planned (minute 31 to 34 of 45)");
  await speakerStep(speaker, 9);
  assert.match(await text(speaker, "speaker-ask"), /What does v3\.0 do\?/);
  assert.match(await text(speaker, "speaker-plan"), /of 34:00 planned/);
  // the speaker window's PageDown moves the explainer window (and the lesson) too
  await speaker.keyboard.press("PageDown");
  await waitStep(page, 10);
  await speakerStep(speaker, 10);
  assert.match(await text(speaker, "speaker-ask"), /Why is there a recovery all the same, and what happens to the job\?/);

  // the lesson ends: the speaker window shows no section and no plan
  await byTestId(page, "lesson-close").click();
  await speaker.waitForFunction(() => document.querySelector('[data-testid="speaker-lesson-section"]')?.hidden === true);
  assert.equal(await text(speaker, "speaker-plan"), "");
  assert.deepEqual(await h.axe(speaker), []);
  h.assertNoErrors(page);
  h.assertNoErrors(speaker);
});
