// small-things.test.mjs — smaller things users hit: the help's example link is the current view
// (scenario, step, bug mode), not a fixed example; a trace or a view opened by mistake in the
// editor says what it is and what to open instead; a #src= that cannot be fetched says what to do.
// (Save → Download trace giving the whole run is in teach-export.test.mjs.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPage, byTestId, waitStep, welcomed, text, setupPrivate } from "./page-helpers.mjs";

let h;
let page;
before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=9&bug=mark-on-arrival");
});
after(async () => { await h?.close(); });

const helpLinks = async () => {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("?");
  const link = await byTestId(page, "help-link").textContent();
  const embed = await byTestId(page, "help-embed").textContent();
  await page.keyboard.press("Escape");
  return { link, embed };
};

test("the help's example links are the view on the page now", async () => {
  let { link, embed } = await helpLinks();
  assert.equal(link, await page.evaluate(() => location.href));
  assert.match(link, /#scenario=fatal-upstream-end&step=9&bug=mark-on-arrival$/);
  assert.match(embed, /^<iframe src="[^"]*index\.html\?embed=1#scenario=fatal-upstream-end&step=9&bug=mark-on-arrival"/);
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 10);
  ({ link } = await helpLinks());
  assert.match(link, /#scenario=fatal-upstream-end&step=10&bug=mark-on-arrival$/);
  await page.evaluate(async () => { await window.explainer.open("happy-path"); await window.explainer.goto(3); });
  await waitStep(page, 3);
  ({ link } = await helpLinks());
  assert.match(link, /#scenario=happy-path&step=3$/);
  h.assertNoErrors(page);
});

test("a trace or a view opened in the editor says what it is, not a scenario", async () => {
  const trace = await page.evaluate(async () => JSON.stringify((await window.explainer.export()).whole_trace, null, 2));
  const view = await page.evaluate(async () => JSON.stringify(await window.explainer.view()));
  const dir = mkdtempSync(join(tmpdir(), "explainer-trace-"));
  try {
    writeFileSync(join(dir, "happy-path.trace.json"), trace);
    await page.keyboard.press("o");
    await page.locator("#editor-file").setInputFiles(join(dir, "happy-path.trace.json"));
    const err = byTestId(page, "editor-error");
    await err.waitFor();
    assert.match(await err.textContent(), /1:1: this is a trace, not a scenario: .*Save → Download scenario/);
    // pasted: a view
    await byTestId(page, "editor").fill(view);
    await page.getByRole("button", { name: "Load scenario" }).click();
    await page.waitForFunction(() => /this is a view/.test(document.querySelector('[data-testid="editor-error"]').textContent));
    await page.evaluate(() => document.querySelector("dialog[open]")?.close());
    assert.match(await text(page, "scenario-title"), /happy path/i, "the open scenario stays");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  h.assertNoErrors(page);
});

test("a #src= file that is not there says to serve it beside the page or open it with Open…", async () => {
  const p = await h.open("index.html#src=lessons/missing.yaml", welcomed(h));
  const toast = byTestId(p, "toast");
  await toast.waitFor({ state: "visible", timeout: 10000 });
  const msg = (await toast.textContent()).replace(/\s+/g, " ");
  assert.match(msg, /#src=lessons\/missing\.yaml: could not fetch it: there is no such file beside this page \(HTTP 404\)/);
  assert.match(msg, /Serve the scenario file beside this page .*relative to the page/);
  assert.match(msg, /open it with Open…/);
  assert.match(await text(p, "scenario-title"), /happy path/i, "the default scenario instead");
  // the 404 is the server's answer to the page's own request, not the page's error
  p.errors = p.errors.filter((e) => !/Failed to load resource: .* 404/.test(e));
  h.assertNoErrors(p);
});
