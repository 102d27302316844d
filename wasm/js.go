//go:build js && wasm

package main

import (
	"fmt"

	"github.com/hack-pad/safejs"
)

// register installs globalThis.__backfill = { call(method, argJSON) } over
// b. call returns the bridge's JSON answer as a string; it never throws:
// bad JavaScript arguments become {"error": …} like any other failure.
// The returned Func must stay alive as long as the page may call it.
func register(b *Bridge) (safejs.Func, error) {
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		return callFromJS(b, args)
	})
	if err != nil {
		return safejs.Func{}, fmt.Errorf("wasm: FuncOf: %w", err)
	}
	object, err := safejs.Global().Get("Object")
	if err != nil {
		return fn, fmt.Errorf("wasm: %w", err)
	}
	api, err := object.New()
	if err != nil {
		return fn, fmt.Errorf("wasm: %w", err)
	}
	if err := api.Set("call", fn.Value()); err != nil {
		return fn, fmt.Errorf("wasm: %w", err)
	}
	if err := safejs.Global().Set("__backfill", api); err != nil {
		return fn, fmt.Errorf("wasm: %w", err)
	}
	return fn, nil
}

// callFromJS converts the JavaScript arguments and calls the bridge. Like
// Bridge.Call it recovers everything: this is a syscall/js callback, and a
// panic escaping it would end the runtime.
func callFromJS(b *Bridge, args []safejs.Value) (answer string) {
	defer func() {
		if r := recover(); r != nil {
			answer = errorAnswer(fmt.Sprintf("internal error: %v", r))
		}
	}()
	if len(args) < 1 || args[0].Type() != safejs.TypeString {
		return errorAnswer("call(method, argJSON): method must be a string")
	}
	method, err := args[0].String()
	if err != nil {
		return errorAnswer(fmt.Sprintf("call: %v", err))
	}
	arg := ""
	if len(args) >= 2 {
		switch args[1].Type() {
		case safejs.TypeUndefined, safejs.TypeNull:
		case safejs.TypeString:
			if arg, err = args[1].String(); err != nil {
				return errorAnswer(fmt.Sprintf("call: %v", err))
			}
		default:
			return errorAnswer(fmt.Sprintf("call(%q, argJSON): argJSON must be a JSON string, e.g. JSON.stringify(value), not a %s", method, args[1].Type()))
		}
	}
	return b.Call(method, arg)
}
