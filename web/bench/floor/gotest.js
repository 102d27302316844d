// gotest.js — runs a Go test binary built for js/wasm (go test -c) in the page, with the
// arguments given in the URL's hash (space-separated, URI-encoded); wasm_exec.js writes its
// output to console.log, which the bench reads. globalThis.__goTestDone is set when it exits.
const args = decodeURIComponent(location.hash.slice(1)).split(" ").filter(Boolean);
const go = new globalThis.Go();
go.argv = ["engine.test", ...args];
const { instance } = await WebAssembly.instantiateStreaming(fetch("engine.test.wasm"), go.importObject);
await go.run(instance);
globalThis.__goTestDone = true;
