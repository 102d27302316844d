package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const smallWorkload = `title: small
table: {columns: [a, id, v], locality: [a], stream_key: [id]}
vnodes: {count: 8}
workload:
  rows: 2000
  snapshot_per_epoch: 300
  upstream_per_epoch: 10
  fault: {kind: end, epoch: 6}
`

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(f, []byte(text), 0o644))
	return f
}

// TestRunWorkloadUnderARelease: `backfill run --release R` on a workload file runs it under R:
// the header names it, and the fault (an end while backfilling) fails at v3.1 and ends silently
// before; a release written as a number is an error saying what to write.
func TestRunWorkloadUnderARelease(t *testing.T) {
	f := writeFile(t, "w.yaml", smallWorkload)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "--release", "v2.7", f}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "RELEASE v2.7 (v2.7.0–v2.7.4, cited at v2.7.4)")
	assert.Contains(t, stdout.String(), "── e6: the upstream ends instead of the barrier, while backfilling; the executor's stream ends, with no error.")
	assert.Contains(t, stdout.String(), "invariant: holds at every barrier.")
	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", "--release", "v3.1", f}, &stdout, &stderr), stderr.String())
	assert.NotContains(t, stdout.String(), "RELEASE")
	assert.Contains(t, stdout.String(), "the executor fails: \"locality provider upstream ended unexpectedly during backfill\"")
	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", "--json", "--release", "v3.0", f}, &stdout, &stderr), stderr.String())
	var sum map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &sum))
	assert.Nil(t, sum["error"], "a silent end under v3.0")
	assert.Equal(t, "holds", sum["invariant"])
	stdout.Reset()
	stderr.Reset()
	assert.Equal(t, 2, run([]string{"run", "--release", "2.7", f}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `unknown release "2.7": write v2.7`)
}

// TestRunWorkload: `backfill run --json` of a workload prints the scale summary (not a
// trace), the text form a table by barrier with the recovery in its place, and validate,
// list and --bug know workloads.
func TestRunWorkload(t *testing.T) {
	f := writeFile(t, "w.yaml", smallWorkload)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "--json", f}, &stdout, &stderr), stderr.String())
	var sum map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &sum))
	assert.Equal(t, "small", sum["title"])
	assert.Contains(t, sum, "series")
	assert.NotContains(t, sum, "outputs", "a summary, not a trace")
	assert.Equal(t, "holds", sum["invariant"])

	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", f}, &stdout, &stderr), stderr.String())
	text := stdout.String()
	for _, want := range []string{"small\n=====\n", "Workload: 2,000 rows inserted while buffering, over 2 barriers; 8 vnodes (crc32)",
		"epoch ", "buffered", "e1 ", "── e6: the upstream ends instead of the barrier, while backfilling; the executor fails: \"locality provider upstream ended unexpectedly during backfill\".",
		"Recovery to the checkpoint e5", "phase: forwarding", "invariant: holds at every barrier."} {
		assert.Contains(t, text, want)
	}
	assert.Less(t, strings.Count(text, "\n"), 60, "a page, not the rows")

	stdout.Reset()
	require.Equal(t, 0, run([]string{"validate", f}, &stdout, &stderr), stderr.String())
	assert.Equal(t, f+": ok\n", stdout.String())

	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", "--json", "--bug", "no-state-write", f}, &stdout, &stderr), stderr.String())
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &sum))
	assert.Equal(t, "no-state-write", sum["bug"])
	assert.Equal(t, "violated", sum["invariant"])

	stdout.Reset()
	require.Equal(t, 0, run([]string{"list", "--workloads"}, &stdout, &stderr))
	assert.Regexp(t, `^million-rows +A million rows`, stdout.String())
	assert.Contains(t, stdout.String(), "\nupstream-ends-at-scale ")
	assert.Contains(t, stdout.String(), "\nno-state-write-at-scale ")
	stdout.Reset()
	require.Equal(t, 0, run([]string{"list"}, &stdout, &stderr))
	assert.NotContains(t, stdout.String(), "million-rows", "the page lists the scenarios; `list` lists what it lists")
}

// TestRunLongWorkloadText: with more barriers than the table's lines, each line sums up a run
// of barriers, and a recovery still sits where it happened.
func TestRunLongWorkloadText(t *testing.T) {
	f := writeFile(t, "long.yaml", `title: long
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 4}
workload: {rows: 3000, snapshot_per_epoch: 20, upstream_per_epoch: 2, fault: {kind: error, epoch: 77}}
`)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", f}, &stdout, &stderr), stderr.String())
	text := stdout.String()
	assert.Contains(t, text, "One line per 5 barriers")
	assert.Contains(t, text, "── e77: the upstream yields an error instead of the barrier, while backfilling; the executor fails: \"upstream actor failed (workload fault)\".")
	assert.Less(t, strings.Count(text, "\n"), 60)
	assert.Contains(t, text, "–e", "ranges of barriers")
}

// TestInvalidWorkloadsExit2WithPosition: a bad workload exits 2 with file:line:column, for
// run, run --json and validate; a fault epoch the run never reaches too.
func TestInvalidWorkloadsExit2WithPosition(t *testing.T) {
	for _, tt := range []struct{ name, text, want string }{
		{"bad rows", strings.Replace(smallWorkload, "rows: 2000", "rows: -3", 1), ":5:9: workload.rows: must be in 0..10000000, found -3"},
		{"steps and workload", smallWorkload + "steps: []\n", ":9:1: a scenario has either steps or a workload, not both"},
		{"fault never reached", strings.Replace(smallWorkload, "epoch: 6", "epoch: 60", 1), ":8:29: workload.fault.epoch: epoch 60 is never reached"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "bad.yaml", tt.text)
			for _, args := range [][]string{{"run", "--json", f}, {"run", f}, {"validate", f}} {
				if tt.name == "fault never reached" && args[0] == "validate" {
					continue // found only by running
				}
				var stdout, stderr bytes.Buffer
				assert.Equal(t, 2, run(args, &stdout, &stderr), "%v", args)
				assert.Empty(t, stdout.String())
				assert.Equal(t, f+tt.want, strings.TrimSpace(stderr.String())[:len(f+tt.want)], "%v", args)
			}
		})
	}
}

// TestRunWorkloadDropped: a recover fault under v3.0 for a job created in the foreground (the
// default) says the job is dropped and what that costs, not that the rows are read again.
func TestRunWorkloadDropped(t *testing.T) {
	text := strings.Replace(smallWorkload, "fault: {kind: end, epoch: 6}", "fault: {kind: recover, epoch: 6}", 1)
	f := writeFile(t, "w.yaml", text)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "--release", "v3.0", f}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "The recovery dropped the job")
	assert.Contains(t, stdout.String(), "run the whole CREATE again")
	assert.NotContains(t, stdout.String(), "emits them again")
	assert.Contains(t, stdout.String(), "phase: dropped")
	assert.Contains(t, stdout.String(), "The recovery dropped the job (created in the foreground).")
}

// TestRunWorkloadDroppedBeforeACheckpoint: a fault at the first barrier drops the job whatever its
// create type; the text says why (no checkpoint yet), not "created in the foreground", and does
// not offer background_ddl, which would not have saved it.
func TestRunWorkloadDroppedBeforeACheckpoint(t *testing.T) {
	text := strings.Replace(smallWorkload, "fault: {kind: end, epoch: 6}", "fault: {kind: end, epoch: 1}", 1)
	f := writeFile(t, "w.yaml", "create: background\n"+text)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", f}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "The recovery dropped the job (no checkpoint yet).")
	assert.Contains(t, out, "run the whole CREATE again")
	assert.NotContains(t, out, "foreground")
	assert.NotContains(t, out, "BACKGROUND_DDL")
	assert.Contains(t, out, "phase: dropped")
}
