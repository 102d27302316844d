//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"

	"github.com/hack-pad/safejs"
)

// register makes the object the page calls: { call(method, argJSON) → answer JSON }. call never
// throws: bad JavaScript arguments and panics become {"error": …} answers like any other
// failure. The returned Func must stay alive as long as the page may call it.
func register(b *bridge) (safejs.Value, safejs.Func, error) {
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any { return b.entry(args) })
	if err != nil {
		return safejs.Value{}, safejs.Func{}, fmt.Errorf("wasm: FuncOf: %w", err)
	}
	object, err := safejs.Global().Get("Object")
	if err != nil {
		return safejs.Value{}, fn, fmt.Errorf("wasm: %w", err)
	}
	api, err := object.New()
	if err != nil {
		return safejs.Value{}, fn, fmt.Errorf("wasm: %w", err)
	}
	if err := api.Set("call", fn.Value()); err != nil {
		return safejs.Value{}, fn, fmt.Errorf("wasm: %w", err)
	}
	return api, fn, nil
}

// entry is the single entry point from JavaScript, and the one place a panic is recovered: a
// panic escaping a syscall/js callback would end the Go runtime for every later call.
func (b *bridge) entry(args []safejs.Value) (answer string) {
	method := "?"
	defer func() {
		if r := recover(); r != nil {
			answer = errorAnswer(fmt.Errorf("internal error: %v", r))
			debugLog(method, r, debug.Stack())
		}
	}()
	if len(args) < 1 || args[0].Type() != safejs.TypeString {
		return errorAnswer(fmt.Errorf("call(method, argJSON): method must be a string"))
	}
	var err error
	if method, err = args[0].String(); err != nil {
		return errorAnswer(fmt.Errorf("call: %w", err))
	}
	if len(args) > 2 {
		usage := "call(method, argJSON)"
		if m, ok := methods[method]; ok {
			usage = m.decl.Usage()
		}
		return errorAnswer(fmt.Errorf("call(%q, argJSON) takes two arguments, not %d: the method's one argument as JSON (usage: %s)", method, len(args), usage))
	}
	arg := ""
	if len(args) >= 2 {
		switch args[1].Type() {
		case safejs.TypeUndefined, safejs.TypeNull:
		case safejs.TypeString:
			if arg, err = args[1].String(); err != nil {
				return errorAnswer(fmt.Errorf("call: %w", err))
			}
		default:
			return errorAnswer(fmt.Errorf("call(%q, argJSON): argJSON must be a JSON string, e.g. JSON.stringify(value), not a %s", method, args[1].Type()))
		}
	}
	return b.call(method, arg)
}

// debugLog reports a recovered panic with its stack; main sets it to write to the console.
var debugLog = func(method string, r any, stack []byte) {}
