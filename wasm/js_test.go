//go:build js && wasm

package main

import (
	"testing"

	"github.com/hack-pad/safejs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsCall calls globalThis.__backfill.call from JavaScript's side with the
// given arguments and returns what JavaScript got back.
func jsCall(t *testing.T, args ...any) string {
	t.Helper()
	api, err := safejs.Global().Get("__backfill")
	require.NoError(t, err)
	res, err := api.Call("call", args...)
	require.NoError(t, err, "call must never throw")
	require.Equal(t, safejs.TypeString, res.Type())
	s, err := res.String()
	require.NoError(t, err)
	return s
}

func TestRegisterAndCallThroughJavaScript(t *testing.T) {
	fn, err := register(NewBridge(&fakeLibrary{}))
	require.NoError(t, err)
	defer fn.Release()

	assert.Equal(t, `{"error":"no scenario is open"}`, jsCall(t, "view"))
	assert.Contains(t, jsCall(t, "scenarios"), `{"ok":[{"name":"happy-path"`)
	assert.Contains(t, jsCall(t, "scenarios", safejs.Undefined()), `{"ok":[`)
	assert.Contains(t, jsCall(t, "scenarios", safejs.Null()), `{"ok":[`)
	assert.Equal(t, `{"ok":{"step":0,"steps":3,"note":"<b>&'\"</b>"}}`, jsCall(t, "open", `"happy-path"`))
	assert.Equal(t, `{"ok":{"step":2,"steps":3,"note":"<b>&'\"</b>"}}`, jsCall(t, "goto", "2"))

	// Wrong JavaScript types are errors, not exceptions.
	assert.Equal(t, `{"error":"call(method, argJSON): method must be a string"}`, jsCall(t))
	assert.Equal(t, `{"error":"call(method, argJSON): method must be a string"}`, jsCall(t, 42))
	assert.Equal(t, `{"error":"call(\"goto\", argJSON): argJSON must be a JSON string, e.g. JSON.stringify(value), not a number"}`, jsCall(t, "goto", 2))

	// A panic inside the callback is an answer, and the runtime lives on.
	assert.Equal(t, `{"error":"internal error: apply exploded"}`, jsCall(t, "apply", `"explode"`))
	assert.Equal(t, `{"ok":3}`, jsCall(t, "steps"))
	assert.Equal(t, `{"error":"unknown method \"nope\""}`, jsCall(t, "nope"))
	assert.Equal(t, `{"ok":{"step":3,"steps":3,"note":"<b>&'\"</b>"}}`, jsCall(t, "step"))
}
