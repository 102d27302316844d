// gotest.js — runs a Go test binary built for js/wasm (go test -c) in the page: the binary named
// by the query's ?bin= (default engine.test.wasm, beside this page), with the arguments given in
// the URL's hash (space-separated, URI-encoded); wasm_exec.js writes its output to console.log,
// which the bench reads. globalThis.__goTestDone is set when it exits.
const args = decodeURIComponent(location.hash.slice(1)).split(" ").filter(Boolean);
const bin = new URLSearchParams(location.search).get("bin") || "engine.test.wasm";
if (!/^[a-z0-9.-]+\.wasm$/.test(bin)) throw new Error(`gotest: not a test binary: ${bin}`);
const go = new globalThis.Go();
go.argv = [bin.replace(/\.wasm$/, ""), ...args];
const { instance } = await WebAssembly.instantiateStreaming(fetch(bin), go.importObject);
await go.run(instance);
globalThis.__goTestDone = true;
