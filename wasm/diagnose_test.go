//go:build js && wasm

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiagnose(t *testing.T) {
	b := &bridge{} // no scenario open: diagnose needs none
	line := "ERROR actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: Executor error: locality provider upstream ended unexpectedly during backfill"
	var a struct {
		Recognised bool `json:"recognised"`
		Matches    []struct {
			Produces  bool   `json:"produces"`
			Statement string `json:"statement"`
			Open      struct {
				Hash string `json:"hash"`
			} `json:"open"`
		} `json:"matches"`
		Known []json.RawMessage `json:"known"`
	}
	ok, e := answer(t, b.call("diagnose", mustJSON(t, map[string]any{"text": line, "release": "v3.0"})))
	require.Nil(t, e)
	require.NoError(t, json.Unmarshal(ok, &a))
	require.True(t, a.Recognised)
	assert.False(t, a.Matches[0].Produces)
	assert.Contains(t, a.Matches[0].Statement, "v3.0 cannot produce this message")
	assert.Equal(t, "#scenario=fatal-upstream-end&step=10&release=v3.0", a.Matches[0].Open.Hash)

	ok, e = answer(t, b.call("diagnose", mustJSON(t, map[string]any{"text": line})))
	require.Nil(t, e)
	require.NoError(t, json.Unmarshal(ok, &a))
	assert.True(t, a.Matches[0].Produces, "no release: the newest that produces it")

	ok, e = answer(t, b.call("diagnose", mustJSON(t, map[string]any{"text": strings.Repeat("\x00", 70<<10), "release": "v3.1"})))
	require.Nil(t, e)
	a.Matches = nil
	require.NoError(t, json.Unmarshal(ok, &a))
	assert.False(t, a.Recognised)
	assert.NotEmpty(t, a.Known)

	for _, arg := range []string{`"text"`, `{"text": 3}`, `{"release": "v3.0"}`, `{"text": "x", "release": 3}`, ""} {
		_, e = answer(t, b.call("diagnose", arg))
		assert.Contains(t, errText(e), "diagnose: the argument must be", arg)
	}
	_, e = answer(t, b.call("diagnose", `{"text": "x", "release": "v9"}`))
	assert.Contains(t, errText(e), `unknown release "v9"`)
}
