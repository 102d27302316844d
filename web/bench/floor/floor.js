// floor.js — starts floor.wasm (internal/tools/floorwasm) as any Go wasm page must: fetch,
// compile and instantiate it streaming, run it. Its main sets globalThis.__floorReady; the
// setter below notes that moment in the page's clock (performance.now() counts from navigation).
Object.defineProperty(globalThis, "__floorReady", {
  configurable: true,
  get: () => typeof globalThis.__benchReadyAt === "number",
  set: () => { globalThis.__benchReadyAt = performance.now(); },
});
const go = new globalThis.Go();
const { instance } = await WebAssembly.instantiateStreaming(fetch("floor.wasm"), go.importObject);
go.run(instance);
