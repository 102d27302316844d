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

// The teaching methods over the real library: bug modes, export, explore, compare.
func TestTeachingMethods(t *testing.T) {
	b := NewBridge(library)
	ok, e := answer(t, b.Call("bugs", ""))
	require.Empty(t, e)
	var bugs []struct{ Name, Summary, Why, URL string }
	require.NoError(t, json.Unmarshal(ok, &bugs))
	require.Len(t, bugs, 4)

	_, e = answer(t, b.Call("explore", "null"))
	assert.Equal(t, "no scenario is open", e)

	_, e = answer(t, b.Call("open", `"builder-fills-mid-epoch"`))
	require.Empty(t, e)
	ok, e = answer(t, b.Call("bug", `"mark-before-drain"`))
	require.Empty(t, e)
	var view struct {
		Bug *struct{ Name string } `json:"bug"`
	}
	require.NoError(t, json.Unmarshal(ok, &view))
	require.NotNil(t, view.Bug)
	assert.Equal(t, "mark-before-drain", view.Bug.Name)
	_, e = answer(t, b.Call("bug", `"nonsense"`))
	assert.Contains(t, e, "unknown bug mode")

	ok, e = answer(t, b.Call("explore", "1000"))
	require.Empty(t, e)
	var x struct {
		Schedules     uint64 `json:"schedules"`
		InvariantHeld bool   `json:"invariant_held"`
		Outcomes      []struct {
			Example string `json:"example"`
		} `json:"outcomes"`
	}
	require.NoError(t, json.Unmarshal(ok, &x))
	assert.False(t, x.InvariantHeld)
	require.NotEmpty(t, x.Outcomes)

	ok, e = answer(t, b.Call("compare_text", mustJSON(t, x.Outcomes[0].Example)))
	require.Empty(t, e)
	assert.Contains(t, string(ok), `"rows"`)
	_, e = answer(t, b.Call("compare_text", mustJSON(t, "title: x\n")))
	assert.Regexp(t, regexp.MustCompile(`^\d+:\d+: `), e)

	ok, e = answer(t, b.Call("compare_bug", `"none"`))
	require.Empty(t, e)
	assert.Contains(t, string(ok), `"as RisingWave does it"`)

	ok, e = answer(t, b.Call("export", ""))
	require.Empty(t, e)
	var ex struct {
		Scenario string          `json:"scenario"`
		Trace    json.RawMessage `json:"trace"`
	}
	require.NoError(t, json.Unmarshal(ok, &ex))
	assert.Contains(t, ex.Scenario, "bug: mark-before-drain")
	_, e = answer(t, b.Call("load", mustJSON(t, ex.Scenario)))
	require.Empty(t, e, "the exported scenario loads")
}
