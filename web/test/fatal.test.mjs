// fatal.test.mjs — the fatal path on the real page: fatal-upstream-end fails with the exact error
// text, the fatal panel shows the engine's explanation of it (the view's `failure`: meaning,
// what the source proves with its links, the inferred causes apart, what is left behind, what a
// recovery does) and nothing else, and Recover (the button, or the r key) rolls back to the last
// checkpoint; the backfill then resumes and the invariant holds at the end. (The panel drawn
// from every failing view, a panic's included, without a browser: node/render-fatal.test.mjs.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, openAt, text, waitStep, stepCount, byTestId, setupPrivate } from "./page-helpers.mjs";

const ERROR = "locality provider upstream ended unexpectedly during backfill";

let h;
let shared; // the first test's page, reused (each page costs an engine start)
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

/** Step with the Step button until the fatal panel shows; returns the failing step. */
async function stepUntilFatal(page) {
  const fatal = byTestId(page, "fatal");
  const { steps } = await stepCount(page);
  for (let n = 1; n <= steps; n++) {
    assert.equal(await fatal.isVisible(), false, `the fatal panel shows before step ${n}`);
    await page.getByRole("button", { name: /^Step forward/ }).click();
    await waitStep(page, n);
    if (await fatal.isVisible()) return n;
  }
  throw new Error("the fatal panel never showed");
}

const squash = (s) => String(s ?? "").replace(/\s+/g, " ").trim();

/** The fatal panel shows exactly the view's failure: each part in its place, links included. */
async function checkFailurePanel(page) {
  const f = (await page.evaluate(() => window.explainer.view())).failure;
  assert.ok(f, "the view explains the failure");
  const shown = await page.evaluate(() => {
    const part = (id) => document.querySelector(`[data-testid="${id}"]`);
    const items = (id) => [...part(id).querySelectorAll("li")].map((li) => ({
      text: li.firstChild.textContent, link: li.querySelector("a.src")?.getAttribute("href") ?? null,
      label: li.querySelector("a.src")?.textContent ?? null,
    }));
    return {
      meaning: part("fatal-meaning").textContent, proven: items("fatal-proven"), inferred: items("fatal-inferred"),
      left: part("fatal-left").querySelector("p").textContent, recovery: part("fatal-recovery").querySelector("p").textContent,
    };
  });
  assert.equal(shown.meaning, f.meaning);
  assert.deepEqual(shown.proven.map((p) => squash(p.text)), f.proven.map((c) => squash(c.text)));
  assert.deepEqual(shown.proven.map((p) => p.link), f.proven.map((c) => c.url));
  assert.deepEqual(shown.proven.map((p) => p.label), f.proven.map((c) => `${c.file.split("/").pop()} L${c.lines[0]}–${c.lines[1]}`));
  assert.deepEqual(shown.inferred.map((p) => squash(p.text)), f.inferred.map(squash), "the inferred causes, apart");
  assert.ok(shown.inferred.every((p) => p.link === null), "an inference cites no lines");
  assert.equal(shown.left, f.left_behind);
  assert.equal(shown.recovery, f.recovery);
  return f;
}

async function checkFatal(page, n) {
  assert.match(await text(page, "phase"), /failed/i);
  assert.equal(await text(page, "fatal-message"), ERROR);
  const panel = await text(page, "fatal");
  assert.ok(panel.includes(`The executor failed at step ${n}`), panel);
  const f = await checkFailurePanel(page);
  assert.equal(f.kind, "upstream-ended");
  assert.match(panel, /locality_provider\.rs L599–604/);
  assert.match(panel, /Never emitted: 1 row in the builders \(vnode 1\) and 1 chunk in the upstream buffer \(2 rows\)/);
  // The narration says it too, and the timeline marks the error.
  assert.ok((await text(page, "narration")).includes(ERROR));
  assert.equal(await page.locator(`#marks .mk-error[data-step="${n}"]`).count(), 1);
  // What is left behind is never emitted: the buffered chunk is still there.
  assert.match(await text(page, "buffer"), /-\(1,100,x\) ?\+\(13,202,x\)/);
  const recover = byTestId(page, "recover");
  assert.equal(await recover.isEnabled(), true);
  assert.match(await recover.textContent(), /recover/i);
}

async function checkRecovered(page, n) {
  await waitStep(page, n + 1);
  assert.match(await text(page, "phase"), /starting/i);
  await byTestId(page, "fatal").waitFor({ state: "hidden" });
  const rec = await page.locator('[data-testid="outputs"] li.msg-recovery').allTextContents();
  assert.equal(rec.length, 1, `recovery entries: ${JSON.stringify(rec)}`);
  assert.match(rec[0], /⟲ recovery ?rolled back to checkpoint e3/);
  assert.match(await text(page, "downstream"), /^\(1,100,x\) ?\(2,101,x\)$/, "downstream rolled back to e3");
  // Then to the end: the backfill resumes, completes, and the invariant holds.
  await page.getByRole("button", { name: /^Last step/ }).click();
  const { steps } = await stepCount(page);
  await waitStep(page, steps);
  assert.match(await text(page, "phase"), /forwarding/i);
  assert.match(await text(page, "invariant"), /invariant holds/);
  assert.equal(await byTestId(page, "fatal").isVisible(), false);
}

test("fatal-upstream-end: the exact error, explained; the Recover button recovers", async () => {
  const page = shared = await openPage(h, "index.html#scenario=fatal-upstream-end&step=0");
  const n = await stepUntilFatal(page);
  assert.equal(n, 10);
  await checkFatal(page, n);
  await h.screenshot(page, "fatal-panel-1280");
  // The executor's header shows the actor's state, its sentence from the view.
  const actor = byTestId(page, "actor-state");
  assert.equal(squash(await actor.textContent()), "· actor failed");
  assert.equal(await actor.getAttribute("title"), (await page.evaluate(() => window.explainer.view())).actor.text);
  // The only thing that can happen next is a recovery.
  const kinds = await page.locator('[data-testid="actions"] button').evaluateAll((bs) => bs.map((b) => b.dataset.kind));
  assert.deepEqual(kinds, ["recover"]);
  await byTestId(page, "recover").click();
  await checkRecovered(page, n);
  h.assertNoErrors(page);
});

test("fatal-upstream-end: the r key recovers too", async () => {
  const page = shared ?? await openPage(h, "index.html#scenario=fatal-upstream-end&step=9");
  await openAt(page, "fatal-upstream-end", 9);
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 10);
  await checkFatal(page, 10);
  await page.keyboard.press("r");
  await checkRecovered(page, 10);
  h.assertNoErrors(page);
});
