// gostart.mjs — the Go side of start-up and of a step, under Node, for one or more builds of
// the wasm: how long compiling takes, how long from instantiating to globalThis.__backfillReady
// (wasm/main.go), the calls the page makes at start (legend, glossary, scenarios, bugs, then
// open of the first built-in, which answers with its view), and the step call on a 256-vnode
// scenario (web/bench/bench.mjs's wide256: each step's view carries 256 builders, lanes and
// progress rows). Each run is a fresh Node process (nothing compiled is reused); the builds
// alternate run by run, so a shared machine's noise falls on all of them alike. It reports
// medians per build, and each build's ratio to the first. Only reports: no thresholds.
//
//   GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o /tmp/new.wasm ./wasm
//   RUNS=9 node web/bench/gostart.mjs /tmp/old.wasm /tmp/new.wasm
//
// The Go that built each file must match $(go env GOROOT)/lib/wasm/wasm_exec.js (WASM_EXEC=
// to use another). The last line is the medians as one JSON object.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const RUNS = Number(process.env.RUNS || 7);
const STEPS = Number(process.env.STEPS || 40); // steps timed on the 256-vnode scenario

if (process.argv[2] === "--child") {
  await child(process.argv[3]);
} else {
  parent(process.argv.slice(2));
}

function wasmExec() {
  if (process.env.WASM_EXEC) return process.env.WASM_EXEC;
  const r = spawnSync("go", ["env", "GOROOT"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error("go env GOROOT failed: " + r.stderr);
  return r.stdout.trim() + "/lib/wasm/wasm_exec.js";
}

function parent(files) {
  if (!files.length) {
    console.error("usage: node web/bench/gostart.mjs A.wasm [B.wasm …]");
    process.exit(2);
  }
  const exec = wasmExec();
  const results = files.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    const order = files.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", files[i]],
        { encoding: "utf8", env: { ...process.env, WASM_EXEC: exec }, maxBuffer: 64 << 20 });
      if (c.status !== 0) throw new Error(`run of ${files[i]} failed (${c.status ?? c.signal}):\n${c.stderr}${c.stdout}`);
      const line = c.stdout.trim().split("\n").pop();
      results[i].push(JSON.parse(line));
    }
  }
  const median = (xs) => { xs = xs.filter((x) => x !== undefined); if (!xs.length) return NaN; const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
  const keys = [...new Set(results.flatMap((rs) => Object.keys(rs[0])))];
  const medians = results.map((rs) => Object.fromEntries(keys.map((k) => [k, median(rs.map((x) => x[k]))])));
  const w = Math.max(...keys.map((k) => k.length));
  console.log(`${RUNS} runs each, medians (ms, bytes); ratio: build ÷ ${files[0]}`);
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

async function child(file) {
  const require = createRequire(import.meta.url);
  globalThis.require = require;
  globalThis.fs = require("fs");
  globalThis.path = require("path");
  require(process.env.WASM_EXEC);
  const t = {};
  const now = () => performance.now();
  const bytes = readFileSync(file);
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
  if (typeof api.call !== "function") { // a floor: an empty main that only signals readiness
    console.log(JSON.stringify(t));
    process.exit(0);
  }
  const call = (method, arg) => {
    const s = now();
    const raw = api.call(method, arg === undefined ? "null" : JSON.stringify(arg));
    const ms = now() - s;
    const res = JSON.parse(raw);
    if (res.error) throw new Error(`${method}: ${res.error.message}`);
    return { ms, bytes: raw.length, ok: res.ok };
  };
  // the page's start-up calls (web/app.js, web/teach.js), then the first built-in's view
  t.legend = call("legend").ms;
  t.glossary = call("glossary").ms;
  const list = call("scenarios");
  t.scenarios = list.ms;
  t.bugs = call("bugs").ms;
  const first = call("open", list.ok[0].name);
  t.open_first = first.ms;
  t.view_first = call("view").ms;
  t.to_first_view = now() - t0;
  // the step call at 256 vnodes
  const load = call("load", wide256());
  t.load_wide256 = load.ms;
  const steps = [];
  let bytesStep = 0;
  for (let i = 0; i < STEPS; i++) {
    const r = call("step");
    steps.push(r.ms);
    bytesStep = Math.max(bytesStep, r.bytes);
  }
  steps.sort((a, b) => a - b);
  t.step256_p50 = steps[Math.floor(steps.length / 2)];
  t.step256_bytes = bytesStep;
  t.memory = inst.exports.mem.buffer.byteLength;
  console.log(JSON.stringify(t));
  process.exit(0);
}

// wide256 is web/bench/bench.mjs's 256-vnode scenario (a copy: importing bench.mjs runs it).
function wide256() {
  const lines = ["title: bench 256 vnodes", "table: {columns: [a:int, id], locality: [a], stream_key: [id]}",
    "vnodes: {count: 256}", "chunk_size: 8"];
  const rows = [];
  for (let i = 0; i < 4096; i++) rows.push(`[${i}, ${i}]`);
  lines.push(`start: {state_table: [${rows.join(", ")}]}`, "steps:", "  - barrier: 1", "  - barrier: {epoch: 2, start_backfill: [1]}");
  let epoch = 2, left = 4097, next = 100000;
  while (left > 0) {
    const n = Math.min(32, left);
    left -= n;
    lines.push(`  - snapshot: ${n}`);
    if (left > 0) {
      const chunk = [];
      for (let j = 0; j < 4; j++) { next++; chunk.push(`"+ ${next} ${next}"`); }
      lines.push(`  - chunk: [${chunk.join(", ")}]`);
    }
    const m = Math.min(32, left);
    if (m > 0) { left -= m; lines.push(`  - snapshot: ${m}`); }
    lines.push(`  - barrier: ${++epoch}`);
  }
  return lines.join("\n") + "\n";
}
