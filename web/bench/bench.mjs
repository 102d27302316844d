// bench.mjs — the page's speed and size against its goals, each measured in this one run against
// a floor this run builds and serves itself: an empty Go wasm page (internal/tools/floorwasm, a
// main that only sets a global; web/bench/floor/). It only reports (no thresholds, never a failing
// exit for a missed goal): benchmarks are noisy on a shared machine, so every goal is a ratio of
// medians or quantiles taken in the same run, printed beside its target with the absolute figures.
//
//   cold load    fresh browser context per run, the page and the floor alternating, both served
//                by bin/backfill serve; in-page time from navigation start to explainer.ready
//                (a build with stored views: the mark explainer:interactive; the floor: to its
//                global being set); median of BENCH_RUNS; also the first view (the first view the
//                page renders, to the next frame)
//   first view   a deep link and a docs page with one element, alternating with the above: the
//                marks explainer:first-view and explainer:interactive, and the bytes fetched before
//                the first view (issue 30's goals)
//   size         gzip -9 of everything a visitor may download (dist/ without the offline file),
//                the offline file raw (what a person downloads or mails), the floor's gzip
//   step+render  explainer.step() until its frame is rendered: to a task posted from the next
//                requestAnimationFrame callback, which runs after that frame's style, layout and paint
//                (a rAF callback itself runs before them). p95 on a generated 256-vnode scenario (4,096
//                rows, crc32 placement, chunk_size 8) and on happy-path: the ratio's goal. And the same
//                steps' work: the step's call plus that frame's rendering (from its requestAnimationFrame
//                callback, with which a frame's rendering starts), without the wait for the frame: the ≤ 16 ms goal's (a step
//                whose work fits in 16 ms is on screen at the next frame; "until its frame" adds up to
//                one frame interval, ~16.7 ms here, to whatever the work is, so it cannot be ≤ 16 ms at
//                p95). The walk waits for each frame's rendering before the next step, so no sample
//                carries the rendering of the one before.
//                and the same first-view loads and the floor's on an emulated visitor's line
//                (LINE: 10 Mbit/s, 40 ms RTT; BENCH_NET_RUNS, default 5, 0 skips them): on localhost
//                the CPU decides, on a line the bytes do; both are printed
//   goto         goto(10000) on a 10,000-step scenario, from a just-loaded timeline, to the next frame
//   engine       the same Go benchmarks native, under Node and in Chromium (go test -c for js/wasm, run
//                in a page); ratio native ns/op ÷ wasm ns/op. The goal's: scenarios.BenchmarkScaleMillionRows,
//                the large scenario as the product runs it (the built-in million-rows: parsing, the run
//                with the collector relaxed as `backfill run` and the page's scale worker relax it, the
//                summary's JSON), 3 runs each. Beside it, engine.BenchmarkWorkload100K (100,000 rows,
//                the engine alone under the default collector: the run the page never makes), 2 runs.
//
//   ./build.sh build && node web/bench/bench.mjs          (./build.sh bench does both)
//   BENCH_RUNS=9 BENCH_PASSES=5 BENCH_ENGINE=0 node web/bench/bench.mjs   (BENCH_ENGINE=0: skip the Go part)
//   BENCH_ONLY=cold BENCH_RUNS=11 node web/bench/bench.mjs               (cold loads and sizes only)
//   BENCH_ONLY=step BENCH_PASSES=5 node web/bench/bench.mjs              (step+render walks and goto only)
//   BENCH_BASELINE_DIST=/tmp/old/dist node web/bench/bench.mjs  (also cold-load another build, e.g. main's,
//                in the same alternation, and walk it right after this build's walks: before/after of a
//                change in one run)
//
// The last line is the same numbers as one JSON object, for scripts.

import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { DIST, ROOT, startServer, launchBrowser, waitReady } from "../test/harness.mjs";
import { long10k, wide256 } from "./scenarios.mjs";

const RUNS = Number(process.env.BENCH_RUNS || 7);        // cold loads of each page
const PASSES = Number(process.env.BENCH_PASSES || 5);    // walks over happy-path, gotos on the long scenario
const ONLY = process.env.BENCH_ONLY || "";                // "cold": the cold loads and sizes only; "step": the walks and goto only
const ENGINE = process.env.BENCH_ENGINE !== "0" && !ONLY;
const COLD = ONLY !== "step";
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST || "";
const WELCOMED_KEY = "backfill-explainer:welcomed";      // web/help/help.js: no first-visit card in the walks

function quantile(xs, q) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i];
}
const median = (xs) => quantile(xs, 0.5);
const ms = (x) => `${x.toFixed(1)} ms`;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
const gz = (data) => gzipSync(data, { level: 9 }).length;

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status ?? r.signal}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}
const goroot = () => run("go", ["env", "GOROOT"]).trim();
// The network the cold loads of the first-view goals run on: localhost (CPU only), and a visitor's
// line (BENCH_NET_RUNS loads each; 0 skips it): Chromium's network emulation, on every request of
// the page and its frames, the floor's too.
const NET_RUNS = Number(process.env.BENCH_NET_RUNS ?? 5);
const LINE = { name: "10 Mbit/s down, 5 up, 40 ms RTT", latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 5e6 / 8 };
let net = null; // the conditions of the loads under way (null: localhost as it is)
async function emulateNet(page) {
  if (!net) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: net.latency, downloadThroughput: net.downloadThroughput, uploadThroughput: net.uploadThroughput });
}
const DEEP_LINK = "#scenario=fatal-upstream-end&step=9"; // the first-view goals' deep link
const DOCS_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title><link rel="icon" href="data:,">' +
  '<script type="module" src="../web/element.js"></script></head><body><p>A documentation page.</p>' +
  '<backfill-explainer scenario="fatal-upstream-end" step="9"></backfill-explainer></body></html>';

// buildFloor makes the floor's site in a temporary directory: web/bench/floor/ with floor.wasm
// (built like the page's wasm), Go's wasm_exec.js and, for the engine's Chromium run, the engine's
// test binary.
function buildFloor() {
  const dir = mkdtempSync(join(tmpdir(), "backfill-floor-"));
  const wasmEnv = { GOOS: "js", GOARCH: "wasm" };
  run("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", join(dir, "floor.wasm"), "./internal/tools/floorwasm"], wasmEnv);
  copyFileSync(join(goroot(), "lib/wasm/wasm_exec.js"), join(dir, "wasm_exec.js"));
  for (const f of readdirSync(join(ROOT, "web/bench/floor"))) copyFileSync(join(ROOT, "web/bench/floor", f), join(dir, f));
  if (ENGINE) for (const b of ENGINE_BENCHES) run("go", ["test", "-c", "-o", join(dir, b.bin), b.pkg], wasmEnv);
  return dir;
}

function siteSizes(dir, skip = () => false) {
  const out = { raw: 0, gzip: 0, files: {} };
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) { walk(p); continue; }
      const rel = relative(dir, p);
      if (skip(rel)) continue;
      const data = readFileSync(p);
      const size = { raw: data.length, gzip: gz(data) };
      out.files[rel] = size;
      out.raw += size.raw;
      out.gzip += size.gzip;
    }
  };
  walk(dir);
  return out;
}

// coldLoad opens url in a fresh context (an empty cache) and returns, in the page's clock, when
// window.explainer.ready resolved (or the floor set its global), and when the first view the
// page rendered reached the next frame.
async function coldLoad(browser, url, { floor }) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(() => {
      // explainer.ready: hook the assignment of window.explainer and its ready at once.
      let value;
      Object.defineProperty(window, "explainer", {
        configurable: true,
        get: () => value,
        set: (x) => {
          value = x;
          // (a build with stored views, start.js's __backfillViews: asking for ready would load the
          // engine before the first view; its ready is the mark explainer:interactive)
          if (typeof globalThis.__backfillViews === "function") return;
          Promise.resolve(x && x.ready).then(() => { window.__benchReadyAt = performance.now(); }, () => {});
        },
      });
      window.addEventListener("explainer:change", () => {
        if (window.__benchViewAt === undefined) {
          window.__benchViewAt = null;
          requestAnimationFrame(() => { window.__benchViewAt = performance.now(); });
        }
      });
    });
    const page = await context.newPage();
    await emulateNet(page);
    await page.goto(url);
    if (floor) {
      await page.waitForFunction(() => typeof window.__benchReadyAt === "number", null, { timeout: 30000 });
      return { ready: await page.evaluate(() => window.__benchReadyAt), view: NaN };
    }
    if (await page.evaluate(() => typeof globalThis.__backfillViews === "function")) {
      await page.waitForFunction(() => performance.getEntriesByName("explainer:interactive").length > 0, null, { timeout: 60000 });
      await page.evaluate(() => { window.__benchReadyAt = performance.getEntriesByName("explainer:interactive")[0].startTime; });
    } else {
      await waitReady(page, { timeoutMs: 30000 });
    }
    await page.waitForFunction(() => typeof window.__benchViewAt === "number", null, { timeout: 30000 });
    const [ready, view] = await page.evaluate(() => [window.__benchReadyAt, window.__benchViewAt]);
    if (typeof ready !== "number") throw new Error("could not time explainer.ready (window.explainer was not assigned?)");
    return { ready, view };
  } finally {
    await context.close();
  }
}

// firstViewLoad opens url (a deep link, or a documentation page with one element: its frame's
// marks) in a fresh context and returns, on the top page's clock, the marks explainer:first-view
// and (the main page fetches the engine after its first view) explainer:interactive, and the
// bytes fetched (on the wire, the document included) before the first view.
async function firstViewLoad(browser, url, { docs = null, interactive = true } = {}) {
  const context = await browser.newContext();
  try {
    if (docs) await context.route(url, (route) => route.fulfill({ body: docs, contentType: "text/html" }));
    const page = await context.newPage();
    await emulateNet(page);
    await page.goto(url);
    const frame = docs ? await (await page.waitForSelector("backfill-explainer iframe", { timeout: 30000 })).contentFrame() : page;
    const marks = ["explainer:first-view", ...(interactive ? ["explainer:interactive"] : [])];
    for (const m of marks) await frame.waitForFunction((m) => performance.getEntriesByName(m).length > 0, m, { timeout: 60000, polling: 20 });
    const top = await page.evaluate(() => performance.timeOrigin);
    const read = (f) => f.evaluate(() => {
      const fv = performance.getEntriesByName("explainer:first-view")[0]?.startTime ?? Infinity;
      const at = (m) => performance.getEntriesByName(m)[0]?.startTime ?? NaN;
      const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
      return { origin: performance.timeOrigin, fv: at("explainer:first-view"), ia: at("explainer:interactive"),
        bytes: entries.filter((e) => e.startTime < fv).reduce((n, e) => n + (e.transferSize || 0), 0) };
    });
    const f = await read(frame);
    const shift = f.origin - top;
    const bytes = f.bytes + (docs ? (await read(page)).bytes : 0);
    return { firstView: f.fv + shift, interactive: f.ia + shift, bytes };
  } finally {
    await context.close();
  }
}

// firstViews: one load of the deep link and one of the docs page with one element, each figure
// pushed onto deep's and docs' lists
async function firstViews(browser, pageURL, deep, docs) {
  const d = await firstViewLoad(browser, pageURL + DEEP_LINK);
  for (const k of Object.keys(deep)) deep[k].push(d[k]);
  const e = await firstViewLoad(browser, new URL("docs/bench.html", pageURL).href, { docs: DOCS_PAGE, interactive: false });
  docs.firstView.push(e.firstView);
  docs.bytes.push(e.bytes);
}

async function coldLoads(browser, pageURL, floorURL, baselineURL) {
  // One load of each first, not counted: the server's first answer of a file (reading it,
  // compressing it) is the server's start-up, not a visitor's load.
  await coldLoad(browser, pageURL, { floor: false });
  await coldLoad(browser, floorURL, { floor: true });
  if (baselineURL) await coldLoad(browser, baselineURL, { floor: false });
  const page = [], view = [], floor = [], base = [], baseView = [];
  const deep = { firstView: [], interactive: [], bytes: [] }, docs = { firstView: [], bytes: [] };
  for (let i = 0; i < RUNS; i++) { // alternate, so all see the same machine
    const p = await coldLoad(browser, pageURL, { floor: false });
    page.push(p.ready);
    view.push(p.view);
    await firstViews(browser, pageURL, deep, docs);
    floor.push((await coldLoad(browser, floorURL, { floor: true })).ready);
    if (baselineURL) {
      const b = await coldLoad(browser, baselineURL, { floor: false });
      base.push(b.ready);
      baseView.push(b.view);
    }
  }
  return { page, view, floor, base, baseView, deep, docs };
}

// lineLoads: the first-view loads and the floor's, alternating, on the emulated line (LINE)
async function lineLoads(browser, pageURL, floorURL) {
  net = LINE;
  try {
    const deep = { firstView: [], interactive: [], bytes: [] }, docs = { firstView: [], bytes: [] }, floor = [];
    for (let i = 0; i < NET_RUNS; i++) {
      await firstViews(browser, pageURL, deep, docs);
      floor.push((await coldLoad(browser, floorURL, { floor: true })).ready);
    }
    return { deep, docs, floor };
  } finally {
    net = null;
  }
}

async function openWelcomed(browser, url) {
  const origin = new URL(url).origin;
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [{ origin, localStorage: [{ name: WELCOMED_KEY, value: "1" }] }] },
  });
  const page = await context.newPage();
  await page.goto(new URL("index.html", url).href);
  await waitReady(page);
  return { context, page };
}

// walks: step+render over happy-path (PASSES walks) and over wide256 (one walk), interleaved
// pass by pass so that both see the same machine; then goto(last) on long10k.
async function walks(browser, url) {
  const { context, page } = await openWelcomed(browser, url);
  try {
    return await page.evaluate(async ({ wide, long, passes }) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      const walk = async (load) => {
        await load();
        const steps = await window.explainer.steps();
        await window.explainer.goto(0);
        await frame();
        const out = [], work = [];
        for (let i = 0; i < steps; i++) {
          const t0 = performance.now();
          await window.explainer.step();
          const t1 = performance.now();
          // the next frame: its start (rAF's timestamp), and the end of its rendering (a task
          // posted from the rAF callback runs after the frame's style, layout and paint)
          const [begin, end] = await new Promise((r) => requestAnimationFrame(() => {
            const at = performance.now(); // the frame's rendering starts with its rAF callbacks
            const ch = new MessageChannel();
            ch.port1.onmessage = () => r([at, performance.now()]);
            ch.port2.postMessage(0);
          }));
          out.push(end - t0);
          work.push((t1 - t0) + (end - begin));
        }
        return { out, work };
      };
      const happy = [], wideStep = [], happyWork = [], wideWork = [];
      let wideSteps = 0;
      for (let p = 0; p < passes; p++) {
        const hw = await walk(() => window.explainer.open("happy-path"));
        happy.push(...hw.out);
        happyWork.push(...hw.work);
        if (p === Math.floor(passes / 2)) {
          const w = await walk(() => window.explainer.load(wide));
          wideSteps = w.out.length;
          wideStep.push(...w.out);
          wideWork.push(...w.work);
        }
      }
      const happySteps = happy.length / passes;
      let t0 = performance.now();
      await window.explainer.load(long);
      await frame();
      const loadLong = performance.now() - t0;
      const longSteps = await window.explainer.steps();
      const gotoLast = [];
      for (let p = 0; p < passes; p++) {
        await window.explainer.load(long); // a just-loaded timeline at step 0
        await frame();
        t0 = performance.now();
        await window.explainer.goto(longSteps);
        await frame();
        gotoLast.push(performance.now() - t0);
      }
      return { happy, happySteps, wideStep, wideSteps, happyWork, wideWork, longSteps, loadLong, gotoLast };
    }, { wide: wide256(), long: long10k(), passes: PASSES });
  } finally {
    await context.close();
  }
}

// Engine: the same Go benchmarks native, under Node and in Chromium.
// A whole run per op, a fixed number of ops: the same work in all three places.
// (the first is the goal's; see the header)
const ENGINE_BENCHES = [
  { pkg: "./scenarios", bin: "scenarios.test.wasm", bench: "^BenchmarkScaleMillionRows$", times: "3x" },
  { pkg: "./engine", bin: "engine.test.wasm", bench: "^BenchmarkWorkload100K$", times: "2x" },
];

function parseBench(out) {
  const r = {};
  for (const m of out.matchAll(/^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns\/op/gm)) r[m[1]] = Number(m[2]);
  return r;
}

async function engineBench(browser, floorURL) {
  const native = {}, node = {}, chromium = {};
  for (const b of ENGINE_BENCHES) {
    const args = ["-run", "^$", "-bench", b.bench, "-benchtime", b.times, b.pkg];
    Object.assign(native, parseBench(run("go", ["test", ...args])));
    Object.assign(node, parseBench(run("go", ["test", `-exec=${join(goroot(), "lib/wasm/go_js_wasm_exec")}`, ...args], { GOOS: "js", GOARCH: "wasm" })));
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      let out = "";
      page.on("console", (m) => { out += m.text() + "\n"; });
      const hash = encodeURIComponent(["-test.run=^$", `-test.bench=${b.bench}`, `-test.benchtime=${b.times}`].join(" "));
      await page.goto(new URL(`gotest.html?bin=${b.bin}#${hash}`, floorURL).href);
      await page.waitForFunction(() => window.__goTestDone === true, null, { timeout: 600000, polling: 500 });
      Object.assign(chromium, parseBench(out));
    } finally {
      await context.close();
    }
  }
  return { native, node, chromium };
}

function goalLine(name, measured, target, ok, detail) {
  const mark = Number.isNaN(measured) ? "?   " : ok ? "met " : "MISS";
  return `  ${mark} ${name.padEnd(44)} ${String(measured).padStart(8)}  (target ${target})  ${detail}`;
}

const floorDir = buildFloor();
const server = await startServer();
const floorServer = await startServer({ dir: floorDir });
const baselineServer = BASELINE_DIST ? await startServer({ dir: BASELINE_DIST }) : null;
const browser = await launchBrowser();
try {
  const version = browser.version();
  const pageURL = new URL("index.html", server.url).href;
  const floorURL = new URL("index.html", floorServer.url).href;
  const baselineURL = baselineServer ? new URL("index.html", baselineServer.url).href : "";
  const cold = COLD ? await coldLoads(browser, pageURL, floorURL, baselineURL)
    : { page: [], view: [], floor: [], base: [], baseView: [], deep: { firstView: [], interactive: [], bytes: [] }, docs: { firstView: [], bytes: [] } };
  const line = COLD && NET_RUNS > 0 ? await lineLoads(browser, pageURL, floorURL) : null;
  const w = ONLY === "cold" ? { happy: [], wideStep: [], happyWork: [], wideWork: [], gotoLast: [] } : await walks(browser, server.url);
  // with BENCH_BASELINE_DIST, the same walks on the other build, right after: before/after in one run
  const bw = baselineServer && ONLY !== "cold" ? await walks(browser, baselineServer.url) : null;
  const engine = ENGINE ? await engineBench(browser, floorServer.url) : null;

  const site = siteSizes(DIST, (rel) => rel === "explainer-offline.html");
  const offline = readFileSync(join(DIST, "explainer-offline.html"));
  const offlineSize = { raw: offline.length, gzip: gz(offline) };
  const floorSite = siteSizes(floorDir, (rel) => !["index.html", "floor.js", "floor.wasm", "wasm_exec.js"].includes(rel));
  const wasmSize = site.files["web/explainer.wasm"];

  const r2 = (x) => Math.round(x * 100) / 100;
  const coldRatio = r2(median(cold.page) / median(cold.floor));
  const happyP95 = quantile(w.happy, 0.95), wideP95 = quantile(w.wideStep, 0.95);
  const stepRatio = r2(wideP95 / happyP95);
  const wideWorkP95 = quantile(w.wideWork, 0.95);
  const gotoMs = median(w.gotoLast);

  let cpu = "unknown";
  try { cpu = (/^Model name:\s*(.+)$/m.exec(run("lscpu", [])) || [])[1] || cpu; } catch { /* no lscpu */ }
  console.log(`backfill explainer benchmark — ${cpu}, chromium ${version}; page ${server.url}, floor ${floorServer.url}`);
  console.log("goals (issue 9), each measured in this run:");
  console.log(goalLine("cold load: page ÷ floor (to ready)", coldRatio, "≤ 1.3", coldRatio <= 1.3,
    `page ${ms(median(cold.page))}, floor ${ms(median(cold.floor))} (medians of ${RUNS}); page's first view ${ms(median(cold.view))}`));
  const fvRatio = r2(median(cold.deep.firstView) / median(cold.floor)), iaRatio = r2(median(cold.deep.interactive) / median(cold.floor));
  const docsRatio = r2(median(cold.docs.firstView) / median(cold.floor));
  const kb = (xs) => Math.round(median(xs) / 100) / 10;
  if (COLD) console.log("goals (issue 30): the marks explainer:first-view and explainer:interactive, ÷ the floor's ready");
  if (COLD) console.log(goalLine("first view of a deep link ÷ floor", fvRatio, "≤ 0.8", fvRatio <= 0.8, `${ms(median(cold.deep.firstView))} (${DEEP_LINK})`));
  if (COLD) console.log(goalLine("first view, docs page with one element ÷ floor", docsRatio, "≤ 1.0", docsRatio <= 1.0, `${ms(median(cold.docs.firstView))}, in the element's frame`));
  if (COLD) console.log(goalLine("interactive (the engine answers) ÷ floor", iaRatio, "≤ 3.0", iaRatio <= 3.0, `${ms(median(cold.deep.interactive))}, the deep link`));
  if (COLD) console.log(goalLine("KB fetched before the first view: deep link", kb(cold.deep.bytes), "≤ 100", median(cold.deep.bytes) <= 100e3, "on the wire, the document included"));
  if (COLD) console.log(goalLine("KB fetched before the first view: docs page", kb(cold.docs.bytes), "≤ 100", median(cold.docs.bytes) <= 100e3, "the page and its element's frame"));
  let lineRatios = null;
  if (line) {
    const f = median(line.floor);
    lineRatios = { first_view: r2(median(line.deep.firstView) / f), docs: r2(median(line.docs.firstView) / f), interactive: r2(median(line.deep.interactive) / f) };
    console.log(`the same goals on an emulated line, ${LINE.name} (medians of ${NET_RUNS}; the floor's ready ${ms(f)}):`);
    console.log(goalLine("  first view of a deep link ÷ floor", lineRatios.first_view, "≤ 0.8", lineRatios.first_view <= 0.8, ms(median(line.deep.firstView))));
    console.log(goalLine("  first view, docs page with one element ÷ floor", lineRatios.docs, "≤ 1.0", lineRatios.docs <= 1.0, ms(median(line.docs.firstView))));
    console.log(goalLine("  interactive (the engine answers) ÷ floor", lineRatios.interactive, "≤ 3.0", lineRatios.interactive <= 3.0, ms(median(line.deep.interactive))));
  }
  if (baselineURL) {
    console.log(`       baseline build ${BASELINE_DIST}: ready ${ms(median(cold.base))} (${r2(median(cold.base) / median(cold.floor))}× the floor),` +
      ` first view ${ms(median(cold.baseView))}; this build's first view ÷ baseline's ${r2(median(cold.view) / median(cold.baseView))}`);
  }
  console.log(goalLine("served site gzip (MB)", r2(site.gzip / 1e6), "≤ 1.0", site.gzip <= 1e6,
    `${mb(site.gzip)} gzip, ${mb(site.raw)} raw; floor ${mb(floorSite.gzip)} gzip (${r2(site.gzip / floorSite.gzip)}×); explainer.wasm ${mb(wasmSize.gzip)} gzip, ${mb(wasmSize.raw)} raw`));
  console.log(goalLine("offline file (MB, raw)", r2(offlineSize.raw / 1e6), "≤ 1.5", offlineSize.raw <= 1.5e6,
    `${mb(offlineSize.raw)} raw, ${mb(offlineSize.gzip)} gzip`));
  if (ONLY !== "cold") {
    console.log(goalLine("step+render p95: 256 vnodes ÷ happy-path", stepRatio, "≤ 2", stepRatio <= 2,
      `256 vnodes p95 ${ms(wideP95)} p50 ${ms(quantile(w.wideStep, 0.5))} (${w.wideSteps} steps); happy-path p95 ${ms(happyP95)} p50 ${ms(quantile(w.happy, 0.5))} (${w.happySteps} steps × ${PASSES})`));
    console.log(goalLine("step+render work p95 at 256 vnodes (ms)", r2(wideWorkP95), "≤ 16", wideWorkP95 <= 16,
      `the step's work and its frame's rendering, without the wait for the frame (p50 ${ms(quantile(w.wideWork, 0.5))}; happy-path p95 ${ms(quantile(w.happyWork, 0.95))});` +
      ` until its frame is rendered ${ms(wideP95)}: a frame comes every ~16.7 ms, so that figure is at least the work and at most the work plus one frame`));
    console.log(goalLine(`goto(${w.longSteps}) + render (ms)`, r2(gotoMs), "≤ 50", gotoMs <= 50,
      `median of ${PASSES} from a just-loaded timeline; loading the ${w.longSteps}-step text took ${ms(w.loadLong)}`));
  }
  if (bw) {
    const bHappy = quantile(bw.happy, 0.95), bWide = quantile(bw.wideStep, 0.95);
    console.log(`       baseline build ${BASELINE_DIST}: step+render 256 vnodes p95 ${ms(bWide)} p50 ${ms(quantile(bw.wideStep, 0.5))}, happy-path p95 ${ms(bHappy)} p50 ${ms(quantile(bw.happy, 0.5))}` +
      ` (ratio ${r2(bWide / bHappy)}); work p95 at 256 vnodes ${ms(quantile(bw.wideWork, 0.95))}; goto(${bw.longSteps}) median ${ms(median(bw.gotoLast))}; this build ÷ baseline: 256-vnode p95 ${r2(wideP95 / bWide)}, p50 ${r2(quantile(w.wideStep, 0.5) / quantile(bw.wideStep, 0.5))}, goto ${r2(gotoMs / median(bw.gotoLast))}`);
  }
  const engineRatios = {};
  if (engine) {
    for (const [name, nat] of Object.entries(engine.native)) {
      for (const where of ["node", "chromium"]) {
        const wasm = engine[where][name];
        if (!wasm) continue;
        const ratio = r2(nat / wasm);
        engineRatios[`${name} ${where}`] = ratio;
        const detail = `native ${(nat / 1e6).toFixed(2)} ms/op, wasm ${(wasm / 1e6).toFixed(2)} ms/op`;
        const label = `${name.replace(/^Benchmark/, "")} (${where})`;
        if (ENGINE_BENCHES[0].bench === `^${name}$`) {
          console.log(goalLine(`engine: native ÷ wasm, ${label}`, ratio, "≥ 0.5", ratio >= 0.5, detail));
        } else {
          console.log(`       not the goal's: native ÷ wasm ${ratio}, ${label}: the engine alone under the default collector; ${detail}`);
        }
      }
    }
  }
  console.log(JSON.stringify({
    cpu, chromium: version,
    first_view_ms: { deep_link: cold.deep, docs: cold.docs, floor_median: median(cold.floor), first_view_ratio: fvRatio, docs_ratio: docsRatio, interactive_ratio: iaRatio,
      line: line ? { conditions: LINE, deep_link: line.deep, docs: line.docs, floor: line.floor, ratios: lineRatios } : null },
    cold_load_ms: { page_median: median(cold.page), floor_median: median(cold.floor), ratio: coldRatio, first_view_median: median(cold.view), page: cold.page, floor: cold.floor, view: cold.view,
      baseline: baselineURL ? { dist: BASELINE_DIST, ready_median: median(cold.base), first_view_median: median(cold.baseView), ready: cold.base, view: cold.baseView } : null },
    size_bytes: { site: { raw: site.raw, gzip: site.gzip }, wasm: wasmSize, offline: offlineSize, floor: { raw: floorSite.raw, gzip: floorSite.gzip } },
    step_render_ms: { happy_p95: happyP95, happy_p50: quantile(w.happy, 0.5), wide256_p95: wideP95, wide256_p50: quantile(w.wideStep, 0.5), ratio: stepRatio, happy_samples: w.happy.length, wide256_samples: w.wideStep.length,
      work: { happy_p95: quantile(w.happyWork, 0.95), happy_p50: quantile(w.happyWork, 0.5), wide256_p95: wideWorkP95, wide256_p50: quantile(w.wideWork, 0.5) } },
    long10k_ms: { steps: w.longSteps, load: w.loadLong, goto_last_median: gotoMs, goto_last: w.gotoLast },
    baseline_walks: bw ? { happy_p95: quantile(bw.happy, 0.95), wide256_p95: quantile(bw.wideStep, 0.95), wide256_p50: quantile(bw.wideStep, 0.5), wide256_work_p95: quantile(bw.wideWork, 0.95), goto_last_median: median(bw.gotoLast) } : null,
    engine_ns_per_op: engine, engine_ratio: engineRatios,
  }));
} finally {
  await browser.close();
  await server.close();
  await floorServer.close();
  await baselineServer?.close();
  rmSync(floorDir, { recursive: true, force: true });
}
