// scale.mjs — how fast scale mode is: a workload (default: the built-in million-rows, 1,000,000
// rows over 256 vnodes) run by explainer.scale in headless Debian chromium (in the page's scale
// worker, served by bin/backfill serve) against the native `bin/backfill run --json` of the same
// file. It only reports (no thresholds); the goals it prints are issue 10's: ≤ 3 s in the
// browser, ≤ 2× native.
//
//   cold: a fresh browser context each run (no cache; the worker starts, fetches and compiles
//         the wasm, then runs), timed from the call of explainer.scale to its summary.
//   warm: the same page again (the worker kept: engine started, memory grown).
//   native: bin/backfill run --json FILE, wall time of the process (and its peak RSS).
// Medians of N runs, with the machine named. The last line is the figures as one JSON object.
//
//   ./build.sh build && node web/bench/scale.mjs          (./build.sh bench does both)
//   SCALE_RUNS=7 SCALE_WORKLOAD=scenarios/workloads/upstream-ends-at-scale.yaml node web/bench/scale.mjs

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { ROOT, BACKFILL, startServer, launchBrowser, waitReady } from "../test/harness.mjs";

const RUNS = Number(process.env.SCALE_RUNS || 5);
const FILE = join(ROOT, process.env.SCALE_WORKLOAD || "scenarios/workloads/million-rows.yaml");

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const sec = (x) => `${(x / 1000).toFixed(2)} s`;
const mib = (n) => (n == null ? "?" : `${(n / 1048576).toFixed(0)} MiB`);

function native() {
  const wall = [];
  let rssKiB = null;
  const time = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
  let out = "";
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = time
      ? spawnSync(time, ["-f", "%M", BACKFILL, "run", "--json", FILE], { encoding: "utf8", maxBuffer: 1 << 28 })
      : spawnSync(BACKFILL, ["run", "--json", FILE], { encoding: "utf8", maxBuffer: 1 << 28 });
    wall.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`backfill run --json failed: ${r.stderr}`);
    out = r.stdout;
    if (time) rssKiB = Math.max(rssKiB ?? 0, Number(r.stderr.trim().split("\n").pop()) || 0);
  }
  return { wall, rssBytes: rssKiB ? rssKiB * 1024 : null, json: out };
}

async function inBrowser(browser, url, text) {
  const cold = [], warm = [], workerMs = [];
  let memory = null, json = null;
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await waitReady(page);
    const run = () => page.evaluate(async (t) => {
      const { internal } = await import("./web/explainer.js"); // the page's own module instance
      const t0 = performance.now();
      const s = await window.explainer.scale(t, { text: true });
      const ms = performance.now() - t0;
      return { ms, json: s, stats: internal.lastScale() };
    }, text);
    const c = await run();
    cold.push(c.ms);
    const w = await run();
    warm.push(w.ms);
    workerMs.push(w.stats?.runMs ?? NaN);
    memory = Math.max(memory ?? 0, c.stats?.memoryBytes ?? 0, w.stats?.memoryBytes ?? 0) || null;
    json = w.json;
    await context.close();
  }
  return { cold, warm, workerMs, memory, json };
}

const machine = `${cpus()[0]?.model?.trim() || "unknown CPU"}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at start`;
const chromium = (() => { try { return execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8" }).trim(); } catch { return "chromium"; } })();
console.log(`scale bench: ${FILE.replace(ROOT + "/", "")}, median of ${RUNS}; ${machine}; ${chromium}`);

const nat = native();
const server = await startServer();
const browser = await launchBrowser();
let b;
try {
  b = await inBrowser(browser, new URL("index.html#scenario=happy-path", server.url).href, readFileSync(FILE, "utf8"));
} finally {
  await browser.close().catch(() => {});
  await server.close();
}
if (b.json !== nat.json) console.log("!! the browser's summary differs from the native one");

const n = median(nat.wall), c = median(b.cold), w = median(b.warm);
const goal = (ok) => (ok ? "met" : "NOT met");
console.log(`native  backfill run --json  ${sec(n)}   (runs: ${nat.wall.map(sec).join(", ")}; peak RSS ${mib(nat.rssBytes)})`);
console.log(`browser cold (fresh context) ${sec(c)}   (runs: ${b.cold.map(sec).join(", ")})`);
console.log(`browser warm (worker kept)   ${sec(w)}   (runs: ${b.warm.map(sec).join(", ")}; in the worker: ${sec(median(b.workerMs))}; wasm memory ${mib(b.memory)})`);
console.log(`ratio browser/native: cold ${(c / n).toFixed(2)}×, warm ${(w / n).toFixed(2)}×`);
console.log(`goal ≤ 3 s in the browser: cold ${goal(c <= 3000)}, warm ${goal(w <= 3000)}; goal ≤ 2× native: cold ${goal(c <= 2 * n)}, warm ${goal(w <= 2 * n)}`);
console.log(JSON.stringify({
  workload: FILE.replace(ROOT + "/", ""), runs: RUNS, machine, chromium,
  native_ms: n, cold_ms: c, warm_ms: w, worker_run_ms: median(b.workerMs),
  ratio_cold: c / n, ratio_warm: w / n, wasm_memory_bytes: b.memory, native_rss_bytes: nat.rssBytes,
  same_summary: b.json === nat.json,
}));
