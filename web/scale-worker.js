// scale-worker.js — a module Web Worker that runs a workload (scale mode) away from the page's
// thread: it starts a second engine with the page's boot module (boot.js) and Go's wasm_exec.js,
// and runs the text it is sent with the bridge's scale_start / scale_next, which pause at each of
// the run's progress calls (about 200): at each pause it posts the progress, so the page's
// progress bar moves while the run goes on here. The page cancels by terminating the worker; it
// keeps a worker that finished for the next run (the engine is started, its memory grown).
//
// In:  {id, text, module}, or {warm: true, module} to start the engine ahead of a run (no answer);
//      module (optional): the page's compiled engine, a WebAssembly.Module, which the engine is
//      instantiated from instead of fetching and compiling web/explainer.wasm here
// Out: {id, progress: [done, total]} … then {id, ok: summary, stats: {ms, memoryBytes}}
//      or {id, error: {message, line, column}}
import "./wasm_exec.js";
import { bootEngine } from "./boot.js";

let booting = null; // the engine's start, once: a run sent while it boots waits for the same one
const engine = (module) => (booting ??= bootEngine({ module, url: new URL("explainer.wasm", import.meta.url).href })
  .catch((e) => { booting = null; throw e; })); // a failed start is tried again by the next run
let eng = null;

function call(method, arg) {
  const res = JSON.parse(eng.call(method, arg === undefined ? "null" : JSON.stringify(arg)));
  if (res && res.error) throw res.error;
  return res.ok;
}

function errorOf(e) {
  if (e && typeof e === "object" && "message" in e && !(e instanceof Error)) {
    return { message: String(e.message), line: e.line ?? null, column: e.column ?? null }; // the engine's
  }
  return { message: e && e.message ? e.message : String(e), line: null, column: null };
}

self.onmessage = async (ev) => {
  const { id, text, warm, module } = ev.data || {};
  try {
    eng = await engine(module instanceof WebAssembly.Module ? module : undefined);
    if (warm) return; // started ahead of a run (the panel opened): nothing to answer
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
