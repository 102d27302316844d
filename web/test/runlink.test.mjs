// runlink.test.mjs — a link reproduces a run that left its script (a snapshot delivered first,
// an injected chunk) and a scenario loaded from text: the URL carries the run (`run=`), and
// opening the link in a fresh page gives the same step, the same panels and the same state().

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, waitStep, panelTexts, PANELS, welcomed } from "./page-helpers.mjs";
import { serveSources } from "./harness.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

async function sameRun(page) {
  // wait until the URL carries the current run (its encoding lands a moment after the change)
  await serveSources(page); // run-link.js, from the repository (the site holds the bundle)
  await page.evaluate(async () => {
    const { decodeRun } = await import(new URL("__test/web/session/run-link.js", document.baseURI).href);
    for (let i = 0; i < 200; i++) {
      const m = /[#&]run=([^&]+)/.exec(location.hash);
      if (m && await decodeRun(m[1]) === (await window.explainer.export()).scenario) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the URL never carried the current run");
  });
  const href = await page.evaluate(() => location.href);
  const state = await page.evaluate(() => window.explainer.state());
  const panels = await panelTexts(page, PANELS);
  const again = await openPage(h, href.slice(href.indexOf("index.html")));
  await waitStep(again, state.step);
  assert.deepEqual(await again.evaluate(() => window.explainer.state()), state, "the link reproduces the run");
  assert.deepEqual(await panelTexts(again, PANELS), panels, "and what a person sees");
  h.assertNoErrors(again);
  return href;
}

test("a branched run travels in the URL", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=6");
  assert.doesNotMatch(await page.evaluate(() => location.hash), /run=/, "an unbranched built-in is a scenario= link");
  await page.evaluate(async () => {
    await window.explainer.apply("snapshot: 1");             // the snapshot first: a branch
    await window.explainer.apply('chunk: ["+ 5 104"]');      // an injected chunk
    await window.explainer.step();
  });
  await waitStep(page, 9);
  const href = await sameRun(page);
  assert.doesNotMatch(href, /scenario=/);
  h.assertNoErrors(page);
});

test("a scenario loaded from text travels in the URL, and a damaged link says so", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  await page.evaluate(async () => {
    await window.explainer.load(`title: pasted <b>here</b>
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, rule: ranges, bounds: [10]}
steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - barrier: {epoch: 2, start_backfill: [1]}
  - snapshot: 1
`);
    await window.explainer.goto(3);
  });
  await waitStep(page, 3);
  await sameRun(page);

  const broken = await h.open("index.html#run=not-a-real-code&step=2", welcomed(h));
  await broken.waitForFunction(() => /damaged/.test(document.body.textContent || ""), null, { timeout: 10000 });
});
