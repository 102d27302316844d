// boot.js — starts one engine: Go's WebAssembly build of the explainer (web/explainer.wasm, or the
// offline file's inlined gzip+base64 copy) run with Go's wasm_exec.js (globalThis.Go: loaded here
// in a page when the engine is, inlined in the offline file, imported by the workers). The page
// (explainer.js) and the explorer's worker (explore-worker.js) both start their engine here.
//
// Compiling is separate from running: the page's first script (start.js) compiles the wasm at the
// top of the page, so it downloads and compiles while the modules load; bootEngine then takes
// that compiled module (or compiles one itself, as in the explorer's worker).
//
// The Go side signals readiness itself: before running it, boot sets globalThis.__backfillReady,
// which Go's main calls with the object it answers on (wasm/main.go). No polling.
//
// compileEngine({url, base64}) → Promise<WebAssembly.Module>
// bootEngine({url, base64, module}) → Promise<{call(method, argJSON) → answer JSON, exited: Promise<string>,
// memoryBytes() → the size of the engine's WebAssembly memory now}>
// `exited` resolves (with a reason) if the Go runtime ever stops after starting. The memory only
// grows, so its size after a run is the most the run needed (the scale worker reports it).

import "./start.js"; // defines globalThis.__backfillCompileEngine (and, in a page, starts the page's engine)

export const EXITED = "Go program has already exited"; // what wasm_exec.js throws after an exit

// Marks on the page's timeline (performance.getEntriesByType("mark")) for web/bench/bench.mjs.
const mark = (name) => { try { performance.mark(name); } catch { /* no performance in this realm */ } };

/** compileEngine({url, base64}) → Promise<WebAssembly.Module> (start.js). */
export const compileEngine = (opts) => globalThis.__backfillCompileEngine(opts);

// Go's wasm_exec.js, loaded in a page with the engine (the first view needs neither); the offline
// file inlines it, the workers import it.
let goScript = null;
function goRuntime() {
  return (goScript ??= new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = new URL("web/wasm_exec.js", document.baseURI).href;
    s.onload = () => resolve();
    s.onerror = () => { goScript = null; reject(new Error("could not load web/wasm_exec.js (build it with ./build.sh build)")); };
    document.head.append(s);
  }));
}

export async function bootEngine({ url, base64, module } = {}) {
  if (typeof globalThis.Go !== "function" && typeof document !== "undefined") await goRuntime();
  if (typeof globalThis.Go !== "function") {
    throw new Error("Go's wasm_exec.js is missing (expected web/wasm_exec.js)");
  }
  const go = new globalThis.Go();
  const compiled = await (module || compileEngine({ url, base64 }));
  mark("backfill:compiled");
  const instance = await WebAssembly.instantiate(compiled, go.importObject);
  let resolveExited;
  const exited = new Promise((r) => { resolveExited = r; });
  const api = await new Promise((resolve, reject) => {
    let started = false;
    globalThis.__backfillReady = (a) => { started = true; mark("backfill:go-ready"); resolve(a); };
    const stopped = (why) => {
      if (!started) reject(new Error("the engine exited during start-up" + (why ? ": " + why : "")));
      resolveExited(why || "the Go runtime exited");
    };
    go.run(instance).then(() => stopped(""), (e) => stopped(e && e.message ? e.message : String(e)));
  }).finally(() => { delete globalThis.__backfillReady; });
  return { call: (method, argJSON) => api.call(method, argJSON), exited, memoryBytes: () => instance.exports.mem.buffer.byteLength };
}
