// agreement.test.mjs — the page's engine (the wasm bridge) and the command line tell the same
// story: for every built-in scenario, state() at the last step deep-equals `bin/backfill run
// --json NAME`; and the two conformance files (protocol.md's worked examples), loaded through
// explainer.load, end where their *.expect.json say. The page shows the same end state.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, BACKFILL } from "./harness.mjs";
import { openPage, text, waitStep, setupPrivate } from "./page-helpers.mjs";

let h;
let page;
before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=happy-path&step=0");
});
after(async () => { await h?.close(); });

function cli(name) {
  return JSON.parse(execFileSync(BACKFILL, ["run", "--json", name], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 }));
}

test("every built-in scenario: state() at the end equals `backfill run --json NAME`", async () => {
  const list = await page.evaluate(() => window.explainer.scenarios());
  const names = list.map((s) => s.name);
  // The page lists exactly what the command line knows.
  const listed = execFileSync(BACKFILL, ["list"], { cwd: ROOT, encoding: "utf8" })
    .split("\n").map((l) => l.trim().split(/\s+/)[0]).filter(Boolean);
  assert.deepEqual(names, listed);
  for (const name of names) {
    const got = await page.evaluate(async (name) => {
      await window.explainer.open(name);
      const n = await window.explainer.steps();
      await window.explainer.goto(n);
      return window.explainer.state();
    }, name);
    const want = cli(name);
    assert.deepEqual(got, want, `${name}: the page's state() differs from backfill run --json`);
    // And the page shows that end: the step counter and the phase badge.
    assert.equal(await text(page, "step-count"), `step ${want.step} / ${want.step}`, name);
    assert.match(await text(page, "phase"), new RegExp(want.phase, "i"), name);
    if (want.error) assert.equal(await text(page, "fatal-message"), want.error.message, name);
  }
  h.assertNoErrors(page);
});

// The conformance comparison of testdata/conformance/README.md: outputs in order (type, epoch,
// rows with op/values/visible, watermark column/value), error, phase, progress_table as a set,
// downstream as a sorted multiset.
function outputKey(o) {
  const k = { type: o.type };
  if ("epoch" in o) k.epoch = o.epoch;
  if (o.type === "chunk") k.rows = o.rows.map((r) => ({ op: r.op, values: r.values, visible: r.visible }));
  if (o.type === "watermark") { k.column = o.column; k.value = o.value; }
  return k;
}
const cmpJSON = (a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0);
function conformance(trace) {
  return {
    outputs: trace.outputs.map(outputKey),
    error: trace.error,
    phase: trace.phase,
    progress_table: [...trace.progress_table].sort(cmpJSON),
    downstream: [...trace.downstream].sort(cmpJSON),
  };
}

const CONF = join(ROOT, "scenarios/testdata/conformance");
const confFiles = readdirSync(CONF).filter((f) => f.endsWith(".yaml")).sort();

test("conformance: protocol.md's worked examples through explainer.load end as expected", async () => {
  assert.deepEqual(confFiles, ["example-a.yaml", "example-b.yaml"]);
  for (const file of confFiles) {
    const yaml = readFileSync(join(CONF, file), "utf8");
    const expect = JSON.parse(readFileSync(join(CONF, file.replace(/\.yaml$/, ".expect.json")), "utf8"));
    const got = await page.evaluate(async (yaml) => {
      await window.explainer.load(yaml);
      const n = await window.explainer.steps();
      await window.explainer.goto(n);
      return { state: await window.explainer.state(), n };
    }, yaml);
    assert.deepEqual(conformance(got.state), conformance(expect), file);
    // And the whole state agrees with the command line run on the same file.
    assert.deepEqual(got.state, cli(join(CONF, file)), `${file}: state() vs backfill run --json FILE`);
    await waitStep(page, got.n);
    // What a person sees at the end: downstream's rows, as chips.
    const shown = await page.locator('[data-testid="downstream"] .chip .tuple').allTextContents();
    assert.deepEqual(shown, got.state.downstream.map((r) => `(${r.join(",")})`), `${file}: downstream panel`);
  }
  h.assertNoErrors(page);
});
