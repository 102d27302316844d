// engine.mjs — the real engine under Node, for the render tests that need no browser: the built
// dist/web/explainer.wasm (./build.sh build) run with Go's wasm_exec.js, answering call(method,
// argJSON) as it does on the page. views(name, steps) opens a built-in and returns its views.

import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { DIST } from "../harness.mjs";

let api;

async function engine() {
  if (api) return api;
  const wasm = join(DIST, "web", "explainer.wasm");
  if (!existsSync(wasm)) throw new Error(`${wasm} is missing: run ./build.sh build first`);
  await import(join(DIST, "web", "wasm_exec.js")); // defines globalThis.Go
  const go = new globalThis.Go();
  const ready = new Promise((resolve) => { globalThis.__backfillReady = resolve; });
  const { instance } = await WebAssembly.instantiate(readFileSync(wasm), go.importObject);
  go.run(instance); // runs until the module exits (it never does): not awaited
  api = await ready;
  delete globalThis.__backfillReady;
  return api;
}

/** call(method, arg) → the result, or throws the engine's error message. */
export async function call(method, arg) {
  const out = JSON.parse((await engine()).call(method, arg === undefined ? "null" : JSON.stringify(arg)));
  if (out.error) throw new Error(`${method}: ${out.error.message}`);
  return out.ok;
}

/** The views of built-in `name` (under bug mode `bug`, if given) at each of `steps`. */
export async function views(name, steps, { bug } = {}) {
  await call("open", name);
  if (bug) await call("bug", bug);
  const out = [];
  for (const n of steps) out.push(await call("goto", n));
  return out;
}
