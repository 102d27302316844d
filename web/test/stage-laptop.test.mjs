// stage-laptop.test.mjs — on a laptop (1280×800, 1366×768) the stage wins: a deep link opened in
// a fresh browser (no localStorage) shows, without scrolling and with nothing over them, the next
// upstream messages, the buffer, the builders, the progress, the newest outputs, the narration
// and the step's note, at every step of happy-path that has a note; at the failure step of
// fatal-upstream-end the error shows together with the buffer and builders it left behind. The
// title and summary fold away once stepping starts. Screenshots, light and dark, in
// web/test/artifacts/stage-laptop-*.png; axe finds no serious or critical violation. Every built-in
// at its middle and last step and at each failure, recovery and end passes the same check
// (a step that fails it: screenshot stage-builtin-1280-NAME-WHERE.png). The pages open without the
// engine (harness holdEngine): every call here (scenarios, open, goto, view, steps, a link's
// hash) is a built-in's stored views', and what is checked is the layout of the views they draw.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, waitStep, byTestId, welcomed, call } from "./page-helpers.mjs";
import { inView, requiredFor, settle } from "./stage-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const SIZES = [["1280", { width: 1280, height: 800 }], ["1366", { width: 1366, height: 768 }]];

/** Go to a step the way a link does (the page honours the edited hash). */
async function follow(page, hash, n) {
  await page.evaluate((hash) => { location.hash = hash; }, hash);
  await waitStep(page, n);
  await settle(page);
}

for (const [name, viewport] of SIZES) {
  test(`${name}: a deep link in a fresh browser, and every step of happy-path with a note`, async () => {
    const page = await h.open("index.html#scenario=happy-path&step=10", { viewport, engine: false });
    await waitStep(page, 10);
    await settle(page);
    assert.equal(await page.evaluate(() => document.getElementById("welcome").open), false, "no first-visit card on a deep link");
    assert.equal(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight), true, "the page is one screen");
    assert.deepEqual(await inView(page, await requiredFor(page)), [], `step 10 at ${name}`);
    // Stepping has started: the summary is folded, the title is one line, and About opens it again.
    assert.equal(await byTestId(page, "scenario-summary").isVisible(), false);
    const title = await byTestId(page, "scenario-title").boundingBox();
    assert.ok(title.height < 40, `the title is one line: ${title.height}px`);
    await byTestId(page, "about").click();
    assert.equal(await byTestId(page, "scenario-summary").isVisible(), true, "About shows the summary again");
    await byTestId(page, "about").click();

    const noteSteps = await page.evaluate(async () => {
      const out = [];
      const n = await window.explainer.steps();
      for (let i = 0; i <= n; i++) if ((await window.explainer.goto(i)).note) out.push(i);
      return out;
    });
    assert.ok(noteSteps.length >= 3, `happy-path has notes at ${noteSteps}`);
    const problems = [];
    for (const n of noteSteps) {
      await follow(page, `#scenario=happy-path&step=${n}`, n);
      for (const p of await inView(page, await requiredFor(page))) problems.push(`step ${n}: ${p}`);
    }
    assert.deepEqual(problems, []);

    await follow(page, "#scenario=happy-path&step=10", 10);
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await h.screenshot(page, `stage-laptop-${name}-${scheme}`);
      assert.deepEqual(await h.axe(page), [], `axe at ${name} ${scheme}`);
    }
    h.assertNoErrors(page);
  });
}

test("1280: the failure step of fatal-upstream-end shows the error with the buffer and builders it left", async () => {
  const page = await h.open("index.html#scenario=fatal-upstream-end&step=0", { viewport: { width: 1280, height: 800 }, engine: false });
  await waitStep(page, 0);
  const n = await page.evaluate(async () => (await window.explainer.view()).marks.find((m) => m.kind === "error").step);
  await follow(page, `#scenario=fatal-upstream-end&step=${n}`, n);
  const v = await page.evaluate(() => window.explainer.view());
  assert.ok(v.error && v.buffer.length && v.builders.some((b) => b.rows.length), "the failure leaves a chunk in the buffer and rows in a builder");
  assert.deepEqual(await inView(page, await requiredFor(page)), []);
  assert.equal(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight), true, "the page is one screen");
  // What it left behind in full: every buffered chunk and every builder holding rows.
  const lost = await page.evaluate(() => {
    const clip = (el) => {
      let r = el.getBoundingClientRect();
      for (let a = el.parentElement; a; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowY === "visible") continue;
        const b = a.getBoundingClientRect();
        r = { top: Math.max(r.top, b.top), bottom: Math.min(r.bottom, b.bottom) };
      }
      return r;
    };
    const out = [];
    for (const el of document.querySelectorAll('[data-testid="buffer"] li.msg, [data-testid="builders"] .builder')) {
      const b = el.getBoundingClientRect();
      const v = clip(el);
      if (v.bottom - v.top < b.height - 1 || v.bottom > window.innerHeight) out.push(`${el.className} shows ${Math.round(v.bottom - v.top)} of ${Math.round(b.height)} px`);
    }
    return out;
  });
  assert.deepEqual(lost, [], "each buffered chunk and builder is wholly in view");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `stage-laptop-fatal-1280-${scheme}`);
    assert.deepEqual(await h.axe(page), [], `axe at the failure, ${scheme}`);
  }
  // The failure's details are open in full after the stage: the column scrolls as a whole to
  // them; nothing in them or in the panel scrolls inside itself.
  const more = byTestId(page, "fatal-details");
  assert.equal(await more.isHidden(), false);
  assert.equal(await byTestId(page, "fatal-proven").count(), 1);
  assert.equal(await page.evaluate(() => { const m = document.getElementById("fatal-more"); return m.scrollHeight <= m.clientHeight + 1 && getComputedStyle(m).overflowY === "visible"; }), true);
  await more.scrollIntoViewIfNeeded();
  assert.equal(await byTestId(page, "fatal-proven").isVisible(), true);
  assert.deepEqual(await h.axe(page), [], "axe with the details open");
  h.assertNoErrors(page);
});

test("1280: every built-in at its middle step, its last step and each failure, recovery and end", async () => {
  const page = await h.open("index.html#scenario=happy-path&step=0", { viewport: { width: 1280, height: 800 }, ...welcomed(h), engine: false });
  await waitStep(page, 0);
  const names = (await page.evaluate(() => window.explainer.scenarios())).map((s) => s.name);
  assert.ok(names.length >= 17, `built-ins: ${names}`);
  const problems = [];
  for (const name of names) {
    const v = await page.evaluate((name) => window.explainer.open(name), name);
    const marks = v.marks.filter((m) => m.kind !== "barrier").map((m) => ["at " + m.kind, m.step]);
    for (const [where, n] of [["middle", Math.floor(v.steps / 2)], ["last", v.steps], ...marks]) {
      await call(page, "goto", n);
      await waitStep(page, n);
      await settle(page);
      const had = problems.length;
      for (const p of await inView(page, await requiredFor(page))) problems.push(`${name} step ${n}: ${p}`);
      if (!(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight))) problems.push(`${name} step ${n}: the page scrolls`);
      // (a picture of a step that failed the check; of every middle and last step, it cost ~0.3 s each)
      if (problems.length > had) await h.screenshot(page, `stage-builtin-1280-${name}-${where}`);
    }
  }
  assert.deepEqual(problems, []);
  h.assertNoErrors(page);
});
