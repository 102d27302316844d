// views.mjs WASM WASM_EXEC — runs the explainer's wasm under Node and prints one line per
// answer group: a name and the SHA-256 of every answer in it (the lists, every built-in's views
// at every step by step and by goto, its state, text and export, each bug mode's views and
// release v2.7's).
// wasmpack's test runs it on the module as linked and as merged and compares the lines.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";

const [wasmFile, wasmExec] = process.argv.slice(2);
await import(wasmExec); // defines globalThis.Go
const go = new globalThis.Go();
const ready = new Promise((resolve) => { globalThis.__backfillReady = resolve; });
const { instance } = await WebAssembly.instantiate(readFileSync(wasmFile), go.importObject);
go.run(instance);
const api = await ready;

const call = (method, arg) => api.call(method, arg === undefined ? "null" : JSON.stringify(arg));
const ok = (method, arg) => {
  const out = JSON.parse(call(method, arg));
  if (out.error) throw new Error(`${method}(${JSON.stringify(arg)}): ${out.error.message}`);
  return out.ok;
};
const line = (name, answers) => {
  const h = createHash("sha256");
  for (const a of answers) h.update(a).update("\n");
  console.log(`${name} ${answers.length} ${h.digest("hex")}`);
};

for (const m of ["scenarios", "bugs", "legend", "glossary", "lessons", "workloads", "schema"]) {
  line(m, [call(m)]);
}
const bugs = ok("bugs").map((b) => b.name);
for (const { name } of ok("scenarios")) {
  ok("open", name);
  const steps = ok("steps");
  const answers = [call("view")];
  for (let i = 0; i < steps; i++) answers.push(call("step"));
  for (let i = steps; i >= 0; i--) answers.push(call("goto", i));
  answers.push(call("state"), call("text"), call("actions"), call("export"));
  line(`scenario ${name} (${steps} steps)`, answers);
  for (const bug of bugs) {
    const got = [call("bug", bug)];
    for (let i = 0; i <= steps; i++) got.push(call("goto", i));
    line(`scenario ${name} bug ${bug}`, got);
  }
  ok("open", name);
  const old = [call("release", "v2.7")];
  for (let i = 0; i <= steps; i++) old.push(call("goto", i));
  line(`scenario ${name} release v2.7`, old);
}
process.exit(0);
