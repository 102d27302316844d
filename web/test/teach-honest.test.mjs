// teach-honest.test.mjs — what the page says stays true once a run leaves its script:
// the bug menu points to the built-in that shows each mode best and opens it with that mode on;
// notes written for the scripted run say so after a branch, an injection or under a bug mode
// (on the page and in the saved file); after a failure and a recovery there is always something
// to do next (the engine's actions, in every built-in), and the output log marks the outputs the
// recovery rolled back, in words, not by colour alone.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { openPage, byTestId, waitStep, text, setupPrivate, call, waitView } from "./page-helpers.mjs";

let h;
let page;
before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=happy-path&step=0");
});
after(async () => { await h?.close(); });

test("the bug menu says where each mode is best seen, and opens that built-in with the mode on", async () => {
  const bugs = await page.evaluate(() => window.explainer.bugs());
  const titles = Object.fromEntries((await page.evaluate(() => window.explainer.scenarios())).map((s) => [s.name, s.title]));
  await byTestId(page, "bug-menu").click();
  const best = byTestId(page, "bug-best");
  assert.equal(await best.count(), bugs.length);
  for (let i = 0; i < bugs.length; i++) {
    assert.equal((await best.nth(i).textContent()).replace(/\s+/g, " ").trim(), `best seen in: ${titles[bugs[i].scenario]}`);
  }
  await page.keyboard.press("Escape");
  for (const b of bugs) {
    await call(page, "open", "happy-path");
    await byTestId(page, "bug-menu").click();
    await page.locator(`[data-testid="bug-best-open"][data-scenario="${b.scenario}"]`).click();
    await waitView(page, (v, b) => v.name === b.scenario && v.bug?.name === b.name, b);
    assert.equal(await text(page, "scenario-title"), titles[b.scenario]);
    assert.equal(await byTestId(page, "bug-menu").getAttribute("aria-expanded"), "false");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "stage");
  }
  // Under a mode, in another scenario, the banner says where it is best seen too.
  await page.evaluate(async () => { await window.explainer.open("happy-path"); await window.explainer.bug("mark-on-arrival"); });
  await byTestId(page, "bug-banner").locator('[data-testid="bug-best-open"]').click();
  await waitView(page, (v) => v.name === "bug-mark-on-arrival");
  assert.equal(await byTestId(page, "bug-banner").locator('[data-testid="bug-best"]').count(), 0, "not in the scenario itself");
  h.assertNoErrors(page);
});

/** The note as shown: its caveat (if any) and the whole text. */
const note = () => page.evaluate(() => {
  const n = document.querySelector('[data-testid="note"]');
  return n ? { caveat: n.querySelector('[data-testid="note-caveat"]')?.textContent ?? null, text: n.textContent.replace(/\s+/g, " ").trim() } : null;
});

test("after a branch, the notes kept from the script say they were written for the scripted run; before it they do not", async () => {
  await page.evaluate(async () => { await window.explainer.open("happy-path"); await window.explainer.goto(6); });
  await waitStep(page, 6);
  // the scripted notes from step 7 on, as written
  const scripted = await page.evaluate(async () => {
    const out = {};
    const v = await window.explainer.view();
    for (let n = 7; n <= v.steps; n++) { const w = await window.explainer.goto(n); if (w.note) out[n] = w.note; }
    await window.explainer.goto(6);
    return out;
  });
  assert.ok(Object.keys(scripted).length >= 3, "happy-path has notes after step 6");
  // leave the script: the snapshot delivers first
  await page.locator('[data-testid="actions"] button.action:not(.scripted)').first().click();
  await waitStep(page, 7);
  let shown = 0;
  const last = (await page.evaluate(() => window.explainer.view())).steps;
  for (let n = 8; n <= last; n++) {
    await call(page, "goto", n);
    await waitStep(page, n);
    const nt = await note();
    if (!nt) continue;
    shown++;
    assert.equal(nt.caveat, "(Written for the scripted run; this run left the script at step 7, so it may differ.)", `step ${n}`);
  }
  assert.ok(shown >= 2, `${shown} notes after the branch`);
  for (let n = 1; n <= 6; n++) {
    await call(page, "goto", n);
    await waitStep(page, n);
    const nt = await note();
    if (nt) assert.equal(nt.caveat, null, `step ${n} is before the branch`);
  }
  // The saved file keeps the caveat with those notes, and only with those.
  await byTestId(page, "export-menu").click();
  const [dl] = await Promise.all([page.waitForEvent("download"), byTestId(page, "download-scenario").click()]);
  const file = await readFile(await dl.path(), "utf8");
  const marked = file.split("\n").filter((l) => /note: .*Written for the scripted run; this run left the script at step 7/.test(l));
  assert.equal(marked.length, shown, "every note kept from the script is marked in the file");
  assert.equal(file.split("\n").filter((l) => /note: /.test(l)).length - marked.length,
    Object.keys(await page.evaluate(async () => {
      const out = {};
      await window.explainer.open("happy-path");
      for (let n = 1; n <= 6; n++) { const w = await window.explainer.goto(n); if (w.note) out[n] = 1; }
      return out;
    })).length, "the notes before the branch are as written");
  h.assertNoErrors(page);
});

test("an injected event leaves the script too; under a bug mode every note says it was written without it", async () => {
  await page.evaluate(async () => { await window.explainer.open("happy-path"); await window.explainer.goto(9); });
  await waitStep(page, 9);
  await call(page, "apply", 'chunk: ["+ 5 104"]');
  await waitStep(page, 10);
  let found = false;
  for (let n = 11; n <= (await page.evaluate(() => window.explainer.steps())); n++) {
    await call(page, "goto", n);
    await waitStep(page, n);
    const nt = await note();
    if (nt) { found = true; assert.match(nt.caveat, /left the script at step 10/); }
  }
  assert.ok(found);
  await page.evaluate(async () => { await window.explainer.open("happy-path"); await window.explainer.bug("emit-beyond-pos"); await window.explainer.goto(6); });
  await waitStep(page, 6);
  const nt = await note();
  assert.ok(nt, "step 6 has a note");
  assert.match(nt.caveat, /^\(Written for this scenario without a bug mode; this run, under bug mode emit-beyond-pos, may differ\.\)$/);
  await call(page, "bug", "none");
  h.assertNoErrors(page);
});

test("after an injected end and a recovery the page offers the next barrier, and the log marks what was rolled back", async () => {
  await page.evaluate(async () => { await window.explainer.open("happy-path"); await window.explainer.goto(13); });
  await waitStep(page, 13);
  await call(page, "apply", "end");
  await waitStep(page, 14); // the upstream ended in completion: the stream is over
  await page.locator('[data-testid="actions"] button.act-recover').click();
  await waitStep(page, 15);
  const actions = byTestId(page, "actions");
  assert.doesNotMatch(await actions.textContent(), /nothing can happen next/);
  const barrier = actions.locator("button.action", { hasText: /upstream delivers barrier e\d+/ });
  await barrier.waitFor();
  assert.equal(await barrier.count(), 1);
  // the outputs after the last checkpoint are marked as rolled back, in words
  const v = await page.evaluate(() => window.explainer.view());
  assert.equal(v.rolled_back.length, 1);
  const rolled = page.locator('[data-testid="outputs"] li.rolled-back');
  const { from, to, step } = v.rolled_back[0];
  assert.equal(await rolled.count(), to - from);
  for (const t of await rolled.locator('[data-testid="rolled-back"]').allTextContents()) assert.match(t, new RegExp(`rolled back at step ${step}`));
  assert.equal(await page.locator('[data-testid="outputs"] li:not(.rolled-back) [data-testid="rolled-back"]').count(), 0);
  // the barrier goes on
  await barrier.click();
  await waitStep(page, 16);
  assert.doesNotMatch(await text(page, "phase"), /starting/i);
  assert.doesNotMatch(await actions.textContent(), /nothing can happen next/);
  h.assertNoErrors(page);
});

test("in every built-in, at the end of its script and after a failure and a recovery, something can happen next, unless the recovery dropped the job", async () => {
  const names = (await page.evaluate(() => window.explainer.scenarios())).map((s) => s.name);
  for (const name of names) {
    const where = await page.evaluate(async (name) => {
      const out = [];
      let v = await window.explainer.open(name);
      v = await window.explainer.goto(v.steps);
      out.push(["end", v.actions.length, v.phase]);
      if (v.phase === "failed" || v.phase === "ended") {
        v = await window.explainer.apply("recover");
        out.push(["end, recovered", v.actions.length, v.phase]);
      }
      await window.explainer.goto(Math.min(5, v.steps));
      try { await window.explainer.apply("end"); } catch { return out; }
      v = await window.explainer.apply("recover");
      out.push(["end at 5, recovered", v.actions.length, v.phase]);
      return out;
    }, name);
    // (a job the recovery dropped takes no step: the engine refuses any, and offers none)
    for (const [w, n, phase] of where) assert.ok(phase === "dropped" ? n === 0 : n > 0, `${name}, ${w} (${phase}): ${n} actions`);
    if (where.at(-1)[2] !== "dropped") assert.doesNotMatch(await byTestId(page, "actions").textContent(), /nothing can happen next/, name);
  }
  h.assertNoErrors(page);
});
