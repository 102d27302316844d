// speaker-commands.test.mjs — issue 34 MED 12, the explainer window's side: a burst of the
// speaker window's commands (its keys and buttons, {type: "command"} on the BroadcastChannel) is
// not a burst of views. 2,000 step/back commands kept the presenter busy 26.7 s drawing 2,000
// views; now the moves waiting together are one move, a view is drawn at most once a frame, and
// no command a person could give is lost (a few at once all take effect).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, byTestId, waitStep, presentWithSpeaker as openSpeaker } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });


// count the views the explainer window draws (every change of the timeline is one)
const countViews = (page) => page.evaluate(() => {
  window.__views = 0;
  window.addEventListener("explainer:change", () => { window.__views++; });
});

/** Posts the commands from the speaker window, as its keys would, all in one task. */
const send = (speaker, cmds) => speaker.evaluate((cmds) => {
  const id = new URLSearchParams(location.search).get("id");
  const c = new BroadcastChannel("backfill-explainer:speaker:" + id);
  for (const [name, arg] of cmds) c.postMessage({ type: "command", name, arg });
}, cmds);

test("2,000 step/back commands from the speaker window: a few views drawn, settled at once, at where they lead", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=3");
  const speaker = await openSpeaker(page);
  await countViews(page);
  const cmds = [];
  for (let i = 0; i < 1000; i++) cmds.push(["step"], ["back"]);
  cmds.push(["goto", 9], ["step"], ["step"]);
  const t0 = Date.now();
  await send(speaker, cmds);
  await waitStep(page, 11, { timeout: 60000 });
  await page.waitForTimeout(500); // nothing more comes
  const ms = Date.now() - t0;
  const views = await page.evaluate(() => window.__views);
  assert.ok(views <= 20, `${views} views drawn for 2,003 commands`);
  assert.ok(ms < 5000, `settled after ${ms} ms`);
  await waitStep(page, 11);
  h.assertNoErrors(page);
  h.assertNoErrors(speaker);
});

test("2,000 arrow keys from the speaker window: bounded, and the page still answers", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=3");
  const speaker = await openSpeaker(page);
  await countViews(page);
  const cmds = [];
  for (let i = 0; i < 1000; i++) cmds.push(["key", "ArrowRight"], ["key", "ArrowLeft"]);
  const t0 = Date.now();
  await send(speaker, cmds);
  // settled: no view for a while
  let seen = -1;
  for (;;) {
    await page.waitForTimeout(700);
    const v = await page.evaluate(() => window.__views);
    if (v === seen) break;
    seen = v;
    assert.ok(Date.now() - t0 < 30000, `still drawing after ${Date.now() - t0} ms (${v} views)`);
  }
  assert.ok(seen <= 130, `${seen} views drawn for 2,000 keys`);
  // the page answers: one key more is one step
  const { step } = await page.evaluate(() => window.explainer.view().then((v) => ({ step: v.step })));
  await send(speaker, [["key", "ArrowRight"]]);
  await waitStep(page, step + 1);
  h.assertNoErrors(page);
  h.assertNoErrors(speaker);
});

test("a few commands at once are all taken: five steps are five steps, and a key after them too", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2");
  const speaker = await openSpeaker(page);
  await send(speaker, [["step"], ["step"], ["step"], ["step"], ["step"]]);
  await waitStep(page, 7);
  await send(speaker, [["back"], ["key", "ArrowRight"], ["key", "ArrowRight"]]);
  await waitStep(page, 8);
  await page.waitForTimeout(300);
  await waitStep(page, 8);
  h.assertNoErrors(page);
});
