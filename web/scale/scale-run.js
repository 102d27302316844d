// scale-run.js — explainer.scale(yamlText, {onProgress, signal}): runs a workload (scale mode) and
// resolves with its scale summary, the same JSON object `backfill run --json` prints for the file.
//
// Where it runs:
//   - Served over HTTP: in a module Web Worker (scale-worker.js) with an engine of its own, so
//     the page stays responsive; the engine is instantiated from the page's compiled module,
//     posted to the worker (no second fetch or compile). The worker posts the run's progress
//     (about 200 times), and cancelling terminates it, after which nothing of that run reaches
//     the page. A worker that finished is kept for the next run (started engine, grown memory)
//     and terminated after IDLE_MS without one, which gives its memory back; prewarm() (the
//     Scale panel opened) starts one ahead, which warms its engine up (scale-worker.js).
//   - The offline single file (file://, where a module worker cannot be loaded): on the page's
//     own engine, after a frame, in the chunks the bridge pauses at (scale_start / scale_next);
//     every CHUNK_MS of running it waits for the next frame, so the progress bar repaints and a
//     Cancel click is handled (the run is then cancelled at that pause).
// One run at a time: starting another cancels the one in progress.
//
// The engine hands over the summary as its JSON text, byte for byte what `backfill run --json`
// prints; run() resolves with that text parsed (or, with {text: true}, with the text itself), and
// last().json keeps the text.
//
// Errors: a workload error rejects with an Error whose message is the engine's "line:column:
// message" and which carries .line and .column, like load(); a cancelled run rejects with an
// Error named "AbortError".

const IDLE_MS = 30000;  // a finished worker waits this long for another run
const CHUNK_MS = 60;    // on the page's thread: run this long between two frames

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

export function abortError() {
  const e = new Error("the workload's run was cancelled");
  e.name = "AbortError";
  return e;
}

/**
 * createScaleRunner({inline, callSync(method, arg), ready, toError({message,line,column}) → Error,
 * workerURL, module, memoryBytes() → the page engine's memory size}) → {run(text, {onProgress(done, total), signal, text}) → Promise<summary>,
 * prewarm(), last()}
 * module: the page's compiled engine (a WebAssembly.Module, or its promise: start.js's
 * globalThis.__backfillWasmModule), posted to the worker, which then instantiates it instead of
 * fetching and compiling the wasm again (Chromium shares the compiled code); without it (or when
 * it failed) the worker fetches web/explainer.wasm itself.
 * last() is what the last finished run measured: {where: "worker"|"page", ms, runMs, memoryBytes,
 * json} (json: the summary's text as the engine wrote it).
 */
export function createScaleRunner({ inline, callSync, ready, toError, workerURL, module, memoryBytes }) {
  let worker = null;   // {w, idle: timer} of the kept worker
  // The page's compiled module, once (null: none, the worker compiles its own).
  const compiled = Promise.resolve(module).then((m) => (m instanceof WebAssembly.Module ? m : null), () => null);
  let current = null;  // {id, stop(reason)} of the run in progress
  let lastStats = null;
  let ids = 0;

  function dropWorker() {
    if (!worker) return;
    clearTimeout(worker.idle);
    const { w } = worker;
    worker = null;
    w.onmessage = w.onerror = w.onmessageerror = null;
    w.terminate();
  }

  // post sends msg with the page's module (the worker boots from the first it gets); the page's
  // compile has finished by the time anyone runs a workload (explainer.ready), so this is one task
  // later, and messages keep their order. A terminated worker drops what it is sent.
  const post = (w, msg) => compiled.then((m) => w.postMessage(m ? { ...msg, module: m } : msg));

  // A kept worker between runs: one that fails (its script could not load, say) is dropped, so
  // that the next run starts another instead of waiting on it.
  function between(w) {
    w.onmessage = null;
    w.onerror = (ev) => { ev.preventDefault(); if (worker && worker.w === w) dropWorker(); };
  }

  function getWorker() {
    if (worker) { clearTimeout(worker.idle); return worker.w; }
    const w = new Worker(workerURL, { type: "module" });
    worker = { w, idle: null };
    between(w);
    return w;
  }

  function inWorker(id, text, onProgress, settle) {
    const w = getWorker();
    const t0 = performance.now();
    w.onmessage = (ev) => {
      const d = ev.data || {};
      if (d.id !== id || !current || current.id !== id) return;
      if (d.progress) { onProgress(d.progress[0], d.progress[1]); return; }
      between(w);
      worker.idle = setTimeout(dropWorker, IDLE_MS);
      if (d.error) {
        if (d.error.fatal) dropWorker(); // its engine stopped: the next run starts another
        settle(toError(d.error));
        return;
      }
      lastStats = { where: "worker", ms: performance.now() - t0, runMs: d.stats?.ms ?? null, memoryBytes: d.stats?.memoryBytes ?? null, json: d.ok };
      settle(null, d.ok);
    };
    w.onerror = (ev) => {
      ev.preventDefault(); // reported here, not as an uncaught error of the page
      dropWorker();
      settle(new Error("the scale worker failed" + (ev.message ? ": " + ev.message : "")));
    };
    post(w, { id, text });
    return () => dropWorker(); // how to stop it: nothing of a terminated worker reaches the page
  }

  function onPage(id, text, onProgress, settle) {
    let stopped = false;
    let paused = false; // a run of the page's engine is paused in the bridge
    (async () => {
      try {
        await ready;
        await nextFrame();
        if (stopped) return;
        const t0 = performance.now();
        let p = callSync("scale_start", text);
        paused = !p.summary;
        let slice = performance.now();
        while (!p.summary) {
          onProgress(p.done, p.total);
          if (!stopped && performance.now() - slice > CHUNK_MS) {
            await nextFrame();
            slice = performance.now();
          }
          if (stopped) return; // cancelled at this pause (stop cancelled the run in the bridge)
          p = callSync("scale_next");
          paused = !p.summary;
        }
        onProgress(p.done, p.total);
        const ms = performance.now() - t0;
        lastStats = { where: "page", ms, runMs: ms, memoryBytes: memoryBytes ? memoryBytes() : null, json: p.summary };
        settle(null, p.summary);
      } catch (e) {
        paused = false;
        if (!stopped) settle(e);
      }
    })();
    // Stopping happens between two bridge calls (JavaScript runs one thing at a time): the run
    // is paused there, so it is cancelled at once, before another run could start.
    return () => {
      stopped = true;
      if (paused) { paused = false; try { callSync("scale_cancel"); } catch { /* the engine stopped */ } }
    };
  }

  function run(text, { onProgress, signal, text: asText = false } = {}) {
    if (current) current.stop(abortError());
    if (signal?.aborted) return Promise.reject(abortError());
    const id = ++ids;
    return new Promise((resolve, reject) => {
      let stopRun = () => {};
      const settle = (err, summary) => {
        if (!current || current.id !== id) return;
        current = null;
        signal?.removeEventListener("abort", onAbort);
        if (err) { reject(err); return; }
        if (asText) { resolve(summary); return; }
        if (typeof summary !== "string") { reject(new Error("scale: the engine gave no summary (its run stopped)")); return; }
        try { resolve(JSON.parse(summary)); } catch { reject(new Error("scale: the engine's summary is not JSON")); }
      };
      const onAbort = () => { if (current && current.id === id) current.stop(abortError()); };
      current = {
        id,
        stop(reason) { stopRun(); settle(reason); },
      };
      signal?.addEventListener("abort", onAbort);
      const progress = (done, total) => {
        if (!current || current.id !== id || !onProgress) return;
        try { onProgress(done, total); } catch { /* the caller's problem, not the run's */ }
      };
      stopRun = inline ? onPage(id, String(text), progress, settle) : inWorker(id, String(text), progress, settle);
    });
  }

  /** Start the worker and its engine ahead of a run (the panel opened); no-op on the page's engine. */
  function prewarm() {
    if (inline || current) return;
    const fresh = !worker;
    const w = getWorker();
    worker.idle = setTimeout(dropWorker, IDLE_MS);
    if (fresh) post(w, { warm: true });
  }

  return { run, prewarm, last: () => lastStats };
}
