// release-heldout.test.mjs — the held-out cases (scenarios/testdata/heldout: scenarios that are no
// built-in, each with its rules per release) on the real page, under every release: loaded with
// explainer.load, switched with explainer.release, then stepped to the end one step at a time as
// the page shows it. At every step the page's phase (the engine's and the badge a person reads)
// is the one NAME.rules.json says and the one `bin/backfill run --release R FILE` prints; at the
// end state() deep-equals `bin/backfill run --json --release R FILE`, which is NAME.R.json; the
// page shows the failure's message (or none) and the actor's state; and the narration at the
// steps the rules name says what they say. One browser for the whole file.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, BACKFILL } from "./harness.mjs";
import { openPage, text, waitStep, setupPrivate, call } from "./page-helpers.mjs";

const DIR = join(ROOT, "scenarios/testdata/heldout");
let RELEASES; // the view's releases (the engine's registry), read once the page is open
const files = readdirSync(DIR).filter((f) => f.endsWith(".yaml")).sort();

let h;
let page;
before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=happy-path&step=0");
  RELEASES = await page.evaluate(async () => (await window.explainer.view()).releases.map((r) => r.name));
  assert.ok(RELEASES.length > 1, `the view lists the releases (${RELEASES})`);
});
after(async () => { await h?.close(); });

// rulesOf reads NAME.rules.json and resolves each release's "like" (its base's keys, then its own;
// same_trace_as is never inherited), as scenarios/heldout_test.go does.
function rulesOf(name) {
  const all = JSON.parse(readFileSync(join(DIR, `${name}.rules.json`), "utf8")).releases;
  // and a release's rules for every case, from releases/RELEASE.rules.json (heldout_test.go)
  let files = [];
  try { files = readdirSync(join(DIR, "releases")).filter((f) => f.endsWith(".rules.json")); } catch { /* none */ }
  for (const f of files) {
    const rel = f.slice(0, -".rules.json".length);
    assert.ok(!all[rel], `releases/${f}: ${rel}'s rules are also in ${name}.rules.json`);
    all[rel] = JSON.parse(readFileSync(join(DIR, "releases", f), "utf8")).cases[name];
    assert.ok(all[rel], `releases/${f}: no rules for the case ${name}`);
  }
  const resolve = (rel, seen = []) => {
    assert.ok(all[rel], `${name}.rules.json: no release ${rel}`);
    assert.ok(!seen.includes(rel), `${name}.rules.json: "like" loops through ${[...seen, rel].join(" → ")}`);
    const own = all[rel];
    const base = own.like ? resolve(own.like, [...seen, rel]) : {};
    delete base.same_trace_as;
    const out = { ...base, ...own };
    delete out.like;
    return out;
  };
  return Object.fromEntries(RELEASES.map((r) => [r, resolve(r)]));
}

const run = promisify(execFile);
const backfill = async (...args) => (await run(BACKFILL, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 })).stdout;

// cli runs `backfill run --json --release R FILE` and `backfill run --release R FILE` (while the
// page walks): the trace, and the phase after each step read from the readable trace's
// "step N  …   [phase]" lines.
async function cli(release, file) {
  const [json, readable] = await Promise.all([backfill("run", "--json", "--release", release, file), backfill("run", "--release", release, file)]);
  return { trace: JSON.parse(json), phases: [...readable.matchAll(/^step (\d+) .*\[([a-z]+)\]$/gm)].map((m) => [Number(m[1]), m[2]]) };
}

// outputText writes an output as the rules do ("STEP: " and engine.Output.String()).
function outputText(o) {
  const value = (v) => (v === null ? "null" : typeof v === "number" || /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(v) && !/^(null|true|false)$/i.test(v)
    ? String(v) : `'${v.replaceAll("'", "''")}'`);
  const text = {
    barrier: () => `B e${o.epoch}${o.checkpoint ? "" : " (not a checkpoint)"}`,
    chunk: () => "chunk" + (o.rows.length ? "" : " (empty)") + o.rows.map((r) => ` ${r.op}(${r.values.map(value).join(",")})${r.visible ? "✓" : "✗"}`).join(""),
    watermark: () => `W ${o.column}=${value(o.value)}`,
    recovery: () => `recovery to e${o.epoch}`,
  }[o.type];
  assert.ok(text, `an output of type ${o.type}`);
  return `${o.step}: ${text()}`;
}

// walk goes back to step 0 of the loaded file (or loads yaml), switches to the release and steps
// to the end through the page's API, reading after each step what the engine says
// (state().phase) and what the page shows (the step counter, the phase badge, the actor's state),
// once the counter shows that step.
async function walk(yaml, release) {
  return page.evaluate(async ([yaml, release]) => {
    const ex = window.explainer;
    const read = (id) => (document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "").replace(/\s+/g, " ").trim();
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    if (yaml === null) await ex.goto(0);
    else await ex.load(yaml);
    await ex.release(release);
    const n = await ex.steps();
    const steps = [];
    for (let i = 1; i <= n; i++) {
      await ex.step();
      const want = `step ${i} / ${n}`;
      for (let f = 0; read("step-count") !== want; f++) {
        if (f > 300) throw new Error(`the page did not show ${want} (it shows ${read("step-count")})`);
        await frame();
      }
      steps.push({ phase: (await ex.state()).phase, badge: read("phase"), actor: document.querySelector('[data-testid="actor-state"]')?.dataset.state ?? null });
    }
    const v = await ex.view();
    return { n, steps, state: await ex.state(), view: { release: v.release, create: v.create, dropped: v.dropped } };
  }, [yaml, release]);
}

for (const file of files) {
  const name = file.replace(/\.yaml$/, "");
  test(`held-out ${name}: the page agrees with the rules and the command line under every release`, async (t) => {
    const path = join(DIR, file);
    const yaml = readFileSync(path, "utf8");
    const rules = rulesOf(name);
    const clis = Object.fromEntries(RELEASES.map((r) => [r, cli(r, path)]));
    for (const c of Object.values(clis)) c.catch(() => {}); // awaited below, in order
    let loaded = false;
    for (const release of RELEASES) {
      await t.test(release, async () => {
        const where = `${file} --release ${release}`;
        const r = rules[release];
        const got = await walk(loaded ? null : yaml, release);
        loaded = true;
        assert.equal(got.view.release, release, `${where}: the page plays another release`);
        assert.equal(got.n, r.phases.length, `${where}: steps`);
        // what the page shows against what the rules say RisingWave's source does
        const phases = got.steps.map((s) => s.phase);
        assert.deepEqual(phases, r.phases, `${where}: the page's phase at each step vs ${name}.rules.json`);
        got.steps.forEach((s, i) => assert.equal(s.badge, `phase: ${s.phase.toUpperCase()}`, `${where}: the phase badge after step ${i + 1}`));
        assert.deepEqual(got.state.outputs.map(outputText), r.outputs, `${where}: the page's outputs vs ${name}.rules.json`);
        await waitStep(page, got.n);
        if (got.state.error) {
          assert.equal(await text(page, "fatal-message"), got.state.error.message, `${where}: the failure shown`);
        } else if (got.state.phase === "dropped") {
          assert.equal(await text(page, "dropped-title"), "The recovery dropped the job" + ` · ${release} · ${got.view.dropped.reason}`, `${where}: the dropped job shown`);
        } else {
          assert.equal(await page.locator('[data-testid="fatal"]').isHidden(), true, `${where}: no failure shown`);
        }
        assert.equal(got.steps.at(-1).actor, r.actor, `${where}: the actor's state shown at the end`);
        for (const c of r.checks || []) {
          if (c.actor) assert.equal(got.steps[c.step - 1].actor, c.actor, `${where}: the actor shown after step ${c.step}`);
          if (!c.has) continue;
          await call(page, "goto", c.step);
          await waitStep(page, c.step);
          assert.ok((await text(page, "narration")).includes(c.has), `${where}: the narration of step ${c.step} says "${c.has}"`);
        }
        // the page against the expected trace and the command line
        const expected = JSON.parse(readFileSync(join(DIR, `${name}.${release}.json`), "utf8"));
        assert.deepEqual(got.state, expected, `${where}: the page's state() at the end vs ${name}.${release}.json`);
        const { trace, phases: cliPhases } = await clis[release];
        assert.deepEqual(trace, got.state, `${where}: backfill run --json vs the page's state() at the end`);
        assert.deepEqual(cliPhases, phases.map((p, i) => [i + 1, p]), `${where}: backfill run's phase at each step vs the page's`);
        h.assertNoErrors(page);
      });
    }
  });
}

test("every held-out case is walked", () => {
  assert.ok(files.length >= 10, `only ${files.length} held-out cases in ${DIR}`);
});
