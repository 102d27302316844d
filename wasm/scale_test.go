//go:build js && wasm

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallWorkload runs in a few milliseconds: 2,000 rows over 16 vnodes, a fault at epoch 5.
const smallWorkload = `title: small
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 16}
chunk_size: 64
workload: {rows: 2000, start_after: 2, snapshot_per_epoch: 256, upstream_per_epoch: 8, after: 2, fault: {kind: end, epoch: 5}}
`

// badWorkload has a value out of range at line 5, column 23.
const badWorkload = "title: bad\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nworkload:\n  rows: 10\n  snapshot_per_epoch: 0\n"

func TestWorkloadMethods(t *testing.T) {
	b := &bridge{}
	ok, e := answer(t, b.call("workloads", ""))
	require.Nil(t, e)
	var list []struct{ Name, Title, Summary string }
	require.NoError(t, json.Unmarshal(ok, &list))
	var names []string
	for _, w := range list {
		names = append(names, w.Name)
		assert.NotEmpty(t, w.Title, w.Name)
		assert.NotEmpty(t, w.Summary, w.Name)
	}
	assert.Equal(t, []string{"million-rows", "upstream-ends-at-scale", "no-state-write-at-scale"}, names)

	ok, e = answer(t, b.call("workload_text", `"million-rows"`))
	require.Nil(t, e)
	var text string
	require.NoError(t, json.Unmarshal(ok, &text))
	assert.Contains(t, text, "rows: 1000000")
	_, e = answer(t, b.call("workload_text", `"nope"`))
	assert.Contains(t, errText(e), `no built-in workload named "nope"`)
	_, e = answer(t, b.call("workloads", `"x"`))
	assert.Equal(t, "workloads: it takes no argument (usage: workloads() → ScenariosInfo[])", errText(e))
}

// TestScaleIsTheCommandLinesSummary: scale answers exactly what `backfill run --json` prints for
// the workload (its golden file, which `backfill check` compares with the command line).
func TestScaleIsTheCommandLinesSummary(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("..", "scenarios", "testdata", "scale", "golden", "no-state-write-at-scale.json"))
	require.NoError(t, err)
	b := &bridge{}
	ok, e := answer(t, b.call("workload_text", `"no-state-write-at-scale"`))
	require.Nil(t, e)
	ok, e = answer(t, b.call("scale", string(ok)))
	require.Nil(t, e)
	assert.JSONEq(t, string(golden), string(ok))

	// The run in steps ends with the summary's text itself, byte for byte the file's.
	p := stepCall(t, b, "scale_start", mustJSON(t, workloadTextOf(t, b, "no-state-write-at-scale")))
	for p.Summary == "" {
		p = stepCall(t, b, "scale_next", "")
	}
	assert.Equal(t, string(golden), p.Summary)
}

func workloadTextOf(t *testing.T, b *bridge, name string) string {
	t.Helper()
	ok, e := answer(t, b.call("workload_text", mustJSON(t, name)))
	require.Nil(t, e)
	var text string
	require.NoError(t, json.Unmarshal(ok, &text))
	return text
}

func TestScaleErrorsCarryLineAndColumn(t *testing.T) {
	for _, m := range []string{"scale", "scale_start"} {
		b := &bridge{}
		_, e := answer(t, b.call(m, mustJSON(t, badWorkload)))
		require.NotNil(t, e, m)
		require.NotNil(t, e.Line, m)
		assert.Equal(t, 5, *e.Line, m)
		assert.Equal(t, 23, *e.Column, m)
		assert.Regexp(t, `^5:23: workload\.snapshot_per_epoch: `, e.Message, m)
		assert.Nil(t, b.scale, "a run that failed to start is not kept")
		_, e = answer(t, b.call(m, mustJSON(t, "title: x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n")))
		assert.Contains(t, errText(e), "this scenario has steps, not a workload", m)
	}
}

type point struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Summary string `json:"summary"`
}

func stepCall(t *testing.T, b *bridge, method, arg string) point {
	t.Helper()
	ok, e := answer(t, b.call(method, arg))
	require.Nil(t, e, "%s: %s", method, errText(e))
	var p point
	require.NoError(t, json.Unmarshal(ok, &p))
	return p
}

// TestScaleInSteps: scale_start and scale_next pause at each progress call and end with the same
// summary as scale; done never decreases, total is never below it, and the end has done = total.
func TestScaleInSteps(t *testing.T) {
	b := &bridge{}
	whole, e := answer(t, b.call("scale", mustJSON(t, smallWorkload)))
	require.Nil(t, e)

	p := stepCall(t, b, "scale_start", mustJSON(t, smallWorkload))
	pauses, last := 0, 0
	for p.Summary == "" {
		pauses++
		assert.GreaterOrEqual(t, p.Done, last)
		assert.GreaterOrEqual(t, p.Total, p.Done)
		last = p.Done
		require.Less(t, pauses, 10000)
		p = stepCall(t, b, "scale_next", "")
	}
	assert.Greater(t, pauses, 10, "a run pauses many times")
	assert.Equal(t, p.Done, p.Total)
	assert.Positive(t, p.Done)
	assert.JSONEq(t, string(whole), p.Summary)
	assert.Nil(t, b.scale)
	_, e = answer(t, b.call("scale_next", ""))
	assert.Contains(t, errText(e), "no workload is running")
}

// TestScaleCancel: a cancelled run ends (the collector's settings come back), and the next run
// starts afresh; scale_start cancels a run in progress.
func TestScaleCancel(t *testing.T) {
	b := &bridge{}
	p := stepCall(t, b, "scale_start", mustJSON(t, smallWorkload))
	require.Empty(t, p.Summary)
	p = stepCall(t, b, "scale_next", "")
	require.Empty(t, p.Summary)
	require.NotNil(t, b.scale)
	ok, e := answer(t, b.call("scale_cancel", ""))
	require.Nil(t, e)
	assert.Equal(t, "null", string(ok))
	assert.Nil(t, b.scale)
	prev := debug.SetGCPercent(100)
	assert.Equal(t, 100, prev, "the run restored the collector when cancelled")
	_, e = answer(t, b.call("scale_next", ""))
	assert.Contains(t, errText(e), "no workload is running")
	_, e = answer(t, b.call("scale_cancel", ""))
	assert.Nil(t, e, "cancelling nothing is fine")

	first := stepCall(t, b, "scale_start", mustJSON(t, smallWorkload))
	stepCall(t, b, "scale_next", "")
	again := stepCall(t, b, "scale_start", mustJSON(t, smallWorkload))
	assert.Equal(t, first, again, "a new run starts from the beginning")
	for p = again; p.Summary == ""; {
		p = stepCall(t, b, "scale_next", "")
	}
	assert.NotEmpty(t, p.Summary)
}

// TestScaleThroughJavaScript: the run in steps through the registered object, as the worker
// calls it.
func TestScaleThroughJavaScript(t *testing.T) {
	api, fn, err := register(&bridge{})
	require.NoError(t, err)
	defer fn.Release()
	assert.Contains(t, jsCall(t, api, "scale_start", mustJSON(t, smallWorkload)), `{"ok":{"done":`)
	assert.Contains(t, jsCall(t, api, "scale_next"), `{"ok":{"done":`)
	assert.Equal(t, `{"ok":null}`, jsCall(t, api, "scale_cancel"))
	assert.Contains(t, jsCall(t, api, "scale", mustJSON(t, smallWorkload)), `{"ok":{"title":"small"`)
}

// A workload over the memory budget is refused before the run, at workload.rows with the
// figure (1000 varchar columns × 100,000 rows used to run 63 s, take 4.2 GB and end with no
// answer).
func TestScaleRefusesAWorkloadOverItsMemory(t *testing.T) {
	cols := "a, id"
	for i := range 1000 {
		cols += ", c" + strconv.Itoa(i) + ":varchar"
	}
	text := "title: wide\ntable: {columns: [" + cols + "], locality: [a], stream_key: [id]}\nvnodes: {count: 256}\nworkload:\n  rows: 100000\n"
	for _, m := range []string{"scale", "scale_start"} {
		b := &bridge{}
		_, e := answer(t, b.call(m, mustJSON(t, text)))
		require.NotNil(t, e, m)
		assert.Regexp(t, `^5:9: workload\.rows: this workload needs ~4\.8 GB .*the budget is 2\.1 GB`, e.Message, m)
	}
}
