// small-items.test.mjs — small things a reader trips on (issue 21): the upstream buffer's
// "1 chunk: held…" never puts its colon at the start of a line nor a gap before it (at 1280×800,
// on a phone, in a 700×640 embed), nor does a glossary term before punctuation (a snapshot
// lane's line, its pos in the legend's words, is node/render-panels.test.mjs's); the #N beside
// an output, a buffered chunk or an upstream message says which step it is (a key in the output
// log's heading, a tooltip and a spoken label on each); without the network (the offline file from
// file://, or the browser offline) the narration says once that its source links need it, and
// every source link's tooltip names the file's path, lines and RisingWave ref to look up.
// The served pages open without the engine (harness holdEngine): they show built-ins' steps,
// stored views; the offline file carries its engine inside and is opened as it is.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, byTestId, waitStep, setupPrivate, call } from "./page-helpers.mjs";
import { fileURL } from "./harness.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const SIZES = [
  ["1280×800", "", { viewport: { width: 1280, height: 800 } }],
  ["375×740", "", { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true }],
  ["700×640 embed", "?embed=1", { viewport: { width: 700, height: 640 } }],
];

/** The steps of a scenario at which the upstream buffer holds exactly `n` chunks. */
async function stepsWithBuffer(page, n) {
  return page.evaluate(async (n) => {
    const found = [];
    const steps = await window.explainer.steps();
    for (let s = 1; s <= steps; s++) {
      const v = await window.explainer.goto(s);
      if ((v.buffer || []).length === n) found.push(s);
    }
    return found;
  }, n);
}

/**
 * How `el`'s text lies on screen: the first character of every line after the first, the last
 * of every line before the last, and each punctuation drawn with a gap before it on its line.
 */
function layout(el) {
  const chars = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    for (let i = 0; i < t.data.length; i++) {
      if (/\s/.test(t.data[i])) { chars.push({ space: true }); continue; }
      const r = document.createRange();
      r.setStart(t, i); r.setEnd(t, i + 1);
      const b = r.getBoundingClientRect();
      if (b.width > 0) chars.push({ c: t.data[i], left: b.left, right: b.right, top: b.top, height: b.height });
    }
  }
  const starts = [];
  const ends = [];
  const gaps = [];
  let prev = null;
  let spaced = false;
  for (const ch of chars) {
    if (ch.space) { spaced = true; continue; }
    if (prev && ch.top > prev.top + prev.height / 2) { starts.push(ch.c); ends.push(prev.c); }
    else if (prev && /[:—,.)]/.test(ch.c) && !spaced && ch.left - prev.right > 1) gaps.push(prev.c + ch.c);
    prev = ch;
    spaced = false;
  }
  return { starts, ends, gaps, text: el.textContent };
}

for (const [name, query, options] of SIZES) {
  test(`${name}: the buffer's "N chunks: held…" never wraps to a line starting with ":", nor spaces the colon off`, async () => {
    const page = await openPage(h, `index.html${query}#scenario=happy-path&step=1`, { ...options, engine: false });
    const one = await stepsWithBuffer(page, 1);
    const two = await stepsWithBuffer(page, 2);
    assert.ok(one.length > 0, "happy-path holds one chunk at some step");
    for (const [n, step] of [[1, one[0]], [2, two[0]]]) {
      if (step === undefined) continue;
      await call(page, "goto", step);
      await waitStep(page, step);
      const meta = byTestId(page, "buffer").locator(".meta");
      await meta.scrollIntoViewIfNeeded();
      const got = await meta.evaluate(layout);
      assert.match(got.text.replace(/\s+/g, " "), new RegExp(`^${n} chunks?: held until`), `step ${step}`);
      assert.deepEqual(got.starts.filter((c) => /[:—,.)]/.test(c)), [], `step ${step}: a line of "${got.text}" starts with punctuation`);
      assert.deepEqual(got.gaps, [], `step ${step}: a gap before the punctuation in "${got.text}"`);
    }
    // the narration and the invariant: a glossary term before a ";" (step 9: "the upstream wins
    // the race; its chunk") or after a "(" ("the backfill has passed (completed vnodes")
    await call(page, "goto", 9);
    await waitStep(page, 9);
    for (const why of await page.locator(".narration .why-text, .inv-text").all()) {
      const got = await why.evaluate(layout);
      assert.deepEqual(got.starts.filter((c) => /[:;,.)]/.test(c)), [], `a line of "${got.text}" starts with punctuation`);
      assert.deepEqual(got.ends.filter((c) => /[([]/.test(c)), [], `a line of "${got.text}" ends with an opening bracket`);
    }
    await h.screenshot(page, `small-buffer-${name.replace(/\D+/g, "x")}`);
    h.assertNoErrors(page);
  });
}

test("the output log's #N are labelled: a key in its heading and, on each, what step it is", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=9", { engine: false, viewport: { width: 1280, height: 800 } });
  const key = byTestId(page, "outputs-step-key");
  assert.equal(await key.textContent(), "#N = step");
  assert.equal(await key.getAttribute("title"), "#N is the step that emitted it");
  assert.ok(await key.isVisible());
  const view = await page.evaluate(() => window.explainer.view());
  const badges = async (id) => byTestId(page, id).locator(".stepno").evaluateAll((bs) => bs.map((b) => ({
    text: b.textContent, title: b.title, label: b.getAttribute("aria-label") })));
  const outs = await badges("outputs");
  assert.equal(outs.length, view.outputs.length);
  outs.forEach((b, i) => assert.deepEqual(b, { text: `#${view.outputs[i].step}`, title: `emitted at step ${view.outputs[i].step}`, label: `emitted at step ${view.outputs[i].step}` }));
  const buf = await badges("buffer");
  assert.deepEqual(buf.map((b) => b.title), view.buffer.map((e) => `arrived at step ${e.arrived_step}`));
  const up = await badges("upstream-next");
  assert.ok(up.length > 0);
  assert.deepEqual(up.map((b) => b.title), view.upstream.next.slice(0, up.length).map((m) => `delivered at step ${m.step}`));
  h.assertNoErrors(page);
});

const TITLE = /^the RisingWave source this paraphrases: src\/stream\/src\/executor\/locality_provider\.rs, lines 479–482, at RisingWave ([0-9a-f]{7}) \(opens GitHub: needs the network\)$/;

/** The narration's source links (href, text, tooltip) and its offline note, if any. */
const sources = (page) => page.evaluate(() => ({
  links: [...document.querySelectorAll(".narration a.src")].map((a) => ({ href: a.href, text: a.textContent, title: a.title })),
  note: document.querySelector('[data-testid="src-offline"]')?.textContent ?? null,
}));

for (const [w, ht] of [[1280, 800], [375, 740]]) {
  test(`the offline file at ${w}×${ht}: the narration says once that source links need the network; each link names its path, lines and ref`, async () => {
    const page = await h.open(fileURL("dist/explainer-offline.html"), { viewport: { width: w, height: ht } });
    const requests = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.evaluate(() => { location.hash = "#scenario=happy-path&step=2"; });
    await waitStep(page, 2);
    const { links, note } = await sources(page);
    assert.equal(links.length, 1);
    assert.equal(links[0].text, "locality_provider.rs L479–482");
    const m = TITLE.exec(links[0].title);
    assert.ok(m, links[0].title);
    assert.ok(links[0].href.includes(`/blob/${m[1]}`), "the ref is the link's");
    assert.equal(note, `Offline: the source links open GitHub and need the network. They cite RisingWave at ${m[1]}; each names its file and lines, and its tooltip the file's path.`);
    assert.ok(await byTestId(page, "src-offline").isVisible());
    await page.keyboard.press("Escape"); // the first-visit card (the file opened with no link)
    await page.evaluate(() => document.querySelector('[data-testid="src-offline"]').scrollIntoView());
    await h.screenshot(page, `small-offline-${w}`);
    assert.deepEqual(requests.filter((u) => !u.startsWith("file:")), [], "nothing is fetched beside the file");
    h.assertNoErrors(page);
  });
}

test("served, the source links say they need the network but no note shows; once the browser is offline, the note does", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2", { engine: false });
  let { links, note } = await sources(page);
  assert.match(links[0].title, TITLE);
  assert.equal(note, null);
  await page.context().setOffline(true);
  await page.evaluate(() => window.explainer.goto(1).then(() => window.explainer.goto(2)));
  await waitStep(page, 2);
  ({ links, note } = await sources(page));
  assert.match(note ?? "", /^Offline: the source links open GitHub and need the network\./);
  await page.context().setOffline(false);
  h.assertNoErrors(page);
});
