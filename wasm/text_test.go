//go:build js && wasm

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/scenarios"
)

// TestTextIsTheCommandLinesText: "text" answers the readable trace of the whole run, byte for
// byte the golden text `backfill check` compares with `backfill run NAME`, from any step, and
// the session stays at that step.
func TestTextIsTheCommandLinesText(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		golden, err := os.ReadFile(filepath.Join("..", "scenarios", "testdata", "golden", name+".txt"))
		require.NoError(t, err)
		b := &bridge{}
		_, e := answer(t, b.call("open", mustJSON(t, name)))
		require.Nil(t, e, name)
		_, e = answer(t, b.call("goto", "2"))
		require.Nil(t, e, name)
		ok, e := answer(t, b.call("text", ""))
		require.Nil(t, e, name)
		var text string
		require.NoError(t, json.Unmarshal(ok, &text))
		assert.Equal(t, string(golden), text, name)
		ok, e = answer(t, b.call("view", ""))
		require.Nil(t, e)
		var v struct{ Step int }
		require.NoError(t, json.Unmarshal(ok, &v))
		assert.Equal(t, 2, v.Step, "%s: the text leaves the session at its step", name)
	}
}
