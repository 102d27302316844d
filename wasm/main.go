//go:build js && wasm

// Command wasm is the explainer's WebAssembly module: the only code that
// touches JavaScript. It registers globalThis.__backfill (see register)
// over the scenario library and then waits forever, answering calls.
// globalThis.__backfill exists as soon as go.run(instance) has been called.
package main

import (
	"fmt"

	"github.com/hack-pad/safejs"
)

// library is the real scenario library; library.go sets it. Without it
// (a build without package scenarios) every call answers with an error.
var library Library

func main() {
	debugLog = consoleLog
	fn, err := register(NewBridge(library))
	if err != nil {
		consoleError(err.Error())
		return
	}
	defer fn.Release()
	select {}
}

func consoleError(msg string) {
	if console, err := safejs.Global().Get("console"); err == nil {
		_, _ = console.Call("error", "backfill: "+msg)
	}
}

func consoleLog(method string, r any, stack []byte) {
	consoleError(fmt.Sprintf("panic in %s: %v\n%s", method, r, stack))
}
