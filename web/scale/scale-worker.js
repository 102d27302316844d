// scale-worker.js — a module Web Worker that runs a workload (scale mode) away from the page's
// thread: it starts a second engine with the page's boot module (boot.js) and Go's wasm_exec.js,
// and runs the text it is sent with the bridge's scale_start / scale_next, which pause at each of
// the run's progress calls (about 200): at each pause it posts the progress, so the page's
// progress bar moves while the run goes on here. The page cancels by terminating the worker; it
// keeps a worker that finished for the next run (the engine is started, its memory grown).
//
// Started ahead of a run ({warm: true}), the worker also runs a small workload (WARM_UP), once:
// V8 runs a wasm function in its baseline code until the function has run a while, then compiles
// it with its optimizing tier, and that code is shared by every instance of the module (the
// page's, this worker's, any later worker's), so a first real run no longer spends its first part
// in baseline code. A run that arrives meanwhile stops it at its next pause.
//
// In:  {id, text, module}, or {warm: true, module} to start the engine ahead of a run (no answer);
//      module (optional): the page's compiled engine, a WebAssembly.Module, which the engine is
//      instantiated from instead of fetching and compiling web/explainer.wasm here
// Out: {id, progress: [done, total]} … then {id, ok: summary, stats: {ms, memoryBytes}}
//      or {id, error: {message, line, column}}
import "../wasm_exec.js";
import { bootEngine } from "../boot/boot.js";

let booting = null; // the engine's start, once: a run sent while it boots waits for the same one
const engine = (module) => (booting ??= bootEngine({ module, url: new URL("../explainer.wasm", import.meta.url).href })
  .catch((e) => { booting = null; throw e; })); // a failed start is tried again by the next run
let eng = null;

// A twentieth of million-rows, with its table, vnodes and rates: the same code, hot.
const WARM_UP = `title: warm-up
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 256}
chunk_size: 256
fragment: 7
workload: {rows: 50000, seed: 1, start_after: 4, snapshot_per_epoch: 65536, upstream_per_epoch: 64, mix: {insert: 6, update: 3, delete: 1}, after: 4}
`;
let warmed = false;  // the warm-up ran (or was stopped): once per worker
let warming = null;  // the warm-up in progress (a promise)
let wanted = false;  // a run is waiting: the warm-up stops at its next pause

// yieldTask lets the messages queued for this worker in (a MessageChannel task: no timer clamping).
const channel = new MessageChannel();
const yieldTask = () => new Promise((r) => { channel.port1.onmessage = () => r(); channel.port2.postMessage(0); });

async function warmUp() {
  let p = call("scale_start", WARM_UP);
  while (!p.summary) {
    await yieldTask();
    if (wanted) { call("scale_cancel"); return; }
    p = call("scale_next");
  }
}

// An engine that stopped (out of memory: the Go runtime exits) answers nothing: that is said, and
// the page drops this worker (fatal), instead of parsing the missing answer.
const STOPPED = "the worker's engine stopped during the run (most likely out of memory: a smaller workload, or backfill run on the command line, may fit)";
let stopped = false;
let watched = false;

function call(method, arg) {
  let raw;
  try { raw = eng.call(method, arg === undefined ? "null" : JSON.stringify(arg)); } catch (e) {
    throw { message: `${STOPPED}: ${e && e.message ? e.message : e}`, fatal: true };
  }
  if (typeof raw !== "string" || stopped) throw { message: STOPPED, fatal: true };
  const res = JSON.parse(raw);
  if (res && res.error) throw res.error;
  return res.ok;
}

function errorOf(e) {
  if (e && typeof e === "object" && "message" in e && !(e instanceof Error)) {
    return { message: String(e.message), line: e.line ?? null, column: e.column ?? null, fatal: !!e.fatal }; // the engine's
  }
  return { message: e && e.message ? e.message : String(e), line: null, column: null };
}

self.onmessage = async (ev) => {
  const { id, text, warm, module } = ev.data || {};
  try {
    eng = await engine(module instanceof WebAssembly.Module ? module : undefined);
    if (!watched) { watched = true; eng.exited.then(() => { stopped = true; }); }
    if (warm) { // started ahead of a run: warm the engine up, once; nothing to answer
      if (!warmed) {
        warmed = true;
        warming = warmUp().catch(() => {}).finally(() => { warming = null; });
      }
      return;
    }
    if (warming) { wanted = true; await warming; wanted = false; }
    const t0 = performance.now();
    let p = call("scale_start", String(text));
    while (!p.summary) {
      self.postMessage({ id, progress: [p.done, p.total] });
      p = call("scale_next");
    }
    self.postMessage({ id, progress: [p.done, p.total] });
    self.postMessage({ id, ok: p.summary, stats: { ms: performance.now() - t0, memoryBytes: eng.memoryBytes() } });
  } catch (e) {
    if (warm) return; // the run that follows tries again and reports it
    self.postMessage({ id, error: errorOf(e) });
  }
};
