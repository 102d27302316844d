//go:build js && wasm

package main

import (
	"errors"
	"testing"

	"github.com/hack-pad/safejs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsCall calls the registered object's call from JavaScript's side and returns what JavaScript
// got back.
func jsCall(t *testing.T, api safejs.Value, args ...any) string {
	t.Helper()
	res, err := api.Call("call", args...)
	require.NoError(t, err, "call must never throw")
	require.Equal(t, safejs.TypeString, res.Type())
	s, err := res.String()
	require.NoError(t, err)
	return s
}

func TestCallThroughJavaScript(t *testing.T) {
	api, fn, err := register(&bridge{})
	require.NoError(t, err)
	defer fn.Release()

	assert.Equal(t, `{"error":{"message":"no scenario is open","line":null,"column":null}}`, jsCall(t, api, "view"))
	assert.Contains(t, jsCall(t, api, "scenarios"), `{"ok":[{"name":"happy-path"`)
	assert.Contains(t, jsCall(t, api, "scenarios", safejs.Undefined()), `{"ok":[`)
	assert.Contains(t, jsCall(t, api, "scenarios", safejs.Null()), `{"ok":[`)
	assert.Contains(t, jsCall(t, api, "open", `"happy-path"`), `"step":0`)
	assert.Contains(t, jsCall(t, api, "goto", "2"), `"step":2`)

	// Wrong JavaScript types are errors, not exceptions.
	assert.Contains(t, jsCall(t, api), `"message":"call(method, argJSON): method must be a string"`)
	assert.Contains(t, jsCall(t, api, 42), `"message":"call(method, argJSON): method must be a string"`)
	assert.Contains(t, jsCall(t, api, "goto", 2), `"message":"call(\"goto\", argJSON): argJSON must be a JSON string, e.g. JSON.stringify(value), not a number"`)
	assert.Contains(t, jsCall(t, api, "goto", "2", "3"), `"message":"call(\"goto\", argJSON) takes two arguments, not 3: the method's one argument as JSON (usage: goto(n: integer) → View)"`)
}

// TestAPanicIsAnAnswer: a panic in a method is recovered at the entry point, reported, and the
// bridge answers the next call as before.
func TestAPanicIsAnAnswer(t *testing.T) {
	var logged []string
	debugLog = func(method string, r any, stack []byte) { logged = append(logged, method) }
	methods["explode"] = method{run: func(*bridge, string) (result, error) { panic(errors.New("exploded")) }}
	methods["nilmap"] = method{run: func(*bridge, string) (result, error) {
		var m map[string]int
		m["boom"] = 1 // a real runtime panic, not a panic(value)
		return nil, nil
	}}
	defer func() {
		delete(methods, "explode")
		delete(methods, "nilmap")
		debugLog = func(string, any, []byte) {}
	}()
	api, fn, err := register(&bridge{})
	require.NoError(t, err)
	defer fn.Release()
	assert.Contains(t, jsCall(t, api, "open", `"happy-path"`), `"step":0`)
	assert.Contains(t, jsCall(t, api, "explode"), `"message":"internal error: exploded"`)
	assert.Contains(t, jsCall(t, api, "nilmap"), `"message":"internal error: assignment to entry in nil map"`)
	assert.Contains(t, jsCall(t, api, "step"), `"step":1`, "the next call still works")
	assert.Equal(t, []string{"explode", "nilmap"}, logged)
}

// TestReadyCallback: main hands the object to globalThis.__backfillReady.
func TestReadyCallback(t *testing.T) {
	var got safejs.Value
	cb, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any { got = args[0]; return nil })
	require.NoError(t, err)
	defer cb.Release()
	require.NoError(t, safejs.Global().Set("__backfillReady", cb.Value()))
	defer func() { _ = safejs.Global().Delete("__backfillReady") }()
	api, fn, err := register(&bridge{})
	require.NoError(t, err)
	defer fn.Release()
	require.NoError(t, signalReady(api))
	assert.Contains(t, jsCall(t, got, "scenarios"), `{"ok":[`)

	require.NoError(t, safejs.Global().Delete("__backfillReady"))
	assert.ErrorContains(t, signalReady(api), "__backfillReady is not a function")
}
