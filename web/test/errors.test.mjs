// errors.test.mjs — bad input never breaks the page: a rejected scenario in the editor names its
// line and column and marks the line; the API rejects with `line:column:`; an invalid injection
// is shown inline; hostile text in a scenario is shown as text, never run as HTML.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, openAt, text, waitStep, byTestId, setupPrivate } from "./page-helpers.mjs";

let h;
let shared; // one page for the tests after the first (each page costs an engine start)
before(async () => { h = await setupPrivate(); });
async function sharedAt(name, n) {
  shared ??= await openPage(h, `index.html#scenario=${name}&step=${n}`, { keep: true });
  await openAt(shared, name, n);
  assert.equal(await shared.evaluate(() => document.querySelectorAll("dialog[open]").length), 0);
  return shared;
}
after(async () => { await h?.close(); });

// Line 7 has three values for a two-column table; column 22 is the extra value.
const BAD = `title: Bad widths
table:
  columns: [a, id]
  locality: [a]
  stream_key: [id]
steps:
  - chunk: ["+ 1 100 7"]
  - barrier: 1
`;

const GOOD = `title: Good after bad
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, rule: ranges, bounds: [10]}
fragment: 7
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 11 200"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 3
  - barrier: 3
`;

async function openEditor(page) {
  await page.getByRole("button", { name: "Open…" }).click();
  const dialog = page.locator("#editor-dialog");
  await dialog.waitFor({ state: "visible" });
  return dialog;
}

test("the editor shows a rejected scenario's line and column and marks the line; a good one then loads and steps", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=3");
  const dialog = await openEditor(page);
  const ta = byTestId(page, "editor");
  await ta.fill(BAD);
  await dialog.getByRole("button", { name: "Load scenario" }).click();
  const err = byTestId(page, "editor-error");
  await err.waitFor({ state: "visible" });
  const msg = (await err.textContent()).replace(/\s+/g, " ");
  assert.match(msg, /\b7:22: row has 3 values; the table has 2 columns \(a, id\)/, `shown: ${msg}`);
  assert.equal(await dialog.isVisible(), true, "the editor stays open on an error");
  assert.equal(await ta.getAttribute("aria-invalid"), "true");
  // Line 7 is highlighted in the gutter, and selected in the text; the place is the error's own
  // (line and column cross the bridge), not read back out of its message.
  assert.deepEqual(await dialog.locator(".gutter .ln.err").allTextContents(), ["7"]);
  assert.deepEqual(await ta.evaluate((el) => [el.dataset.errorLine, el.dataset.errorColumn]), ["7", "22"]);
  const selected = await ta.evaluate((el) => el.value.slice(el.selectionStart, el.selectionEnd));
  assert.equal(selected, BAD.split("\n")[6]);
  // Nothing changed behind the dialog.
  assert.match(await text(page, "scenario-title"), /happy path/);

  // Now a good scenario: the dialog closes, the page shows it and steps.
  await ta.fill(GOOD);
  assert.equal(await err.isVisible(), false, "editing clears the error");
  assert.deepEqual(await dialog.locator(".gutter .ln.err").allTextContents(), []);
  await dialog.getByRole("button", { name: "Load scenario" }).click();
  await dialog.waitFor({ state: "hidden" });
  await waitStep(page, 0);
  assert.equal(await text(page, "scenario-title"), "Good after bad");
  assert.equal(await text(page, "step-count"), "step 0 / 5");
  for (let n = 1; n <= 5; n++) {
    await page.getByRole("button", { name: /^Step forward/ }).click();
    await waitStep(page, n);
  }
  assert.match(await text(page, "phase"), /forwarding/i);
  assert.deepEqual(await page.locator('[data-testid="downstream"] .chip .tuple').allTextContents(), ["(1,100)", "(11,200)"]);
  assert.match(await text(page, "invariant"), /invariant holds/);
  assert.match(await byTestId(page, "scenario-picker").locator("option:checked").textContent(), /Good after bad/);
  h.assertNoErrors(page);
});

test("explainer.load(bad) rejects with line:column:, and open() works afterwards", async () => {
  const page = await sharedAt("happy-path", 2);
  const r = await page.evaluate(async (bad) => {
    let rejected = null;
    let place = null;
    try { await window.explainer.load(bad); } catch (e) { rejected = e.message; place = [e.line, e.column]; }
    let other = null;
    try { await window.explainer.open("no-such-lesson"); } catch (e) { other = [e.message, e.line, e.column]; }
    const stillAt = (await window.explainer.state()).step;
    const v = await window.explainer.open("happy-path");
    return { rejected, place, other, stillAt, steps: v.steps, phase: v.phase };
  }, BAD);
  assert.match(r.rejected ?? "(resolved)", /^7:22: row has 3 values/);
  assert.deepEqual(r.place, [7, 22], "the Error carries .line and .column");
  assert.match(r.other[0], /no built-in scenario named "no-such-lesson"/);
  assert.deepEqual(r.other.slice(1), [null, null], "an error without a place has none");
  assert.equal(r.stillAt, 2, "a rejected load leaves the open scenario alone");
  assert.deepEqual({ steps: r.steps, phase: r.phase }, { steps: 18, phase: "starting" });
  await waitStep(page, 0);
  assert.equal(await text(page, "step-count"), "step 0 / 18");
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 1);
  h.assertNoErrors(page);
});

async function inject(page, kind, setFields) {
  await page.getByRole("button", { name: "Inject…" }).click();
  const dialog = page.locator("#inject-dialog");
  await dialog.waitFor({ state: "visible" });
  await dialog.getByRole("radio", { name: kind }).click();
  await setFields(dialog);
  await dialog.getByRole("button", { name: "Apply" }).click();
  return dialog;
}

test("an invalid injection shows an inline error, and the page keeps working", async () => {
  const page = await sharedAt("happy-path", 6);

  // An epoch that goes back.
  let dialog = await inject(page, "Barrier", async (d) => {
    await d.getByLabel("Epoch").fill("2");
    assert.equal(await byTestId(page, "inject-preview").textContent(), "barrier: 2");
  });
  const err = byTestId(page, "inject-error");
  await err.waitFor({ state: "visible" });
  assert.match(await err.textContent(), /epoch 2 does not increase: the last barrier carried epoch 3/);
  assert.equal(await dialog.isVisible(), true);
  assert.equal(await text(page, "step-count"), "step 6 / 18", "nothing was applied");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await byTestId(page, "toast").isVisible(), false);
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await waitStep(page, 7);
  assert.match(await text(page, "builders"), /v0 ?2 \/ 256/);

  // A chunk row on a vnode this actor does not own (the dispatcher never routes one here).
  await page.evaluate(() => window.explainer.load(`title: Owns vnode 0 only
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, owned: [0], rule: ranges, bounds: [10]}
steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - barrier: 2
`));
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 1);
  dialog = await inject(page, "Chunk", async (d) => {
    await d.getByLabel("Rows").fill("+ 11 100");
  });
  await err.waitFor({ state: "visible" });
  assert.match(await err.textContent(), /row \(11,100\) is on vnode 1, which actor 1 does not own/);
  assert.equal(await text(page, "step-count"), "step 1 / 3");
  // Fix it in place: a row on vnode 0 applies (a branch) and the dialog closes.
  await dialog.getByLabel("Rows").fill("+ 5 100");
  assert.equal(await err.isVisible(), false, "editing clears the error");
  await dialog.getByRole("button", { name: "Apply" }).click();
  await dialog.waitFor({ state: "hidden" });
  await waitStep(page, 2);
  assert.match(await text(page, "upstream-content"), /\(5,100\)/);
  await page.keyboard.press("End");
  await page.waitForFunction(() => /^step (\d+) \/ \1$/.test(document.querySelector('[data-testid="step-count"]').textContent));
  assert.match(await text(page, "invariant"), /invariant holds/);
  h.assertNoErrors(page);
});

const IMG = "<img src=x onerror=window.__pwned=1>";
const SCRIPT = "<script>window.__pwned=1</script>";
const HOSTILE = `title: "${IMG} hostile"
summary: "${SCRIPT} and **${IMG}**"
table: {columns: [a, id, v], locality: [a], stream_key: [id]}
fragment: 7
steps:
  - barrier: 1
    note: "${IMG}"
  - chunk: ["+ 1 100 '${SCRIPT}'", "+ 2 101 '${IMG}'"]
    note: "${SCRIPT}"
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 3
  - barrier: 3
  - error: "${IMG}"
`;

test("hostile text in a scenario is shown as literal text, never run", async () => {
  const page = await sharedAt("happy-path", 0);
  const dialog = await openEditor(page);
  await byTestId(page, "editor").fill(HOSTILE);
  await dialog.getByRole("button", { name: "Load scenario" }).click();
  await dialog.waitFor({ state: "hidden" });
  await waitStep(page, 0);

  const noHarm = async (where) => {
    const r = await page.evaluate(() => ({
      pwned: typeof window.__pwned,
      imgs: [...document.querySelectorAll("img")].filter((i) => i.getAttribute("src") === "x").length,
      scripts: [...document.querySelectorAll("script")].filter((s) => s.textContent.includes("__pwned")).length,
    }));
    assert.deepEqual(r, { pwned: "undefined", imgs: 0, scripts: 0 }, where);
  };

  assert.equal(await text(page, "scenario-title"), `${IMG} hostile`);
  const summary = await text(page, "scenario-summary");
  assert.ok(summary.includes(SCRIPT) && summary.includes(IMG), `summary: ${summary}`);
  assert.ok((await byTestId(page, "scenario-picker").locator("option:checked").textContent()).includes(IMG));
  await noHarm("at step 0");

  await page.keyboard.press("ArrowRight");
  await waitStep(page, 1);
  assert.ok((await text(page, "narration")).includes(IMG), "the note at step 1");
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 2);
  assert.ok((await text(page, "narration")).includes(SCRIPT), "the note at step 2");
  const content = await text(page, "upstream-content");
  assert.ok(content.includes(`'${SCRIPT}'`) && content.includes(`'${IMG}'`), `upstream content: ${content}`);
  await noHarm("at step 2");

  await page.keyboard.press("End");
  await waitStep(page, 6);
  const out = await text(page, "outputs");
  assert.ok(out.includes(`'${SCRIPT}'`) && out.includes(`'${IMG}'`), `outputs: ${out}`);
  assert.ok((await text(page, "downstream")).includes(`'${IMG}'`));
  const fatal = byTestId(page, "fatal");
  await fatal.waitFor({ state: "visible" });
  assert.equal(await text(page, "fatal-message"), IMG);
  await noHarm("at the error");
  h.assertNoErrors(page);
});
