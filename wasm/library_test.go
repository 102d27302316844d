//go:build js && wasm

package main

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The real wiring: the bridge over package scenarios, as the page gets it.
func TestBridgeOverTheRealLibrary(t *testing.T) {
	require.NotNil(t, library, "library.go must install the scenarios library")
	b := NewBridge(library)

	ok, e := answer(t, b.Call("scenarios", "null"))
	require.Empty(t, e)
	var list []struct{ Name, Title, Summary string }
	require.NoError(t, json.Unmarshal(ok, &list))
	require.NotEmpty(t, list)

	for _, sc := range list {
		_, e = answer(t, b.Call("open", mustJSON(t, sc.Name)))
		require.Empty(t, e, sc.Name)
		ok, e = answer(t, b.Call("steps", ""))
		require.Empty(t, e)
		var steps int
		require.NoError(t, json.Unmarshal(ok, &steps))
		ok, e = answer(t, b.Call("goto", mustJSON(t, steps)))
		require.Empty(t, e, sc.Name)
		var view struct {
			Step  int    `json:"step"`
			Phase string `json:"phase"`
		}
		require.NoError(t, json.Unmarshal(ok, &view))
		assert.Equal(t, steps, view.Step, sc.Name)
		assert.NotEmpty(t, view.Phase, sc.Name)

		ok, e = answer(t, b.Call("state", ""))
		require.Empty(t, e)
		var st map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(ok, &st))
		for _, key := range []string{"title", "outputs", "error", "phase", "progress_table", "downstream", "step"} {
			assert.Contains(t, st, key, "%s: state() lacks %s", sc.Name, key)
		}
		assert.Equal(t, mustJSON(t, steps), string(st["step"]))

		ok, e = answer(t, b.Call("actions", ""))
		require.Empty(t, e)
		assert.Equal(t, byte('['), ok[0], "actions is an array")
	}

	_, e = answer(t, b.Call("open", `"no-such-scenario"`))
	assert.Contains(t, e, "no-such-scenario")

	// load rejects with the parser's line:column message, no file name.
	_, e = answer(t, b.Call("load", mustJSON(t, "title: x\nbogus: 1\n")))
	assert.Regexp(t, regexp.MustCompile(`^\d+:\d+: `), e)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return string(raw)
}
