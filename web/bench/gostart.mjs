// gostart.mjs — the Go side of start-up and of a step, for one or more builds of the wasm: how
// long compiling takes, how long from instantiating to globalThis.__backfillReady (wasm/main.go),
// the calls the page makes at start (legend, glossary, scenarios, bugs, then open of the first
// built-in, which answers with its view), and the step call on a 256-vnode scenario
// (web/bench/scenarios.mjs's wide256: each step's view carries 256 builders, lanes and progress
// rows). Each run starts cold: a fresh Node process, or (BROWSER=1) a fresh Chromium context
// (/usr/bin/chromium; CHROMIUM= to change), the wasm fetched from a local server. The builds
// alternate run by run, so a shared machine's noise falls on all of them alike. It reports
// medians per build, and each build's ratio to the first. Only reports: no thresholds.
//
//   GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o /tmp/new.wasm ./wasm
//   RUNS=9 node web/bench/gostart.mjs /tmp/old.wasm /tmp/new.wasm
//   BROWSER=1 RUNS=9 node web/bench/gostart.mjs /tmp/old.wasm /tmp/new.wasm
//
// A build may be a floor: a main that only calls __backfillReady (then only compile and ready
// are timed). The Go that built each file must match $(go env GOROOT)/lib/wasm/wasm_exec.js
// (WASM_EXEC= to use another). FIRST_VIEW_ONLY=1 stops each run at the first view (for
// node --cpu-prof … --child FILE). The last line is the medians as one JSON object.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { wide256 } from "./scenarios.mjs"; // (its text goes into the browser runner's page too)

const RUNS = Number(process.env.RUNS || 7);
const STEPS = Number(process.env.STEPS || 40); // steps timed on the 256-vnode scenario

if (process.argv[2] === "--child") {
  await child(process.argv[3]);
} else {
  await parent(process.argv.slice(2));
}

function wasmExec() {
  if (process.env.WASM_EXEC) return process.env.WASM_EXEC;
  const r = spawnSync("go", ["env", "GOROOT"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error("go env GOROOT failed: " + r.stderr);
  return r.stdout.trim() + "/lib/wasm/wasm_exec.js";
}

async function parent(files) {
  if (!files.length) {
    console.error("usage: [BROWSER=1] node web/bench/gostart.mjs A.wasm [B.wasm …]");
    process.exit(2);
  }
  const exec = wasmExec();
  const runOne = process.env.BROWSER ? await browserRunner(files, exec) : nodeRunner(files, exec);
  const results = files.map(() => []);
  try {
    for (let r = 0; r < RUNS; r++) {
      const order = files.map((_, i) => i);
      if (r % 2) order.reverse();
      for (const i of order) results[i].push(await runOne(i));
    }
  } finally {
    await runOne.close?.();
  }
  const median = (xs) => {
    xs = xs.filter((x) => x !== undefined);
    if (!xs.length) return NaN;
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const keys = [...new Set(results.flatMap((rs) => Object.keys(rs[0])))];
  const medians = results.map((rs) => Object.fromEntries(keys.map((k) => [k, median(rs.map((x) => x[k]))])));
  const w = Math.max(...keys.map((k) => k.length));
  console.log(`${process.env.BROWSER ? "Chromium" : "Node"}, ${RUNS} runs each, medians (ms, bytes); ratio: build ÷ ${files[0]}`);
  console.log("".padEnd(w) + files.map((f) => f.slice(-28).padStart(30)).join(""));
  for (const k of keys) {
    let line = k.padEnd(w);
    medians.forEach((m, i) => {
      const ratio = i > 0 && medians[0][k] ? ` (${(m[k] / medians[0][k]).toFixed(2)})` : "";
      line += (fmt(m[k]) + ratio).padStart(30);
    });
    console.log(line);
  }
  console.log(JSON.stringify(Object.fromEntries(files.map((f, i) => [f, medians[i]]))));
}

function fmt(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2); }

// nodeRunner runs build i in a fresh Node process.
function nodeRunner(files, exec) {
  return async (i) => {
    const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", files[i]],
      { encoding: "utf8", env: { ...process.env, WASM_EXEC: exec }, maxBuffer: 64 << 20 });
    if (c.status !== 0) throw new Error(`run of ${files[i]} failed (${c.status ?? c.signal}):\n${c.stderr}${c.stdout}`);
    return JSON.parse(c.stdout.trim().split("\n").pop());
  };
}

// browserRunner runs build i in a fresh Chromium context, the wasm served by a local server.
async function browserRunner(files, exec) {
  const { launchBrowser } = await import("../test/harness.mjs");
  const page = `<!doctype html><meta charset="utf-8"><script src="/wasm_exec.js"></script><script>
${measure.toString()}
${wide256.toString()}
const file = new URLSearchParams(location.search).get("wasm");
measure(async () => new Uint8Array(await (await fetch(file)).arrayBuffer()), ${STEPS}, false)
  .then((t) => { window.__result = t; }, (e) => { window.__error = String(e && e.stack || e); });
</script>`;
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    let body, type = "application/wasm";
    if (url.pathname === "/") [body, type] = [page, "text/html"];
    else if (url.pathname === "/wasm_exec.js") [body, type] = [readFileSync(exec), "text/javascript"];
    else if (url.pathname.startsWith("/w/")) body = readFileSync(files[Number(url.pathname.slice(3))]);
    else { res.writeHead(404).end(); return; }
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchBrowser();
  const run = async (i) => {
    const context = await browser.newContext();
    try {
      const p = await context.newPage();
      await p.goto(`${base}?wasm=/w/${i}`);
      await p.waitForFunction(() => window.__result || window.__error, null, { timeout: 120000 });
      const err = await p.evaluate(() => window.__error);
      if (err) throw new Error(`run of ${files[i]} failed: ${err}`);
      return await p.evaluate(() => window.__result);
    } finally {
      await context.close();
    }
  };
  run.close = async () => { await browser.close(); server.close(); };
  return run;
}

async function child(file) {
  const require = createRequire(import.meta.url);
  globalThis.require = require;
  globalThis.fs = require("fs");
  globalThis.path = require("path");
  require(process.env.WASM_EXEC);
  const t = await measure(async () => readFileSync(file), STEPS, !!process.env.FIRST_VIEW_ONLY);
  console.log(JSON.stringify(t));
  process.exit(0);
}

// measure times one cold start of a build, its start-up calls and its steps at 256 vnodes. It
// runs under Node and, as its source text, in the browser: it uses only globals of both.
async function measure(load, steps, firstViewOnly) {
  const t = {};
  const now = () => performance.now();
  const bytes = await load();
  let t0 = now();
  const mod = await WebAssembly.compile(bytes);
  t.compile = now() - t0;
  const go = new globalThis.Go();
  t0 = now();
  const inst = await WebAssembly.instantiate(mod, go.importObject);
  const api = await new Promise((resolve, reject) => {
    globalThis.__backfillReady = resolve;
    go.run(inst).then(() => reject(new Error("the Go program exited")), reject);
  });
  t.ready = now() - t0;
  if (typeof api.call !== "function") return t; // a floor: an empty main that only signals readiness
  const call = (method, arg) => {
    const s = now();
    const raw = api.call(method, arg === undefined ? "null" : JSON.stringify(arg));
    const ms = now() - s;
    const res = JSON.parse(raw);
    if (res.error) throw new Error(`${method}: ${res.error.message}`);
    return { ms, bytes: raw.length, ok: res.ok };
  };
  // the page's start-up calls (web/boot/app.js, web/teach/teach.js), then the first built-in's view
  t.legend = call("legend").ms;
  t.glossary = call("glossary").ms;
  const list = call("scenarios");
  t.scenarios = list.ms;
  t.bugs = call("bugs").ms;
  t.open_first = call("open", list.ok[0].name).ms;
  t.view_first = call("view").ms;
  t.to_first_view = now() - t0;
  t.open_again = call("open", list.ok[0].name).ms; // the same, warm: what open_first spent warming up is the difference
  if (firstViewOnly) return t;
  // the step call at 256 vnodes
  t.load_wide256 = call("load", wide256()).ms;
  const times = [];
  let bytesStep = 0;
  for (let i = 0; i < steps; i++) {
    const r = call("step");
    times.push(r.ms);
    bytesStep = Math.max(bytesStep, r.bytes);
  }
  times.sort((a, b) => a - b);
  t.step256_p50 = times[Math.floor(times.length / 2)];
  t.step256_bytes = bytesStep;
  t.memory = inst.exports.mem.buffer.byteLength;
  return t;
}
