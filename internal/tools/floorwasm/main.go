//go:build js && wasm

// Command floorwasm is the floor the browser benchmark (web/bench/bench.mjs) measures the page
// against: the least a page built on Go's WebAssembly can do, a main that only sets a global.
// The bench builds it, serves it beside the page with the same server and times its cold load
// to that global the way it times the page's to explainer.ready.
package main

import "syscall/js"

func main() { js.Global().Set("__floorReady", true) }
