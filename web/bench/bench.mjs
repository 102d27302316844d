// bench.mjs — how fast the built page is in Debian's chromium, served by bin/backfill serve.
// It only reports (no thresholds): cold load to explainer.ready (median of N fresh contexts),
// step+render p50/p95 over the happy path (explainer.step() until the next animation frame),
// goto(last) from step 0; the same on two generated scenarios loaded as text (256 vnodes with
// crc32 placement; 10,000 steps); and the size of dist/ raw and gzipped.
//
//   ./build.sh build && node web/bench/bench.mjs          (./build.sh bench does both)
//   BENCH_RUNS=9 BENCH_PASSES=5 BENCH_SCENARIO=happy-path node web/bench/bench.mjs
//
// The last line is the same numbers as one JSON object, for scripts.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { DIST, startServer, launchBrowser, waitReady } from "../test/harness.mjs";

const RUNS = Number(process.env.BENCH_RUNS || 7);        // cold loads
const PASSES = Number(process.env.BENCH_PASSES || 5);    // walks over the happy path
const SCENARIO = process.env.BENCH_SCENARIO || "happy-path";

function quantile(xs, q) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i];
}
const median = (xs) => quantile(xs, 0.5);
const ms = (x) => `${x.toFixed(1)} ms`;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

function distSizes() {
  const files = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(DIST);
  const out = { site: { raw: 0, gzip: 0 }, wasm: null, offline: null };
  for (const p of files) {
    const data = readFileSync(p);
    const size = { raw: data.length, gzip: gzipSync(data, { level: 9 }).length };
    const rel = relative(DIST, p);
    if (rel === "explainer-offline.html") { out.offline = size; continue; }
    if (rel.endsWith(".wasm")) out.wasm = size;
    out.site.raw += size.raw;
    out.site.gzip += size.gzip;
  }
  return out;
}

async function coldLoads(browser, url) {
  const inPage = [];
  const wall = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext(); // a fresh cache every run
    // Note the moment ready resolves, in the page's clock (performance.now() counts from the
    // navigation's start): catch the assignment of window.explainer and hook its ready at once.
    await context.addInitScript(() => {
      let value;
      Object.defineProperty(window, "explainer", {
        configurable: true,
        get: () => value,
        set: (x) => {
          value = x;
          Promise.resolve(x && x.ready).then(() => { window.__benchReadyAt = performance.now(); }, () => {});
        },
      });
    });
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(new URL("index.html", url).href);
    await waitReady(page);
    wall.push(performance.now() - t0);
    const at = await page.evaluate(() => window.__benchReadyAt);
    if (typeof at !== "number") throw new Error("could not time explainer.ready (window.explainer was not assigned?)");
    inPage.push(at);
    await context.close();
  }
  return { inPage, wall };
}

// wide256 is a 256-vnode backfill (crc32 over an int key, chunk_size 4) with rows in every
// vnode, upstream chunks and barriers while it reads: each step renders 256 builders, lanes
// and progress rows.
function wide256() {
  const lines = ["title: bench 256 vnodes", "table: {columns: [a:int, id], locality: [a], stream_key: [id]}",
    "vnodes: {count: 256}", "chunk_size: 4", "steps:", "  - barrier: 1"];
  const rows = [];
  for (let i = 0; i < 1024; i++) rows.push(`"+ ${i} ${i}"`);
  lines.push(`  - chunk: [${rows.join(", ")}]`, "  - barrier: {epoch: 2, start_backfill: [1]}");
  let epoch = 2;
  for (let k = 0; k < 40; k++) {
    lines.push("  - snapshot: 16", `  - chunk: ["+ ${2000 + k} ${2000 + k}"]`, `  - barrier: ${++epoch}`);
  }
  return lines.join("\n") + "\n";
}

// long10k is a 10,000-step scenario: a buffering actor taking chunk+barrier pairs.
function long10k() {
  const lines = ["title: bench 10000 steps", "table: {columns: [a, id], locality: [a], stream_key: [id]}",
    "vnodes: {count: 4, rule: modulo}", "chunk_size: 4", "steps:", "  - barrier: 1"];
  let epoch = 1;
  for (let i = 0; lines.length - 5 < 10000; i++) lines.push(`  - chunk: ["+ ${i} ${i}"]`, `  - barrier: ${++epoch}`);
  return lines.slice(0, 5 + 10000).join("\n") + "\n";
}

async function generated(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL("index.html", url).href);
  await waitReady(page);
  const result = await page.evaluate(async ({ wide, long, passes }) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    await window.explainer.load(wide);
    const wideSteps = await window.explainer.steps();
    const step = [];
    for (let p = 0; p < Math.min(passes, 2); p++) {
      await window.explainer.goto(0);
      await frame();
      for (let i = 0; i < wideSteps; i++) {
        const t0 = performance.now();
        await window.explainer.step();
        await frame();
        step.push(performance.now() - t0);
      }
    }
    let t0 = performance.now();
    await window.explainer.load(long);
    await frame();
    const loadLong = performance.now() - t0;
    const longSteps = await window.explainer.steps();
    const gotoLast = [];
    for (let p = 0; p < passes; p++) {
      await window.explainer.load(long); // a fresh timeline: nothing kept yet
      await frame();
      t0 = performance.now();
      await window.explainer.goto(longSteps);
      await frame();
      gotoLast.push(performance.now() - t0);
    }
    const back = [];
    for (let p = 0; p < passes; p++) {
      t0 = performance.now();
      await window.explainer.goto(Math.floor(longSteps / 2) + p);
      await frame();
      back.push(performance.now() - t0);
    }
    return { wideSteps, step, longSteps, loadLong, gotoLast, back };
  }, { wide: wide256(), long: long10k(), passes: PASSES });
  await context.close();
  return result;
}

async function stepping(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL("index.html", url).href);
  await waitReady(page);
  const result = await page.evaluate(async ({ scenario, passes }) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const names = (await window.explainer.scenarios()).map((s) => s.name);
    const name = names.includes(scenario) ? scenario : names[0];
    await window.explainer.open(name);
    const steps = await window.explainer.steps();
    const step = [];
    const gotoLast = [];
    for (let p = 0; p < passes; p++) {
      await window.explainer.goto(0);
      await frame();
      for (let i = 0; i < steps; i++) {
        const t0 = performance.now();
        await window.explainer.step();
        await frame();
        step.push(performance.now() - t0);
      }
      await window.explainer.goto(0);
      await frame();
      const t0 = performance.now();
      await window.explainer.goto(steps);
      await frame();
      gotoLast.push(performance.now() - t0);
    }
    return { name, steps, step, gotoLast };
  }, { scenario: SCENARIO, passes: PASSES });
  await context.close();
  return result;
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const version = browser.version();
  const cold = await coldLoads(browser, server.url);
  const walk = await stepping(browser, server.url);
  const gen = await generated(browser, server.url);
  const size = distSizes();

  console.log(`backfill explainer benchmark — chromium ${version}, ${server.url}`);
  console.log(`cold load to explainer.ready (median of ${RUNS}): ${ms(median(cold.inPage))} from navigation start` +
    ` (min ${ms(Math.min(...cold.inPage))}, max ${ms(Math.max(...cold.inPage))}); wall ${ms(median(cold.wall))}`);
  console.log(`step + render, ${walk.name} (${walk.steps} steps × ${PASSES} passes = ${walk.step.length} samples):` +
    ` p50 ${ms(quantile(walk.step, 0.5))}, p95 ${ms(quantile(walk.step, 0.95))}, max ${ms(Math.max(...walk.step))}`);
  console.log(`goto(${walk.steps}) from 0 + render (median of ${PASSES}): ${ms(median(walk.gotoLast))}`);
  console.log(`step + render, 256 vnodes (${gen.wideSteps} steps, ${gen.step.length} samples):` +
    ` p50 ${ms(quantile(gen.step, 0.5))}, p95 ${ms(quantile(gen.step, 0.95))}`);
  console.log(`${gen.longSteps}-step scenario: load (parse + check every step) ${ms(gen.loadLong)};` +
    ` goto(last) from a fresh timeline + render (median of ${PASSES}) ${ms(median(gen.gotoLast))};` +
    ` then goto(middle) ${ms(median(gen.back))}`);
  console.log(`dist/ served site: ${kib(size.site.raw)} raw, ${kib(size.site.gzip)} gzip -9`);
  if (size.wasm) console.log(`  of which explainer.wasm: ${kib(size.wasm.raw)} raw, ${kib(size.wasm.gzip)} gzip -9`);
  if (size.offline) console.log(`dist/explainer-offline.html: ${kib(size.offline.raw)} raw, ${kib(size.offline.gzip)} gzip -9`);
  console.log(JSON.stringify({
    chromium: version,
    cold_load_ms: { median: median(cold.inPage), runs: cold.inPage },
    step_render_ms: { scenario: walk.name, p50: quantile(walk.step, 0.5), p95: quantile(walk.step, 0.95), samples: walk.step.length },
    goto_last_ms: { median: median(walk.gotoLast), steps: walk.steps },
    wide256_step_render_ms: { p50: quantile(gen.step, 0.5), p95: quantile(gen.step, 0.95), samples: gen.step.length },
    long10k_ms: { steps: gen.longSteps, load: gen.loadLong, goto_last_median: median(gen.gotoLast), goto_middle_median: median(gen.back) },
    size_bytes: size,
  }));
} finally {
  await browser.close();
  await server.close();
}
