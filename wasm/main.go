//go:build js && wasm

// Command wasm is the explainer's WebAssembly module: the only code that touches JavaScript.
// It makes the object the page calls (register) over the scenario library, hands it to
// globalThis.__backfillReady — the callback the page's boot module (web/boot/boot.js) sets before
// running it — and then waits forever, answering calls.
package main

import (
	"fmt"

	"github.com/hack-pad/safejs"
)

func main() {
	debugLog = func(method string, r any, stack []byte) {
		consoleError(fmt.Sprintf("panic in %s: %v\n%s", method, r, stack))
	}
	api, fn, err := register(&bridge{})
	if err != nil {
		consoleError(err.Error())
		return
	}
	defer fn.Release()
	if err := signalReady(api); err != nil {
		consoleError(err.Error())
		return
	}
	select {}
}

// signalReady calls globalThis.__backfillReady(api).
func signalReady(api safejs.Value) error {
	ready, err := safejs.Global().Get("__backfillReady")
	if err != nil || ready.Type() != safejs.TypeFunction {
		return fmt.Errorf("globalThis.__backfillReady is not a function: start the engine with web/boot/boot.js")
	}
	if _, err := ready.Invoke(api); err != nil {
		return fmt.Errorf("__backfillReady: %w", err)
	}
	return nil
}

func consoleError(msg string) {
	if console, err := safejs.Global().Get("console"); err == nil {
		_, _ = console.Call("error", "backfill: "+msg)
	}
}
