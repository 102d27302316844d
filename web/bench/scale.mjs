// scale.mjs — how fast scale mode is: a workload (default: the built-in million-rows, 1,000,000
// rows over 256 vnodes) run by explainer.scale in headless Debian chromium (in the page's scale
// worker, served by bin/backfill serve) against the native `bin/backfill run --json` of the same
// file. It only reports (no thresholds); the goals it prints are issue 10's: ≤ 3 s in the
// browser, ≤ 2× native.
//
//   cold: a fresh browser context each run (no cache), explainer.scale called as soon as the
//         page's engine is ready (the worker starts, instantiates the engine, then runs), timed
//         from the call to its summary.
//   warm: the same page again (the worker kept: engine started, memory grown).
//   panel: another fresh context, the Scale panel opened once the page has started (its picker
//         enabled), and explainer.scale called SCALE_SETTLE_MS (default 2000) later: what a reader
//         who opens "Scale…", chooses and presses Run meets (the panel starts the worker ahead and,
//         in this build, warms its engine up meanwhile). SCALE_SETTLE_MS=-1 leaves it out.
//   native: bin/backfill run --json FILE, wall time of the process (and its peak RSS).
// N rounds (one native run, one cold and one warm browser run each, interleaved so both sides
// see the same load); medians and best runs, with the machine and its load named. The last line
// is the figures as one JSON object.
//
// What the worker measured (its run alone, its wasm memory) is read from its last message (the
// page's Worker is wrapped by an init script to listen too), not from the page's modules: a test
// that imported web/boot/explainer.js would start a second engine on the page (and a built site
// holds the bundle, not that module).
//
//   ./build.sh build && node web/bench/scale.mjs          (./build.sh bench does both)
//   SCALE_RUNS=7 SCALE_WORKLOAD=scenarios/workloads/upstream-ends-at-scale.yaml node web/bench/scale.mjs
//   SCALE_BASELINE_DIST=/tmp/old/dist node web/bench/scale.mjs   (also another build, e.g. main's,
//                served by a second server, its runs in the same rounds, the order of the builds
//                alternating from round to round: before/after in one run; several builds: a
//                comma-separated list)

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { ROOT, BACKFILL, startServer, launchBrowser, waitReady } from "../test/harness.mjs";

const RUNS = Number(process.env.SCALE_RUNS || 5);
const BASELINES = (process.env.SCALE_BASELINE_DIST || "").split(",").filter(Boolean);
const SETTLE_MS = Number(process.env.SCALE_SETTLE_MS ?? 2000);
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

/** A fresh browser context on url: one cold run, then one warm (the same page again); or, with
 * settle, one run settle ms after the Scale panel opened on the started page. */
async function browserRuns(browser, url, text, { settle = null } = {}) {
  const context = await browser.newContext();
  try {
    // The worker's own figures from its last message: {ms (its run alone), memoryBytes}.
    await context.addInitScript(() => {
      const W = window.Worker;
      window.Worker = class extends W {
        constructor(...args) {
          super(...args);
          this.addEventListener("message", (ev) => {
            if (ev.data && ev.data.stats) window.__benchScaleStats = ev.data.stats;
            if (ev.data && ev.data.progress && window.__benchFirstProgress == null) window.__benchFirstProgress = performance.now();
          });
        }
      };
    });
    const page = await context.newPage();
    await page.goto(url);
    await waitReady(page);
    const run = () => page.evaluate(async (t) => {
      window.__benchScaleStats = null;
      window.__benchFirstProgress = null;
      const t0 = performance.now();
      const s = await window.explainer.scale(t, { text: true });
      const ms = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 0)); // the wrapper's listener runs after the page's
      return { ms, json: s, stats: window.__benchScaleStats, start: window.__benchFirstProgress - t0 };
    }, text);
    if (settle !== null) {
      await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false, null, { timeout: 30000 });
      await page.click('[data-testid="scale-btn"]');
      await page.waitForTimeout(settle);
      return { settled: await run() };
    }
    const cold = await run();
    const warm = await run();
    return { cold, warm };
  } finally {
    await context.close();
  }
}

/**
 * RUNS rounds, each: one native run, then a fresh browser context (cold: the worker starts,
 * fetches and compiles the wasm, runs) and the same page again (warm), on this build and, with a
 * baseline, on that one too (which of the two goes first alternates). Interleaved, so that every
 * side sees the same load on a shared machine.
 */
async function rounds(browser, urls, text) {
  const side = () => ({ cold: [], coldStart: [], warm: [], settled: [], worker: [], coldWorker: [], memory: null, same: true });
  const out = { native: [], nativeCPU: [], rss: null, builds: urls.map(side) };
  for (let i = 0; i < RUNS; i++) {
    const n = nativeOnce();
    out.native.push(n.wall);
    if (n.cpu != null) out.nativeCPU.push(n.cpu);
    out.rss = Math.max(out.rss ?? 0, n.rss ?? 0) || null;
    const order = urls.map((_, k) => k);
    if (i % 2) order.reverse();
    for (const k of order) {
      const { cold: c, warm: w } = await browserRuns(browser, urls[k], text);
      const o = out.builds[k];
      o.cold.push(c.ms);
      o.coldStart.push(c.start);
      o.coldWorker.push(c.stats?.ms ?? NaN);
      o.warm.push(w.ms);
      o.worker.push(w.stats?.ms ?? NaN);
      o.memory = Math.max(o.memory ?? 0, c.stats?.memoryBytes ?? 0, w.stats?.memoryBytes ?? 0) || null;
      o.same &&= c.json === n.json && w.json === n.json;
      if (SETTLE_MS >= 0) {
        const { settled: st } = await browserRuns(browser, urls[k], text, { settle: SETTLE_MS });
        o.settled.push(st.ms);
        o.same &&= st.json === n.json;
      }
    }
  }
  return out;
}

const machine = `${cpus()[0]?.model?.trim() || "unknown CPU"}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at start`;
const chromium = (() => { try { return execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim(); } catch { return "chromium"; } })();
console.log(`scale bench: ${FILE.replace(ROOT + "/", "")}, median of ${RUNS}; ${machine}; ${chromium}`);

const servers = [await startServer()];
for (const dir of BASELINES) servers.push(await startServer({ dir }));
const browser = await launchBrowser();
let r;
try {
  r = await rounds(browser, servers.map((sv) => new URL("index.html#scenario=happy-path", sv.url).href), readFileSync(FILE, "utf8"));
} finally {
  await browser.close().catch(() => {});
  for (const sv of servers) await sv.close();
}

const min = (xs) => Math.min(...xs);
const n = median(r.native);
const goal = (ok) => (ok ? "met" : "NOT met");
const runs = (xs) => xs.map(sec).join(", ");
console.log(`native  backfill run --json  median ${sec(n)}, best ${sec(min(r.native))}   (runs: ${runs(r.native)}; CPU user+sys median ${r.nativeCPU.length ? sec(median(r.nativeCPU)) : "?"}; peak RSS ${mib(r.rss)})`);
const figures = r.builds.map((b, k) => {
  const c = median(b.cold), w = median(b.warm), st = median(b.settled);
  const name = k ? `baseline ${BASELINES[k - 1]}` : "this build";
  if (r.builds.length > 1) console.log(`-- ${name}`);
  if (!b.same) console.log("!! the browser's summary differs from the native one");
  console.log(`browser cold (fresh context) median ${sec(c)}, best ${sec(min(b.cold))}   (runs: ${runs(b.cold)}; to the worker's first progress (its start, the parse, the run to its first pause): median ${sec(median(b.coldStart))}; the run in the worker: median ${sec(median(b.coldWorker))})`);
  console.log(`browser warm (worker kept)   median ${sec(w)}, best ${sec(min(b.warm))}   (runs: ${runs(b.warm)}; in the worker: ${sec(median(b.worker))}; its wasm memory ${mib(b.memory)})`);
  if (b.settled.length) console.log(`browser panel (run ${SETTLE_MS} ms after Scale… opened) median ${sec(st)}, best ${sec(min(b.settled))}   (runs: ${runs(b.settled)})`);
  console.log(`ratio browser/native (medians): cold ${(c / n).toFixed(2)}×, warm ${(w / n).toFixed(2)}×${b.settled.length ? `, panel ${(st / n).toFixed(2)}×` : ""}; (best runs): cold ${(min(b.cold) / min(r.native)).toFixed(2)}×, warm ${(min(b.warm) / min(r.native)).toFixed(2)}×`);
  console.log(`goal ≤ 3 s in the browser: cold ${goal(c <= 3000)}, warm ${goal(w <= 3000)}; goal ≤ 2× native: cold ${goal(c <= 2 * n)}, warm ${goal(w <= 2 * n)} (medians)`);
  return {
    cold_ms: c, cold_best_ms: min(b.cold), cold_to_first_progress_ms: median(b.coldStart), cold_worker_run_ms: median(b.coldWorker), warm_ms: w, warm_best_ms: min(b.warm), worker_run_ms: median(b.worker),
    panel_ms: b.settled.length ? st : null, ratio_panel: b.settled.length ? st / n : null,
    ratio_cold: c / n, ratio_warm: w / n, wasm_memory_bytes: b.memory, same_summary: b.same, cold: b.cold, warm: b.warm, panel: b.settled,
  };
});
for (const [k, b] of figures.entries()) {
  if (!k) continue;
  const a = figures[0];
  console.log(`this build ÷ ${BASELINES[k - 1]} (medians): cold ${(a.cold_ms / b.cold_ms).toFixed(2)}, warm ${(a.warm_ms / b.warm_ms).toFixed(2)}` +
    (a.panel_ms && b.panel_ms ? `, panel ${(a.panel_ms / b.panel_ms).toFixed(2)}` : ""));
}
console.log(JSON.stringify({
  workload: FILE.replace(ROOT + "/", ""), runs: RUNS, machine, chromium,
  native_ms: n, native_best_ms: min(r.native), native_cpu_ms: r.nativeCPU.length ? median(r.nativeCPU) : null, native: r.native,
  ...figures[0], native_rss_bytes: r.rss,
  baselines: figures.slice(1).map((f, k) => ({ dist: BASELINES[k], ...f })),
}));
