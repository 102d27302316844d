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
// N rounds (one native run, one cold and one warm browser run each, interleaved so both sides
// see the same load); medians and best runs, with the machine and its load named. The last line
// is the figures as one JSON object.
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

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; }; // (the lower middle)
const sec = (x) => `${(x / 1000).toFixed(2)} s`;
const mib = (n) => (n == null ? "?" : `${(n / 1048576).toFixed(0)} MiB`);

/** One native run: wall time, CPU time (user+sys) and peak RSS of bin/backfill run --json FILE. */
function nativeOnce() {
  const time = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
  const t0 = performance.now();
  const r = time
    ? spawnSync(time, ["-f", "%U %S %M", BACKFILL, "run", "--json", FILE], { encoding: "utf8", maxBuffer: 1 << 28 })
    : spawnSync(BACKFILL, ["run", "--json", FILE], { encoding: "utf8", maxBuffer: 1 << 28 });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`backfill run --json failed: ${r.stderr}`);
  let cpu = null, rss = null;
  if (time) {
    const [u, sy, m] = r.stderr.trim().split("\n").pop().split(" ").map(Number);
    cpu = (u + sy) * 1000;
    rss = m * 1024;
  }
  return { wall, cpu, rss, json: r.stdout };
}

/**
 * RUNS rounds, each: one native run, then a fresh browser context (cold: the worker starts,
 * fetches and compiles the wasm, runs) and the same page again (warm). Interleaved, so that both
 * sides see the same load on a shared machine.
 */
async function rounds(browser, url, text) {
  const out = { native: [], nativeCPU: [], cold: [], warm: [], worker: [], rss: null, memory: null, same: true };
  for (let i = 0; i < RUNS; i++) {
    const n = nativeOnce();
    out.native.push(n.wall);
    if (n.cpu != null) out.nativeCPU.push(n.cpu);
    out.rss = Math.max(out.rss ?? 0, n.rss ?? 0) || null;
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
    const w = await run();
    out.cold.push(c.ms);
    out.warm.push(w.ms);
    out.worker.push(w.stats?.runMs ?? NaN);
    out.memory = Math.max(out.memory ?? 0, c.stats?.memoryBytes ?? 0, w.stats?.memoryBytes ?? 0) || null;
    out.same &&= c.json === n.json && w.json === n.json;
    await context.close();
  }
  return out;
}

const machine = `${cpus()[0]?.model?.trim() || "unknown CPU"}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at start`;
const chromium = (() => { try { return execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim(); } catch { return "chromium"; } })();
console.log(`scale bench: ${FILE.replace(ROOT + "/", "")}, median of ${RUNS}; ${machine}; ${chromium}`);

const server = await startServer();
const browser = await launchBrowser();
let r;
try {
  r = await rounds(browser, new URL("index.html#scenario=happy-path", server.url).href, readFileSync(FILE, "utf8"));
} finally {
  await browser.close().catch(() => {});
  await server.close();
}
if (!r.same) console.log("!! the browser's summary differs from the native one");

const min = (xs) => Math.min(...xs);
const n = median(r.native), c = median(r.cold), w = median(r.warm);
const goal = (ok) => (ok ? "met" : "NOT met");
const runs = (xs) => xs.map(sec).join(", ");
console.log(`native  backfill run --json  median ${sec(n)}, best ${sec(min(r.native))}   (runs: ${runs(r.native)}; CPU user+sys median ${r.nativeCPU.length ? sec(median(r.nativeCPU)) : "?"}; peak RSS ${mib(r.rss)})`);
console.log(`browser cold (fresh context) median ${sec(c)}, best ${sec(min(r.cold))}   (runs: ${runs(r.cold)})`);
console.log(`browser warm (worker kept)   median ${sec(w)}, best ${sec(min(r.warm))}   (runs: ${runs(r.warm)}; in the worker: ${sec(median(r.worker))}; its wasm memory ${mib(r.memory)})`);
console.log(`ratio browser/native (medians): cold ${(c / n).toFixed(2)}×, warm ${(w / n).toFixed(2)}×; (best runs): cold ${(min(r.cold) / min(r.native)).toFixed(2)}×, warm ${(min(r.warm) / min(r.native)).toFixed(2)}×`);
console.log(`goal ≤ 3 s in the browser: cold ${goal(c <= 3000)}, warm ${goal(w <= 3000)}; goal ≤ 2× native: cold ${goal(c <= 2 * n)}, warm ${goal(w <= 2 * n)} (medians)`);
console.log(JSON.stringify({
  workload: FILE.replace(ROOT + "/", ""), runs: RUNS, machine, chromium,
  native_ms: n, native_best_ms: min(r.native), native_cpu_ms: r.nativeCPU.length ? median(r.nativeCPU) : null,
  cold_ms: c, cold_best_ms: min(r.cold), warm_ms: w, warm_best_ms: min(r.warm), worker_run_ms: median(r.worker),
  ratio_cold: c / n, ratio_warm: w / n, wasm_memory_bytes: r.memory, native_rss_bytes: r.rss, same_summary: r.same,
}));
