// editor-source.test.mjs — the editor starts from the open scenario's text (a built-in's file as
// written, or the text last loaded; a draft stays while the same scenario is open), has the
// format's help inside the dialog (made from scenario.schema.json, offline too) and offers the
// schema's keys where the caret is (buttons, Ctrl+Space).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setup, fileURL, ROOT } from "./harness.mjs";
import { openPage, byTestId, waitStep, welcomed } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const schema = JSON.parse(readFileSync(join(ROOT, "scenarios/scenario.schema.json"), "utf8"));
const builtin = (name) => readFileSync(join(ROOT, "scenarios", name + ".yaml"), "utf8");

async function openEditor(page) {
  await page.locator("#open-btn").click();
  const ta = byTestId(page, "editor");
  await ta.waitFor({ state: "visible" });
  return ta;
}
const close = (page) => page.locator("#editor-dialog").getByRole("button", { name: "Cancel" }).click();

test("the editor starts from the open scenario: a built-in's file, then the text loaded; a draft stays", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2");
  let ta = await openEditor(page);
  assert.equal(await ta.inputValue(), builtin("happy-path"), "happy-path's file, comments and all");
  // A draft stays while the same scenario is open.
  await ta.fill("title: a draft\n");
  await close(page);
  ta = await openEditor(page);
  assert.equal(await ta.inputValue(), "title: a draft\n");
  // Loaded text: the editor has it next time.
  const mine = builtin("happy-path").replace(/^title: .*$/m, "title: Mine");
  await ta.fill(mine);
  await page.getByRole("button", { name: "Load scenario" }).click();
  await page.waitForFunction(() => /Mine/.test(document.querySelector('[data-testid="scenario-title"]').textContent));
  ta = await openEditor(page);
  assert.equal(await ta.inputValue(), mine);
  await close(page);
  // Another built-in, from the picker.
  await byTestId(page, "scenario-picker").selectOption("mixed-visibility");
  await waitStep(page, 0);
  await page.waitForFunction(() => /visib/i.test(document.querySelector('[data-testid="scenario-title"]').textContent));
  ta = await openEditor(page);
  assert.equal(await ta.inputValue(), builtin("mixed-visibility"));
  // The example is a click away.
  await byTestId(page, "editor-example").click();
  assert.match(await ta.inputValue(), /^title: My scenario\n/);
  h.assertNoErrors(page);
});

test("the editor's format help: every key of the schema with its description, in the dialog", async () => {
  for (const [w, hh] of [[1280, 800], [1920, 1080]]) {
    const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: w, height: hh } });
    await openEditor(page);
    const help = byTestId(page, "format-help");
    assert.equal(await help.isVisible(), false);
    await byTestId(page, "format-help-btn").click();
    await help.waitFor({ state: "visible" });
    assert.equal(await byTestId(page, "format-help-btn").getAttribute("aria-expanded"), "true");
    const keys = await help.locator("dl.fh-keys dt code").allTextContents();
    for (const k of Object.keys(schema.properties)) assert.ok(keys.includes(k), `top-level key ${k}`);
    for (const k of Object.keys(schema.$defs.step.oneOf[1].properties)) assert.ok(keys.includes(k), `step key ${k}`);
    for (const k of Object.keys(schema.properties.table.properties)) assert.ok(keys.includes(k), `table key ${k}`);
    const all = (await help.textContent()).replace(/\s+/g, " ");
    assert.ok(all.includes(schema.properties.open_at.description), "open_at's description");
    await h.screenshot(page, `editor-format-help-${w}`, { fullPage: false });
    assert.deepEqual(await h.axe(page, { include: "#editor-dialog" }), []);
    h.assertNoErrors(page);
    await page.close();
  }
});

test("the editor offers the keys that fit where the caret is; a click or Ctrl+Space writes one", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  const ta = await openEditor(page);
  const offered = () => page.locator('[data-testid="editor-keys"] .key-btn').allTextContents();
  const caretAtEnd = async (text) => {
    await ta.fill(text);
    await ta.evaluate((el) => { el.focus(); el.setSelectionRange(el.value.length, el.value.length); el.dispatchEvent(new Event("keyup")); });
  };
  await caretAtEnd("title: x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\n");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="editor-keys"] .key-btn').length > 0);
  assert.deepEqual(await offered(), Object.keys(schema.properties).filter((k) => k !== "title" && k !== "table"));
  assert.match(await page.locator('[data-testid="editor-keys"]').textContent(), /Keys for the top level/);
  // In a step: the events and note, pause.
  await caretAtEnd("title: x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps:\n  - barrier: 1\n  - ");
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-keys"] .key-btn')?.textContent === "barrier");
  assert.deepEqual(await offered(), Object.keys(schema.$defs.step.oneOf[1].properties));
  await page.locator('[data-testid="editor-keys"] .key-btn', { hasText: /^chunk$/ }).click();
  assert.match(await ta.inputValue(), /\n {2}- chunk: $/);
  // Under table:, Ctrl+Space writes the first key not there yet.
  await caretAtEnd("title: x\ntable:\n  columns: [a, id]\n  ");
  await page.keyboard.press("Control+Space");
  await page.waitForFunction(() => /\n {2}locality: $/.test(document.querySelector('[data-testid="editor"]').value));
  await page.keyboard.type("[a]\n  ");
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-keys"] .key-btn')?.textContent === "stream_key");
  await h.screenshot(page, "editor-keys", { fullPage: false });
  h.assertNoErrors(page);
});

test("offline single file: the editor starts from the open scenario and its format help is there", async () => {
  const page = await h.open(fileURL("dist/explainer-offline.html") + "#scenario=happy-path", { ...welcomed(h) });
  await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false, null, { timeout: 30000 });
  const ta = await openEditor(page);
  assert.equal(await ta.inputValue(), builtin("happy-path"));
  await byTestId(page, "format-help-btn").click();
  await byTestId(page, "format-help").locator("dl.fh-keys").first().waitFor();
  assert.ok((await byTestId(page, "format-help").locator("dt code").allTextContents()).includes("open_at"));
  h.assertNoErrors(page);
});
