// boot.js — starts one engine: Go's WebAssembly build of the explainer (web/explainer.wasm, or the
// offline file's inlined gzip+base64 copy) run with Go's wasm_exec.js, which must already have
// defined globalThis.Go (index.html loads it first; the explorer's worker imports it). The page
// (explainer.js) and the explorer's worker (explore-worker.js) both start their engine here.
//
// The Go side signals readiness itself: before running it, boot sets globalThis.__backfillReady,
// which Go's main calls with the object it answers on (wasm/main.go). No polling.
//
// bootEngine({url, base64}) → Promise<{call(method, argJSON) → answer JSON, exited: Promise<string>,
// memoryBytes() → the size of the engine's WebAssembly memory now}>
// `exited` resolves (with a reason) if the Go runtime ever stops after starting. The memory only
// grows, so its size after a run is the most the run needed (the scale worker reports it).

export const EXITED = "Go program has already exited"; // what wasm_exec.js throws after an exit

async function inlinedBytes(b64) {
  const bin = Uint8Array.from(atob(b64.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

async function instantiate(go, { url, base64 }) {
  if (typeof base64 === "string" && base64.length) {
    return WebAssembly.instantiate(await inlinedBytes(base64), go.importObject);
  }
  let resp;
  try {
    resp = await fetch(url);
  } catch (e) {
    throw new Error(`could not fetch ${url}: ${e.message}`);
  }
  if (!resp.ok) throw new Error(`could not fetch ${url}: HTTP ${resp.status} (build it with ./build.sh build)`);
  if (WebAssembly.instantiateStreaming && (resp.headers.get("content-type") || "").includes("application/wasm")) {
    return WebAssembly.instantiateStreaming(resp, go.importObject);
  }
  return WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
}

export async function bootEngine({ url, base64 } = {}) {
  if (typeof globalThis.Go !== "function") {
    throw new Error("Go's wasm_exec.js is missing (expected web/wasm_exec.js, loaded before the page's modules)");
  }
  const go = new globalThis.Go();
  const { instance } = await instantiate(go, { url, base64 });
  let resolveExited;
  const exited = new Promise((r) => { resolveExited = r; });
  const api = await new Promise((resolve, reject) => {
    let started = false;
    globalThis.__backfillReady = (a) => { started = true; resolve(a); };
    const stopped = (why) => {
      if (!started) reject(new Error("the engine exited during start-up" + (why ? ": " + why : "")));
      resolveExited(why || "the Go runtime exited");
    };
    go.run(instance).then(() => stopped(""), (e) => stopped(e && e.message ? e.message : String(e)));
  }).finally(() => { delete globalThis.__backfillReady; });
  return { call: (method, argJSON) => api.call(method, argJSON), exited, memoryBytes: () => instance.exports.mem.buffer.byteLength };
}
