// explainer.js — the page side of the wasm bridge. Loads web/explainer.wasm (or the inlined
// gzip+base64 copy of the single-file build), runs it with Go's wasm_exec.js, waits for the Go
// side to register globalThis.__backfill, and builds window.explainer on __backfill.call.
//
// __backfill.call(method, argJSON) → '{"ok": result}' | '{"error": "message"}' (synchronous).
// argJSON is the JSON of the method's single argument ("null" when it takes none).
// Every method that changes the timeline dispatches a window event "explainer:change" whose
// detail is {view, method, arg}, so the page re-renders whoever drives the engine (page, tests, parent).

const WAIT_MS = 15000;

function wasmURL() {
  return new URL("web/explainer.wasm", document.baseURI).href;
}

async function inlinedBytes(b64) {
  const bin = Uint8Array.from(atob(b64.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

async function instantiate(go) {
  const b64 = globalThis.__backfillWasmBase64;
  if (typeof b64 === "string" && b64.length) {
    return WebAssembly.instantiate(await inlinedBytes(b64), go.importObject);
  }
  const url = wasmURL();
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

async function boot() {
  if (typeof globalThis.Go !== "function") {
    throw new Error("Go's wasm_exec.js is missing (expected web/wasm_exec.js, loaded before the page's modules)");
  }
  const go = new globalThis.Go();
  const { instance } = await instantiate(go);
  let exited = false;
  let exitErr = null;
  go.run(instance).then(() => { exited = true; }, (e) => { exited = true; exitErr = e; });
  const t0 = performance.now();
  while (!globalThis.__backfill || typeof globalThis.__backfill.call !== "function") {
    if (exited) throw new Error("the engine exited during start-up" + (exitErr ? ": " + exitErr.message : ""));
    if (performance.now() - t0 > WAIT_MS) throw new Error("the engine did not register __backfill in time");
    await new Promise((r) => setTimeout(r, 10));
  }
  return globalThis.__backfill;
}

function makeExplainer() {
  let backend = null;
  const ready = boot().then((b) => { backend = b; });
  // Don't report an unhandled rejection here: the page shows the failure itself.
  ready.catch(() => {});

  function callSync(method, arg) {
    let raw;
    try {
      raw = backend.call(method, arg === undefined ? "null" : JSON.stringify(arg));
    } catch (e) {
      throw new Error(`${method}: the engine threw: ${e && e.message ? e.message : e}`);
    }
    let res;
    try {
      res = typeof raw === "string" ? JSON.parse(raw) : raw;
    } catch (e) {
      throw new Error(`${method}: the engine returned invalid JSON`);
    }
    if (res && typeof res === "object" && "error" in res && res.error !== null && res.error !== undefined) {
      throw new Error(String(res.error));
    }
    return res ? res.ok : undefined;
  }

  async function call(method, arg) {
    await ready;
    return callSync(method, arg);
  }

  function changed(view, method, arg) {
    window.dispatchEvent(new CustomEvent("explainer:change", { detail: { view, method, arg } }));
    return view;
  }

  async function mutate(method, arg) {
    let v = await call(method, arg);
    if (!v || typeof v !== "object" || !("phase" in v)) v = callSync("view");
    return changed(v, method, arg);
  }

  return {
    ready,
    scenarios: () => call("scenarios"),
    open: (name) => mutate("open", String(name)),
    load: (yamlText) => mutate("load", String(yamlText)),
    step: () => mutate("step"),
    back: () => mutate("back"),
    goto: (n) => mutate("goto", Math.max(0, Math.trunc(Number(n) || 0))),
    // apply takes scenario step text, or an Action (its `step` text is applied).
    apply: (action) => mutate("apply", typeof action === "object" && action ? String(action.step) : String(action)),
    steps: () => call("steps"),
    actions: () => call("actions"),
    state: () => call("state"),
    view: () => call("view"),
    // teaching tools (docs/view.md "Teaching methods")
    bugs: () => call("bugs"),
    bug: (name) => mutate("bug", String(name || "none")),
    explore: (maxStates) => call("explore", maxStates ? Math.trunc(Number(maxStates)) : null),
    compareBug: (name) => call("compare_bug", String(name || "none")),
    compareText: (yamlText) => call("compare_text", String(yamlText)),
    export: () => call("export"),
  };
}

export const explainer = makeExplainer();
window.explainer = explainer;
