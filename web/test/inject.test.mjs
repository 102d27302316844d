// inject.test.mjs — the Inject dialog for every kind of step: its tabs and fields come from the
// engine's step forms, the preview is the engine's own step text (FormatStep), and Apply applies
// it; the run then shows the step. Nothing about step syntax lives in the page.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, openAt, text, waitStep, byTestId, setupPrivate } from "./page-helpers.mjs";

let h;
let page;
before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=happy-path&step=6");
});
after(async () => { await h?.close(); });

async function openInject(kind) {
  await page.getByRole("button", { name: "Inject…" }).click();
  const dialog = page.locator("#inject-dialog");
  await dialog.waitFor({ state: "visible" });
  await dialog.getByRole("radio", { name: kind, exact: true }).click();
  return dialog;
}

const preview = () => page.evaluate(() => document.querySelector('[data-testid="inject-preview"]').textContent);

async function applyAndWait(dialog, step) {
  await dialog.getByRole("button", { name: "Apply" }).click();
  await dialog.waitFor({ state: "hidden" });
  await waitStep(page, step);
}

// Each case: where to start, the tab, how to fill it, the step text the engine writes, and what
// the run shows afterwards.
const CASES = [
  { name: "a barrier with a start signal", at: ["happy-path", 5], kind: "Barrier",
    fill: async (d) => { await d.getByLabel("Epoch").fill("3"); await d.getByLabel("StartFragmentBackfill").check(); await d.getByLabel("Fragment ids").fill("7"); },
    text: "barrier: {epoch: 3, start_backfill: [7]}", phase: /backfilling/i },
  { name: "a barrier that is not a checkpoint", at: ["happy-path", 6], kind: "Barrier",
    fill: async (d) => { await d.getByLabel("Epoch").fill("9"); await d.getByLabel("checkpoint (durable)").uncheck(); },
    text: "barrier: {epoch: 9, checkpoint: false}", phase: /backfilling/i, outputs: /non-checkpoint|barrier e9/ },
  { name: "a barrier with a rescale", at: ["happy-path", 6], kind: "Barrier",
    fill: async (d) => { await d.getByLabel("Epoch").fill("9"); await d.getByLabel("rescale (this actor)").check(); },
    text: "barrier: {epoch: 9, rescale: true}", phase: /failed/i, fatal: "updating vnode bitmap in place is not supported" },
  { name: "a barrier that pauses the stream (ignored by the executor)", at: ["happy-path", 6], kind: "Barrier",
    fill: async (d) => { await d.getByLabel("Epoch").fill("9"); await d.getByLabel("pause", { exact: true }).check(); },
    text: "barrier: {epoch: 9, mutation: pause}", phase: /backfilling/i, outputs: /barrier e9/ },
  { name: "a barrier with a throttle (ignored by the executor)", at: ["happy-path", 6], kind: "Barrier",
    fill: async (d) => { await d.getByLabel("Epoch").fill("9"); await d.getByLabel("throttle", { exact: true }).check(); await d.getByLabel("Rate limit (rows per second)").fill("1"); },
    text: "barrier: {epoch: 9, mutation: {throttle: 1}}", phase: /backfilling/i, outputs: /barrier e9/ },
  { name: "a chunk", at: ["happy-path", 6], kind: "Chunk",
    fill: async (d) => { await d.getByLabel("Rows").fill("+ 5 104\n(+ 15 204)"); },
    text: 'chunk: ["+ 5 104", "(+ 15 204)"]', phase: /backfilling/i, content: /\(5,104\)/ },
  { name: "a watermark", at: ["happy-path", 6], kind: "Watermark",
    fill: async (d) => { await d.getByLabel("Value").fill("9"); },
    text: "watermark: {column: a, value: 9}", phase: /backfilling/i },
  { name: "a snapshot delivery", at: ["happy-path", 6], kind: "Snapshot",
    fill: async (d) => { await d.getByLabel("Items").fill("2"); },
    text: "snapshot: 2", phase: /backfilling/i, builders: /v0 ?2 \/ 256/ },
  { name: "the upstream's end", at: ["happy-path", 6], kind: "Upstream end", fill: async () => {},
    text: "end", phase: /failed/i, fatal: "locality provider upstream ended unexpectedly during backfill" },
  { name: "an upstream error", at: ["happy-path", 6], kind: "Upstream error",
    fill: async (d) => { await d.getByLabel("Message").fill("exchange closed: it's gone"); },
    text: `error: "exchange closed: it's gone"`, phase: /failed/i, fatal: "exchange closed: it's gone" },
  { name: "a snapshot error", at: ["happy-path", 6], kind: "Snapshot error",
    fill: async (d) => { await d.getByLabel("Message").fill("storage read timed out"); },
    text: `snapshot_error: "storage read timed out"`, phase: /failed/i, fatal: "storage read timed out" },
];

for (const c of CASES) {
  test(`inject ${c.name}: the engine's step text, applied`, async () => {
    await openAt(page, ...c.at);
    const dialog = await openInject(c.kind);
    await c.fill(dialog);
    assert.equal(await preview(), c.text);
    await applyAndWait(dialog, c.at[1] + 1);
    assert.match(await text(page, "phase"), c.phase);
    if (c.fatal) assert.equal(await text(page, "fatal-message"), c.fatal);
    if (c.content) assert.match(await text(page, "upstream-content"), c.content);
    if (c.builders) assert.match(await text(page, "builders"), c.builders);
    if (c.outputs) assert.match(await text(page, "outputs"), c.outputs);
    h.assertNoErrors(page);
  });
}

test("inject a recovery after a failure, and a bad value is refused inline", async () => {
  await openAt(page, "happy-path", 6);
  let dialog = await openInject("Upstream end");
  await applyAndWait(dialog, 7);
  dialog = await openInject("Recovery");
  assert.equal(await preview(), "recover");
  await applyAndWait(dialog, 8);
  assert.match(await text(page, "phase"), /starting/i);
  assert.match(await text(page, "outputs"), /recovery/);
  // A chunk the parser refuses: the engine's message, and nothing applied.
  dialog = await openInject("Chunk");
  await dialog.getByLabel("Rows").fill("+ 5");
  await dialog.getByRole("button", { name: "Apply" }).click();
  const err = byTestId(page, "inject-error");
  await err.waitFor({ state: "visible" });
  assert.match(await err.textContent(), /row has 1 value; the table has 2 columns \(a, id\)/);
  assert.equal((await page.evaluate(() => window.explainer.state())).step, 8);
  await page.keyboard.press("Escape");
  h.assertNoErrors(page);
});
