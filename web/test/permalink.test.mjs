// permalink.test.mjs — state lives in the URL: a link reproduces the view; ?embed=1 shows only
// the stage and the step controls; a parent page drives an embedded explainer with postMessage,
// hears explainer:state after every change, explainer:error for a request that is malformed or
// fails (with the request), and explainer:resize whenever the content height changes.
// Links to built-ins' steps open without the engine (harness holdEngine: stored views); an unknown
// scenario (the engine's error) and the postMessage test, whose bad requests the engine answers, have it.

import { test, before, after } from "node:test";
import { createServer } from "node:http";
import assert from "node:assert/strict";
import { openPage, welcomed, text, waitStep, panelTexts, PANELS, byTestId, setupPrivate } from "./page-helpers.mjs";
import { waitStarted } from "./harness.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

test("a link to step 12 reopens the same step with the same panels", async () => {
  const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=0", { engine: false });
  // Get to step 12 as a person would: End, then the timeline slider, then one step back.
  await page.getByRole("button", { name: /^Last step/ }).click();
  const last = Number((await text(page, "step-count")).split("/")[1]);
  await waitStep(page, last);
  await page.getByLabel("Timeline: go to step").fill("13");
  await waitStep(page, 13);
  await page.getByRole("button", { name: /^Back one step/ }).click();
  await waitStep(page, 12);
  const href = await page.evaluate(() => location.href);
  assert.match(href, /#scenario=fatal-upstream-end&step=12$/);
  const before = await panelTexts(page, PANELS);
  assert.equal(before["step-count"], `step 12 / ${last}`);

  const again = await openPage(h, href, { engine: false });
  assert.equal(await again.evaluate(() => location.href), href);
  const after = await panelTexts(again, PANELS);
  assert.deepEqual(after, before);
  assert.equal(await again.locator('[data-testid="scenario-picker"]').inputValue(), "fatal-upstream-end");
  // Editing the address (a hash change) moves the page too.
  await again.evaluate(() => { location.hash = "#scenario=happy-path&step=4"; });
  await waitStep(again, 4);
  assert.match(await text(again, "scenario-title"), /happy path/);
  assert.equal(await text(again, "step-count"), "step 4 / 18");
  h.assertNoErrors(page);
  h.assertNoErrors(again);
});

test("a deep link in a fresh browser opens straight onto its step: no other step is drawn on the way, no card", async () => {
  // A new page with no localStorage (a first visit) that records every "step N / M" the page
  // ever shows, and every scenario title, from the first paint on.
  const page = await h.open("about:blank", { engine: false, ready: false, viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => {
    window.__shown = [];
    const record = () => {
      const c = document.querySelector('[data-testid="step-count"]')?.textContent.trim();
      const t = document.querySelector('[data-testid="scenario-title"]')?.textContent.trim();
      const last = window.__shown.at(-1);
      if (c && (!last || last.c !== c || last.t !== t)) window.__shown.push({ c, t });
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(new URL("index.html#scenario=fatal-upstream-end&step=12", h.url).href);
  await waitStep(page, 12);
  await page.waitForTimeout(300);
  const shown = await page.evaluate(() => window.__shown);
  const drawn = shown.filter((x) => x.c !== "step 0 / 0").map((x) => x.c);
  assert.deepEqual([...new Set(drawn)], ["step 12 / 19"], `the counter read ${JSON.stringify(shown)}`);
  assert.ok(shown.filter((x) => x.c !== "step 0 / 0").every((x) => /upstream ends during backfill/i.test(x.t)), `titles: ${JSON.stringify(shown)}`);
  assert.equal(await page.evaluate(() => document.getElementById("welcome").open), false, "no first-visit card on a deep link");
  assert.match(await page.evaluate(() => location.hash), /^#scenario=fatal-upstream-end&step=12$/);
});

test("a link to an unknown scenario says so, and falls back to happy-path", async () => {
  const page = await h.open("index.html#scenario=no-such-lesson&step=3", welcomed(h));
  await waitStep(page, 0);
  assert.match(await text(page, "scenario-title"), /happy path/);
  // The reader must be told why they are not looking at what the link named.
  const toast = byTestId(page, "toast");
  assert.equal(await toast.isVisible(), true, "no visible message about the unknown scenario in the link");
  assert.match(await toast.textContent(), /no built-in scenario named "no-such-lesson"/);
  h.assertNoErrors(page);
});

test("?embed=1 shows the stage and the step controls only, and still steps", async () => {
  const page = await h.open("index.html?embed=1#scenario=happy-path&step=6", { engine: false });
  await waitStep(page, 6);
  assert.equal(await page.evaluate(() => document.getElementById("welcome").open), false, "no first-visit card in an embed");
  for (const [what, loc] of [
    ["scenario picker", byTestId(page, "scenario-picker")],
    ["Open… (editor)", page.locator("#open-btn")],
    ["Inject…", page.locator("#inject-btn")],
    ["help button", page.locator("#help-btn")],
    ["title and summary", byTestId(page, "scenario-title")],
  ]) {
    assert.equal(await loc.isVisible(), false, `${what} is visible in an embed`);
  }
  for (const id of ["phase", "snapshot", "builders", "outputs", "downstream", "invariant", "narration", "step-count", "timeline", "actions"]) {
    assert.equal(await byTestId(page, id).isVisible(), true, `${id} is hidden in an embed`);
  }
  assert.match(await text(page, "phase"), /backfilling/i);
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await waitStep(page, 7);
  assert.match(await text(page, "builders"), /v0 ?2 \/ 256/);
  // The keys for overlays do nothing in an embed; the step keys work.
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  for (const k of ["?", "i", "o"]) await page.keyboard.press(k);
  assert.equal(await page.evaluate(() => document.querySelectorAll("dialog[open]").length), 0, "an overlay opened in an embed");
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 8);
  assert.match(await page.evaluate(() => location.search), /embed=1/);
  h.assertNoErrors(page);
});

test("postMessage: a parent page sends goto and open and hears explainer:state", async () => {
  // The parent is another origin: a tiny server of its own on 127.0.0.1 (another port). It must be
  // a real local server: Chromium's local-network-access checks block a public (or
  // playwright-fulfilled) page from framing 127.0.0.1.
  const src = new URL("index.html?embed=1", h.url).href;
  const parentHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>parent</title>
<script>
  window.__msgs = [];
  window.addEventListener("message", (ev) => { if (ev.data && ev.data.type) window.__msgs.push(ev.data); });
</script></head><body><h1>docs page</h1>
<iframe id="ex" title="backfill explainer" src="${src}" width="1000" height="700"></iframe></body></html>`;
  const server = createServer((req, res) => { res.writeHead(200, { "content-type": "text/html; charset=utf-8" }); res.end(parentHTML); });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  try {
    const parentURL = `http://127.0.0.1:${server.address().port}/docs/embed.html`;
    assert.notEqual(new URL(parentURL).origin, new URL(h.url).origin);
    const page = await h.open(parentURL, { ready: false });
    const frame = await (await page.locator("#ex").elementHandle()).contentFrame();
    assert.ok(frame, "the iframe's frame");
    await frame.waitForURL((u) => u.href.startsWith(src));
    await waitStarted(frame, page);
    // The embedded page opens happy-path by itself and reports it.
    await page.waitForFunction(() => window.__msgs.some((m) => m.type === "explainer:state" && m.step === 0));
    const first = await page.evaluate(() => window.__msgs.filter((m) => m.type === "explainer:state").at(-1));
    assert.equal(first.phase, "starting");
    assert.equal(first.scenario, "happy-path");

    const post = (msg) => page.evaluate((msg) => document.getElementById("ex").contentWindow.postMessage(msg, "*"), msg);
    const lastState = () => page.evaluate(() => window.__msgs.filter((m) => m.type === "explainer:state").at(-1));

    await post({ type: "explainer:goto", step: 5 });
    await page.waitForFunction(() => window.__msgs.some((m) => m.type === "explainer:state" && m.step === 5));
    const s5 = await lastState();
    assert.equal(s5.step, 5);
    assert.equal(s5.phase, "buffering");
    assert.equal(await frame.locator('[data-testid="step-count"]').textContent(), "step 5 / 18");

    const n = (await page.evaluate(() => window.__msgs.length));
    await post({ type: "explainer:open", scenario: "fatal-upstream-end" });
    await page.waitForFunction((n) => window.__msgs.slice(n).some((m) => m.type === "explainer:state"), n);
    const opened = await lastState();
    assert.equal(opened.step, 0);
    assert.equal(opened.phase, "starting");
    assert.equal(opened.scenario, "fatal-upstream-end");
    assert.match(await frame.locator('[data-testid="step-count"]').textContent(), /^step 0 \/ \d+$/);

    await post({ type: "explainer:goto", step: 10 });
    await page.waitForFunction(() => window.__msgs.some((m) => m.type === "explainer:state" && m.step === 10));
    assert.equal((await lastState()).phase, "failed");
    assert.equal(await frame.locator('[data-testid="fatal"]').isVisible(), true);

    // A request that is malformed, or whose command fails, is answered with explainer:error and
    // the request; nothing moves. Messages that are not for the explainer are ignored.
    const errors = () => page.evaluate(() => window.__msgs.filter((m) => m.type === "explainer:error"));
    const bad = [
      [{ type: "explainer:goto", step: "7" }, /step, a non-negative integer number; got the string "7"/],
      [{ type: "explainer:goto", step: [4] }, /got a list/],
      [{ type: "explainer:goto", step: 2.7 }, /got number 2\.7/],
      [{ type: "explainer:goto", step: null }, /got null/],
      [{ type: "explainer:goto", step: -1 }, /got number -1/],
      [{ type: "explainer:goto" }, /got nothing/],
      [{ type: "explainer:goto", step: 99 }, /step 99 is outside 0\.\.19/],
      [{ type: "explainer:open", scenario: "no-such-lesson" }, /no built-in scenario named "no-such-lesson"/],
      [{ type: "explainer:open", scenario: 3 }, /explainer:open needs scenario/],
      [{ type: "explainer:frobnicate" }, /unknown message type "explainer:frobnicate"/],
    ];
    for (const [i, [msg, want]] of bad.entries()) {
      await post(msg);
      await page.waitForFunction((n) => window.__msgs.filter((m) => m.type === "explainer:error").length > n, i);
      const e = (await errors())[i];
      assert.match(e.message, want, JSON.stringify(msg));
      assert.deepEqual(e.request, msg);
    }
    await post("explainer:goto");
    await post({ type: "someone-else:goto", step: 1 });
    await page.waitForTimeout(200);
    assert.equal((await errors()).length, bad.length, "messages for someone else are not answered");
    assert.equal((await lastState()).step, 10);
    assert.equal(await frame.locator('[data-testid="step-count"]').textContent(), "step 10 / 19");

    // The content height, whenever it changes. In a frame of at least 600 × 500 px the page is one
    // screen that fits the frame (its panels scroll inside themselves): its height is the frame's.
    const resizes = () => page.evaluate(() => window.__msgs.filter((m) => m.type === "explainer:resize").map((m) => m.height));
    assert.equal(await frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--layout").trim()), "shell");
    assert.equal((await resizes()).at(-1), 700, "the one-screen layout is as tall as its frame");
    // In a shorter frame the page is a document as tall as its content: opening a scenario at its
    // start hides the fatal panel, and the height shrinks.
    const n0 = (await resizes()).length;
    await page.evaluate(() => { document.getElementById("ex").height = "420"; });
    await page.waitForFunction((n) => window.__msgs.filter((m) => m.type === "explainer:resize").length > n, n0);
    assert.equal(await frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--layout").trim()), "flow");
    const before = await resizes();
    assert.ok(before.length >= 1 && before.every((x) => Number.isInteger(x) && x > 0), `resize: ${before}`);
    const bodyHeight = await frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    assert.equal(before.at(-1), bodyHeight);
    assert.ok(bodyHeight > 420, `a document taller than its frame: ${bodyHeight}`);
    await post({ type: "explainer:goto", step: 0 });
    await page.waitForFunction((n) => window.__msgs.filter((m) => m.type === "explainer:resize").length > n, before.length);
    const after = await resizes();
    assert.ok(after.at(-1) < before.at(-1), `the height shrank: ${before.at(-1)} → ${after.at(-1)}`);
    h.assertNoErrors(page);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
