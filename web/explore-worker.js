// explore-worker.js — a classic Web Worker that runs the explorer away from the page's thread:
// it starts a second instance of the engine (web/explainer.wasm with Go's wasm_exec.js), loads
// the scenario text it is sent, and answers with explore's report. The page cancels by
// terminating the worker. Messages: in {scenario, maxStates}; out {ok: report} | {error: message}.
/* eslint-env worker */
importScripts("wasm_exec.js");

const WAIT_MS = 15000;
let backend = null;

async function boot() {
  if (backend) return backend;
  const go = new self.Go();
  const url = new URL("explainer.wasm", self.location.href).href;
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`could not fetch ${url}: HTTP ${resp.status}`);
  const { instance } = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
  go.run(instance);
  const t0 = Date.now();
  while (!self.__backfill || typeof self.__backfill.call !== "function") {
    if (Date.now() - t0 > WAIT_MS) throw new Error("the engine did not start in the worker");
    await new Promise((r) => setTimeout(r, 10));
  }
  backend = self.__backfill;
  return backend;
}

function call(b, method, arg) {
  const res = JSON.parse(b.call(method, JSON.stringify(arg === undefined ? null : arg)));
  if (res && res.error !== undefined && res.error !== null) throw new Error(String(res.error));
  return res.ok;
}

self.onmessage = async (ev) => {
  const { scenario, maxStates } = ev.data || {};
  try {
    const b = await boot();
    call(b, "load", String(scenario));
    self.postMessage({ ok: call(b, "explore", maxStates ? Math.trunc(Number(maxStates)) : null) });
  } catch (e) {
    self.postMessage({ error: e && e.message ? e.message : String(e) });
  }
};
