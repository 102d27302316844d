//go:build js && wasm

package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With lean_marks a view leaves out the code map too once the page has it for the script
// revision ("code_map": null), while code_lit comes in every view; "code_map" answers it.
func TestLeanCodeMap(t *testing.T) {
	codeOf := func(raw string) (json.RawMessage, json.RawMessage) {
		ok, e := answer(t, raw)
		require.Nil(t, e, raw)
		var v struct {
			CodeMap json.RawMessage `json:"code_map"`
			CodeLit json.RawMessage `json:"code_lit"`
		}
		require.NoError(t, json.Unmarshal(ok, &v))
		return v.CodeMap, v.CodeLit
	}
	plain := &bridge{}
	codeOf(plain.call("open", `"happy-path"`))
	m, lit := codeOf(plain.call("step", ""))
	assert.NotEqual(t, "null", string(m), "without lean_marks every view has its code map")
	assert.Equal(t, `["first-barrier","load","need-buffering","buf-order"]`, string(lit))

	b := &bridge{}
	_, e := answer(t, b.call("lean_marks", ""))
	require.Nil(t, e)
	first, _ := codeOf(b.call("open", `"happy-path"`))
	require.NotEqual(t, "null", string(first))
	m, lit = codeOf(b.call("step", ""))
	assert.Equal(t, "null", string(m), "the same revision leaves it out")
	assert.Equal(t, `["first-barrier","load","need-buffering","buf-order"]`, string(lit))
	ok, e := answer(t, b.call("code_map", ""))
	require.Nil(t, e)
	assert.JSONEq(t, string(first), string(ok))
	m, _ = codeOf(b.call("open", `"fatal-upstream-end"`))
	assert.NotEqual(t, "null", string(m), "another scenario's first view carries it")
}
