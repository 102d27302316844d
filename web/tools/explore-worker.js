// explore-worker.js — a module Web Worker that runs the explorer away from the page's thread: it
// starts a second engine with the page's boot module (boot.js) and Go's wasm_exec.js, loads the
// scenario text it is sent, and answers with explore's report. The page starts it when the
// explorer opens and keeps it for the next run; it cancels by terminating the worker.
// In:  {scenario, maxStates, module}, or {warm: true, module} to start the engine ahead of a run
//      (no answer); module (optional): the page's compiled engine, a WebAssembly.Module, which the
//      engine is instantiated from instead of fetching and compiling web/explainer.wasm here
// Out: {ok: report} | {error: message}
import "../wasm_exec.js";
import { bootEngine } from "../boot/boot.js";

let booting = null; // the engine's start, once: a run sent while it boots waits for the same one
const engine = (module) => (booting ??= bootEngine({ module, url: new URL("../explainer.wasm", import.meta.url).href })
  .catch((e) => { booting = null; throw e; })); // a failed start is tried again by the next run
let eng = null;

// An engine that stopped (out of memory: the Go runtime exits inside the call) answers nothing:
// that is said, instead of parsing the missing answer ("undefined" is not valid JSON); the page
// drops a worker that answered an error, so the next run starts another.
const STOPPED = "the explorer's engine stopped during the search (most likely out of memory: a lower bound, or backfill explore on the command line, may fit)";
let stopped = false;
let watched = false;

function call(method, arg) {
  let raw;
  try { raw = eng.call(method, JSON.stringify(arg === undefined ? null : arg)); } catch (e) {
    throw new Error(`${STOPPED}: ${e && e.message ? e.message : e}`);
  }
  if (typeof raw !== "string" || stopped) throw new Error(STOPPED);
  const res = JSON.parse(raw);
  if (res && res.error) throw new Error(String(res.error.message ?? res.error));
  return res.ok;
}

self.onmessage = async (ev) => {
  const { scenario, maxStates, warm, module } = ev.data || {};
  try {
    eng = await engine(module instanceof WebAssembly.Module ? module : undefined);
    if (!watched) { watched = true; eng.exited.then(() => { stopped = true; }); }
    if (warm) return; // started ahead of a run (the explorer opened): nothing to answer
    call("load", String(scenario));
    self.postMessage({ ok: call("explore", maxStates ? Math.trunc(Number(maxStates)) : null) });
  } catch (e) {
    if (warm) return; // the run that follows tries again and reports it
    self.postMessage({ error: e && e.message ? e.message : String(e) });
  }
};
