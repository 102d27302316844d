// explore-worker.js — a module Web Worker that runs the explorer away from the page's thread: it
// starts a second engine with the page's boot module (boot.js) and Go's wasm_exec.js, loads the
// scenario text it is sent, and answers with explore's report. The page cancels by terminating
// the worker. Messages: in {scenario, maxStates}; out {ok: report} | {error: message}.
import "./wasm_exec.js";
import { bootEngine } from "./boot.js";

let engine = null;

function call(method, arg) {
  const res = JSON.parse(engine.call(method, JSON.stringify(arg === undefined ? null : arg)));
  if (res && res.error) throw new Error(String(res.error.message ?? res.error));
  return res.ok;
}

self.onmessage = async (ev) => {
  const { scenario, maxStates } = ev.data || {};
  try {
    engine ??= await bootEngine({ url: new URL("explainer.wasm", import.meta.url).href });
    call("load", String(scenario));
    self.postMessage({ ok: call("explore", maxStates ? Math.trunc(Number(maxStates)) : null) });
  } catch (e) {
    self.postMessage({ error: e && e.message ? e.message : String(e) });
  }
};
