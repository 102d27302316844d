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
		assert.Contains(t, errText(e), "(usage: diagnose(paste: {text: string, release?: string}) → Answer)", arg)
	}
	_, e = answer(t, b.call("diagnose", `{"text": "x", "release": "v9"}`))
	assert.Contains(t, errText(e), `unknown release "v9"`)
}

// A paste is bounded before any work: the engine reads 64 KiB of it, and an argument over 1 MiB
// is refused before it is decoded (a 10 MB paste used to take 7-8.5 s and 1.9 GB on the page's
// thread); any method's argument over 8 MiB likewise.
func TestDiagnoseRefusesAHugePasteFirst(t *testing.T) {
	b := &bridge{}
	huge := strings.Repeat("x", 2<<20)
	_, e := answer(t, b.call("diagnose", `{"text": "`+huge+`"}`))
	require.NotNil(t, e)
	assert.Equal(t, "diagnose: the argument is 2097164 bytes; the limit is 1 MiB (the engine reads the first 64 KiB of a text)", e.Message)
	_, e = answer(t, b.call("load", `"`+strings.Repeat("x", 9<<20)+`"`))
	require.NotNil(t, e)
	assert.Equal(t, "load: the argument is 9437186 bytes; the limit is 8 MiB", e.Message)
}

// An error quotes its input at most ~200 characters: open, goto and release given a 1 MB value
// used to answer with a 1,000,546-character message.
func TestErrorsQuoteAtMost200Characters(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	b := &bridge{}
	_, e := answer(t, b.call("open", mustJSON(t, "happy-path")))
	require.Nil(t, e)
	for _, c := range []struct{ method, arg string }{
		{"open", mustJSON(t, long)}, {"goto", strings.Repeat("9", 1<<20)}, {"release", mustJSON(t, long)},
		{"bug", mustJSON(t, long)}, {long[:1000], "null"}, {"compare", `{"left": {"` + long + `": 1}, "right": {}}`},
	} {
		_, e := answer(t, b.call(c.method, c.arg))
		require.NotNil(t, e, c.method[:min(len(c.method), 20)])
		assert.Less(t, len(e.Message), 1000, "%.300s", e.Message)
	}
}
