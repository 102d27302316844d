package scenarios

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/wire"
	"github.com/backfill-explainer/explainer/workload"
)

const wlHead = `title: w
table: {columns: [a, id, v], locality: [a], stream_key: [id]}
vnodes: {count: 16}
`

func TestWorkloadEveryKey(t *testing.T) {
	text := wlHead + `workload:
  rows: 1000
  seed: 7
  start_after: 3
  snapshot_per_epoch: 100
  upstream_per_epoch: 5
  mix: {insert: 1, update: 2, delete: 3}
  after: 4
  fault: {kind: error, epoch: 6}
`
	ws, err := ParseWorkload("w.yaml", []byte(text))
	require.NoError(t, err)
	assert.Equal(t, workload.Workload{Rows: 1000, Seed: 7, StartAfter: 3, SnapshotPerEpoch: 100, UpstreamPerEpoch: 5,
		Mix: workload.Mix{Insert: 1, Update: 2, Delete: 3}, After: 4, Fault: &workload.Fault{Kind: workload.FaultError, Epoch: 6}}, ws.Workload)
	assert.Equal(t, 16, ws.Config.VnodeCount)
	assert.Equal(t, "w", ws.Config.Title)
	for _, k := range []string{"end", "error", "recover"} {
		ws, err := ParseWorkload("w.yaml", []byte(wlHead+"workload: {rows: 10, fault: {kind: "+k+", epoch: 2}}\n"))
		require.NoError(t, err, k)
		assert.Equal(t, k, ws.Workload.Fault.Kind.String())
	}
	// JSON is YAML
	ws, err = ParseWorkload("w.json", []byte(`{"title": "j", "table": {"columns": ["a", "id"], "locality": ["a"], "stream_key": ["id"]}, "workload": {"rows": 5}}`))
	require.NoError(t, err)
	assert.Equal(t, 5, ws.Workload.Rows)
}

func TestWorkloadDefaults(t *testing.T) {
	ws, err := ParseWorkload("w.yaml", []byte(wlHead+"workload: {rows: 12345}\n"))
	require.NoError(t, err)
	assert.Equal(t, workload.Workload{Rows: 12345, Seed: 1, StartAfter: 2, SnapshotPerEpoch: 65536, UpstreamPerEpoch: 16,
		Mix: workload.Mix{Insert: 6, Update: 3, Delete: 1}, After: 2}, ws.Workload)
	assert.Equal(t, workload.Default(12345), ws.Workload)
	// a given mix: the weights it leaves out are 0
	ws, err = ParseWorkload("w.yaml", []byte(wlHead+"workload: {rows: 1, mix: {update: 2}}\n"))
	require.NoError(t, err)
	assert.Equal(t, workload.Mix{Update: 2}, ws.Workload.Mix)
}

// TestWorkloadErrors: every bad value is reported at its line and column with what was
// expected, like every other error of the format.
func TestWorkloadErrors(t *testing.T) {
	w := func(body string) string { return wlHead + "workload:\n" + body }
	tests := []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"rows missing", w("  seed: 1\n"), 5, 3, `workload: missing key "rows"`},
		{"rows negative", w("  rows: -1\n"), 5, 9, "workload.rows: must be in 0..10000000, found -1"},
		{"rows over the limit", w("  rows: 10000001\n"), 5, 9, "workload.rows: must be in 0..10000000, found 10000001"},
		{"rows a string", w("  rows: many\n"), 5, 9, `workload.rows: expected an integer, found "many"`},
		{"rows a float", w("  rows: 1.5\n"), 5, 9, "workload.rows: expected an integer, found the number 1.5"},
		{"rows a boolean", w("  rows: true\n"), 5, 9, "workload.rows: expected an integer, found the boolean true"},
		{"rows overflows", w("  rows: 99999999999999999999\n"), 5, 9, "overflows bigint"},
		{"seed negative", w("  rows: 1\n  seed: -5\n"), 6, 9, "workload.seed: must be in 0..9223372036854775807, found -5"},
		{"start_after 0", w("  rows: 1\n  start_after: 0\n"), 6, 16, "workload.start_after: must be in 1..1000, found 0"},
		{"snapshot_per_epoch 0", w("  rows: 1\n  snapshot_per_epoch: 0\n"), 6, 23, "workload.snapshot_per_epoch: must be in 1..100000000, found 0"},
		{"upstream_per_epoch over", w("  rows: 1\n  upstream_per_epoch: 1000001\n"), 6, 23, "workload.upstream_per_epoch: must be in 0..1000000, found 1000001"},
		{"after negative", w("  rows: 1\n  after: -1\n"), 6, 10, "workload.after: must be in 0..10000, found -1"},
		{"mix weight negative", w("  rows: 1\n  mix: {insert: -1}\n"), 6, 17, "workload.mix.insert: must be in 0..1000000, found -1"},
		{"mix all zero", w("  rows: 1\n  mix: {insert: 0, delete: 0}\n"), 6, 8, "workload.mix: needs at least one weight above 0"},
		{"mix empty", w("  rows: 1\n  mix: {}\n"), 6, 8, "workload.mix: needs at least one weight above 0"},
		{"mix unknown key", w("  rows: 1\n  mix: {upsert: 1}\n"), 6, 9, `unknown key "upsert" in workload.mix; allowed keys: insert, update, delete`},
		{"mix not a mapping", w("  rows: 1\n  mix: 6\n"), 6, 8, "workload.mix: expected a mapping with keys insert, update, delete"},
		{"fault kind unknown", w("  rows: 1\n  fault: {kind: crash, epoch: 3}\n"), 6, 17, `workload.fault.kind: unknown kind "crash"; expected end, error or recover`},
		{"fault without epoch", w("  rows: 1\n  fault: {kind: end}\n"), 6, 10, `workload.fault: missing key "epoch"`},
		{"fault without kind", w("  rows: 1\n  fault: {epoch: 3}\n"), 6, 10, `workload.fault: missing key "kind"`},
		{"fault epoch 0", w("  rows: 1\n  fault: {kind: end, epoch: 0}\n"), 6, 29, "workload.fault.epoch: must be at least 1, found 0"},
		{"fault epoch past every bound", w("  rows: 1\n  fault: {kind: end, epoch: 500}\n"), 6, 29, "workload.fault.epoch: epoch 500 is never reached: this run has at most 9 barriers"},
		{"unknown key", w("  rows: 1\n  rate: 5\n"), 6, 3, `unknown key "rate" in workload; allowed keys: rows, seed, start_after, snapshot_per_epoch, upstream_per_epoch, mix, after, fault`},
		{"duplicate key", w("  rows: 1\n  rows: 2\n"), 6, 3, `duplicate key "rows" (first at line 5, column 3)`},
		{"workload not a mapping", wlHead + "workload: 1000\n", 4, 11, "workload: expected a mapping with keys rows, seed"},
		{"snapshot never catches up", w("  rows: 1000\n  snapshot_per_epoch: 16\n"), 6, 23,
			"workload.snapshot_per_epoch: must be larger than upstream_per_epoch (16) when the mix inserts"},
		{"snapshot never catches up, the key left to its default", w("  rows: 1000\n  upstream_per_epoch: 65536\n"), 5, 3,
			"workload.snapshot_per_epoch: must be larger than upstream_per_epoch (65536) when the mix inserts"},
		{"too many barriers", w("  rows: 10000000\n  snapshot_per_epoch: 100\n  upstream_per_epoch: 0\n"), 6, 23,
			"workload.snapshot_per_epoch: this workload may need up to 100009 barriers; the limit is 10000"},
		{"too many changes", w("  rows: 1000000\n  snapshot_per_epoch: 20000\n  upstream_per_epoch: 19000\n"), 7, 23,
			"workload.upstream_per_epoch: this workload may generate up to 19171000 upstream changes after the start; the limit is 10000000"},
		{"few owned vnodes", strings.Replace(wlHead, "{count: 16}", "{count: 16384, owned: [3]}", 1) + "workload: {rows: 100000}\n", 4, 18,
			"workload.rows: the vnodes this actor owns (1 of 16384) can take only about 5492 generated rows"},
		{"ranges whose owned vnodes hold few numbers", strings.Replace(wlHead, "{count: 16}", "{count: 3, owned: [0, 1], rule: ranges, bounds: [10, 20]}", 1) + "workload: {rows: 20, upstream_per_epoch: 0}\n", 4, 18,
			"workload.rows: the vnodes this actor owns (2 of 3) can take only about 19 generated rows"},
		{"workload with start", wlHead + "start: {state_table: [[1, 2, 3]]}\nworkload: {rows: 1}\n", 4, 1, "a workload starts from empty tables"},
		{"workload and steps", wlHead + "steps: []\nworkload: {rows: 1}\n", 5, 1, "a scenario has either steps or a workload, not both (steps at line 4, workload at line 5)"},
		{"steps after workload", wlHead + "workload: {rows: 1}\nsteps: []\n", 5, 1, "a scenario has either steps or a workload, not both (steps at line 5, workload at line 4)"},
		{"steps instead of a workload", wlHead + "steps: []\n", 4, 1, "this scenario has steps, not a workload"},
		{"neither", wlHead, 1, 1, `scenario: missing key "workload"`},
		{"too many vnodes", strings.Replace(wlHead, "{count: 16}", "{count: 32769}", 1) + "workload: {rows: 1}\n", 3, 17, "vnodes.count must be in 1..32768, found 32769"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseWorkload("w.yaml", []byte(tt.text))
			var pe *Error
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Equal(t, "w.yaml", pe.File)
			assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{pe.Line, pe.Col}, "%s", pe)
			assert.Contains(t, pe.Msg, tt.msg)
			_, err2 := Scale("w.yaml", []byte(tt.text), nil)
			assert.Equal(t, err.Error(), err2.Error(), "Scale reports the same error")
		})
	}
}

// TestFaultNeverReached: a fault epoch after the run's last barrier is an error at the
// fault's epoch, found when the run ends.
func TestFaultNeverReached(t *testing.T) {
	text := wlHead + "workload:\n  rows: 10\n  fault: {kind: end, epoch: 9}\n"
	_, err := ParseWorkload("w.yaml", []byte(text))
	require.NoError(t, err, "within the bound Check can prove")
	_, err = Scale("w.yaml", []byte(text), nil)
	var pe *Error
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, "w.yaml:6:29: workload.fault.epoch: epoch 9 is never reached: this run's last barrier has epoch 6", pe.Error())
}

func scaleJSON(t *testing.T, name string, text []byte) []byte {
	t.Helper()
	s, err := Scale(name, text, nil)
	require.NoError(t, err)
	b, err := wire.ScaleSummaryJSON(s)
	require.NoError(t, err)
	return b
}

// TestScaleIsDeterministic: the same file gives the same summary, byte for byte; another
// seed gives another run.
func TestScaleIsDeterministic(t *testing.T) {
	text := []byte(wlHead + "workload: {rows: 5000, snapshot_per_epoch: 700, fault: {kind: error, epoch: 7}}\n")
	a, b := scaleJSON(t, "w.yaml", text), scaleJSON(t, "w.yaml", text)
	assert.Equal(t, string(a), string(b))
	other := scaleJSON(t, "w.yaml", []byte(strings.Replace(string(text), "rows: 5000", "rows: 5000, seed: 2", 1)))
	assert.NotEqual(t, string(a), string(other))
}

// TestScaleGolden: the small workload's summary is the one kept in testdata (the summary
// format and the generator are stable: the same seed gives the same run on every machine).
// `go run ./cmd/backfill check -update` rewrites it.
func TestScaleGolden(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "scale", "small.yaml"))
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join("testdata", "scale", "small.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(scaleJSON(t, "small.yaml", text)), "rerun `go run ./cmd/backfill check -update` if the change is on purpose")
}

// TestScaleSummaryShape: the summary has the format's keys with the format's types, one
// series entry per barrier, one progress row per vnode (null for a vnode not owned), each
// with a fraction per kept barrier; and the documented keys beyond them.
func TestScaleSummaryShape(t *testing.T) {
	text := []byte(`title: shape
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 8, owned: [1, 2, 3, 5]}
workload: {rows: 3000, snapshot_per_epoch: 400, upstream_per_epoch: 10, fault: {kind: recover, epoch: 6}}
`)
	var got map[string]any
	require.NoError(t, json.Unmarshal(scaleJSON(t, "shape.yaml", text), &got))
	for k, typ := range map[string]string{
		"title": "string", "phase": "string", "epochs": "number", "rows": "number", "downstream_rows": "number",
		"invariant": "string", "series": "object", "progress": "array", "error": "null",
		"progress_barriers": "array", "recoveries": "array", "violation": "null", "totals": "object",
		"vnodes": "number", "owned": "number", "workload": "object",
	} {
		require.Contains(t, got, k)
		assert.Equal(t, typ, jsonType(got[k]), k)
	}
	assert.Len(t, got, 16, "no keys beyond the documented ones (bug only under a bug mode)")
	assert.Equal(t, "shape", got["title"])
	assert.Equal(t, "forwarding", got["phase"])
	assert.Equal(t, "holds", got["invariant"])
	assert.EqualValues(t, 3000, got["rows"])
	series := got["series"].(map[string]any)
	epochs := int(got["epochs"].(float64))
	keys := []string{"epoch", "phase", "buffered_rows", "snapshot_rows", "upstream_visible", "upstream_hidden", "vnodes_completed", "vnodes_in_progress"}
	assert.Len(t, series, len(keys))
	for _, k := range keys {
		arr, ok := series[k].([]any)
		require.True(t, ok, k)
		require.Len(t, arr, epochs, k)
		for _, v := range arr {
			want := "number"
			if k == "phase" {
				want = "string"
			}
			require.Equal(t, want, jsonType(v), k)
		}
	}
	for i, p := range series["phase"].([]any) {
		assert.Contains(t, []string{"starting", "buffering", "backfilling", "completing", "forwarding", "ended", "failed"}, p, i)
	}
	progress := got["progress"].([]any)
	barriers := got["progress_barriers"].([]any)
	require.Len(t, progress, 8)
	for v, row := range progress {
		if v == 0 || v == 4 || v == 6 || v == 7 {
			assert.Nil(t, row, "vnode %d is not owned", v)
			continue
		}
		fr := row.([]any)
		require.Len(t, fr, len(barriers))
		for _, f := range fr {
			assert.GreaterOrEqual(t, f.(float64), 0.0)
			assert.LessOrEqual(t, f.(float64), 1.0)
		}
		assert.Equal(t, 1.0, fr[len(fr)-1], "every vnode is passed at the end")
	}
	assert.Len(t, barriers, epochs, "few barriers: every one is kept")
	rec := got["recoveries"].([]any)
	require.Len(t, rec, 1)
	r := rec[0].(map[string]any)
	assert.Equal(t, map[string]string{"barrier": "number", "epoch": "number", "kind": "string", "during": "string", "outcome": "string",
		"error": "null", "rolled_back_to": "number", "dropped": "boolean", "lost_buffered_rows": "number", "lost_builder_rows": "number", "lost_emitted_rows": "number"}, typesOf(r))
	assert.Equal(t, map[string]string{"inserted": "number", "updated": "number", "deleted": "number", "snapshot_rows": "number",
		"upstream_visible": "number", "upstream_hidden": "number", "upstream_rows": "number", "steps": "number"}, typesOf(got["totals"].(map[string]any)))
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	}
	return "object"
}

func typesOf(m map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = jsonType(v)
	}
	return out
}

var builtinRuns = map[string]*ScaleSummary{}

// builtinRun runs a built-in workload once for all the tests that look at it.
func builtinRun(t *testing.T, name string) (*WorkloadScenario, *ScaleSummary) {
	t.Helper()
	ws, err := OpenWorkload(name)
	require.NoError(t, err)
	if s, ok := builtinRuns[name]; ok {
		return ws, s
	}
	if testing.Short() && ws.Workload.Rows >= 1_000_000 {
		t.Skipf("-short: %s runs %d rows", name, ws.Workload.Rows)
	}
	s, err := ws.Run(nil)
	require.NoError(t, err)
	builtinRuns[name] = s
	return ws, s
}

// TestBuiltinWorkloads: every built-in workload parses and runs; the invariant holds in all
// but the bug mode's, which violates it; the fault's summary shows the failure and the resume.
func TestBuiltinWorkloads(t *testing.T) {
	names := WorkloadNames()
	require.GreaterOrEqual(t, len(names), 3)
	assert.Equal(t, []string{"million-rows", "upstream-ends-at-scale", "no-state-write-at-scale"}, names[:3])
	infos := Workloads()
	require.Len(t, infos, len(names), "every built-in workload parses")
	for _, in := range infos {
		assert.NotEmpty(t, in.Title, in.Name)
		assert.NotEmpty(t, in.Summary, in.Name)
		assert.True(t, strings.HasSuffix(in.Summary, "."), "%s: the one-line summary is a sentence", in.Name)
	}
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			ws, s := builtinRun(t, n)
			assert.Equal(t, "forwarding", s.Phase)
			assert.Nil(t, s.Error)
			if ws.Config.Bug != engine.BugNone {
				assert.Equal(t, "violated", s.Invariant)
				require.NotNil(t, s.Violation)
				assert.Greater(t, s.Violation.Missing, 0, "the lost changes are missing downstream")
				return
			}
			assert.Equal(t, "holds", s.Invariant)
			assert.Nil(t, s.Violation)
			assert.Equal(t, s.Totals.UpstreamRows, s.DownstreamRows, "downstream ends with the upstream's content")
		})
	}
	t.Run("million-rows is the format's example", func(t *testing.T) {
		ws, err := OpenWorkload("million-rows")
		require.NoError(t, err)
		assert.Equal(t, "A million rows over 256 vnodes", ws.Config.Title)
		assert.Equal(t, 1_000_000, ws.Workload.Rows)
		assert.Equal(t, 256, ws.Config.VnodeCount)
		assert.Len(t, ws.Config.Owned, 256)
	})
}

// TestFaultWorkloadShowsFailureAndResume: in upstream-ends-at-scale the series stops at
// epoch 8, the recovery entry names the fatal error, the first barrier after it (epoch 9)
// finds the vnodes as persisted at epoch 8, and the backfill then goes on to completion.
func TestFaultWorkloadShowsFailureAndResume(t *testing.T) {
	_, s := builtinRun(t, "upstream-ends-at-scale")
	require.Len(t, s.Recoveries, 1)
	r := s.Recoveries[0]
	assert.Equal(t, "end", r.Kind)
	assert.Equal(t, "backfilling", r.During)
	assert.Equal(t, "failed", r.Outcome)
	require.NotNil(t, r.Error)
	assert.Equal(t, engine.ErrUpstreamEnded, r.Error.Message)
	assert.EqualValues(t, 9, r.Epoch)
	assert.EqualValues(t, 8, r.RolledBackTo)
	assert.Positive(t, r.LostBuilderRows+r.LostBufferedRows+r.LostEmittedRows)
	ser := s.Series
	k := r.Barrier
	require.Greater(t, len(ser.Epoch), k+2)
	assert.EqualValues(t, 8, ser.Epoch[k-1], "the last barrier before the end")
	assert.EqualValues(t, 9, ser.Epoch[k], "the first barrier after the recovery")
	assert.Equal(t, "backfilling", ser.Phase[k], "the restarted executor resumes the backfill at once")
	assert.Equal(t, ser.VnodesInProgress[k-1], ser.VnodesInProgress[k], "with the progress persisted at epoch 8")
	assert.Zero(t, ser.SnapshotRows[k], "nothing is read before that barrier")
	assert.Positive(t, ser.SnapshotRows[k+1], "and then the snapshot reads on")
	assert.Equal(t, "forwarding", ser.Phase[len(ser.Phase)-1])

	// the same run without the fault: the recovery costs exactly one barrier
	plain, err := OpenWorkload("upstream-ends-at-scale")
	require.NoError(t, err)
	plain.Workload.Fault = nil
	p, err := plain.Run(nil)
	require.NoError(t, err)
	assert.Equal(t, p.Epochs+1, s.Epochs)
	assert.Equal(t, p.DownstreamRows, s.DownstreamRows, "the upstream replays the lost changes: the same end")
}

// TestScaleProgressAndCancel: the callback sees work that only grows, never past its total,
// and a last call with done == total; returning false cancels the run.
func TestScaleProgressAndCancel(t *testing.T) {
	text := []byte(wlHead + "workload: {rows: 300000, snapshot_per_epoch: 20000}\n")
	if testing.Short() {
		text = []byte(wlHead + "workload: {rows: 30000, snapshot_per_epoch: 2000}\n") // (the same epochs)
	}
	var calls [][2]int
	_, err := Scale("w.yaml", text, func(done, total int) bool {
		calls = append(calls, [2]int{done, total})
		return true
	})
	require.NoError(t, err)
	require.Greater(t, len(calls), 10)
	assert.LessOrEqual(t, len(calls), 260, "about 200 calls")
	for i, c := range calls {
		assert.LessOrEqual(t, c[0], c[1], "call %d", i)
		if i > 0 {
			assert.GreaterOrEqual(t, c[0], calls[i-1][0], "call %d", i)
		}
	}
	last := calls[len(calls)-1]
	assert.Equal(t, last[0], last[1])
	n := 0
	_, err = Scale("w.yaml", text, func(done, total int) bool { n++; return n < 5 })
	assert.ErrorIs(t, err, ErrCanceled)
	assert.Equal(t, 5, n)
}

// TestScaleProgressIsBounded: 32768 vnodes and ten times more barriers than the budget allows
// columns for still give a progress matrix within the budget: every vnode's row, at a few
// barriers (the first and the last among them).
func TestScaleProgressIsBounded(t *testing.T) {
	text := []byte(`title: wide
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 32768}
workload: {rows: 5000, snapshot_per_epoch: 60, upstream_per_epoch: 4, after: 5}
`)
	s, err := Scale("wide.yaml", text, nil)
	require.NoError(t, err)
	require.Greater(t, s.Epochs, 10*workload.ProgressColumns(32768))
	assert.Len(t, s.Progress, 32768)
	cols := workload.ProgressColumns(32768)
	assert.LessOrEqual(t, len(s.ProgressBarriers), cols)
	assert.Equal(t, s.Epochs-1, s.ProgressBarriers[len(s.ProgressBarriers)-1], "the last barrier is kept")
	assert.Zero(t, s.ProgressBarriers[0])
	assert.LessOrEqual(t, len(s.Progress)*len(s.ProgressBarriers), workload.ProgressBudget)
	for _, row := range s.Progress {
		require.Len(t, row, len(s.ProgressBarriers))
	}
	b, err := wire.ScaleSummaryJSON(s)
	require.NoError(t, err)
	assert.Less(t, len(b), 2<<20, "the summary stays small: %d bytes", len(b))
}

// A workload's memory is bounded before it runs: rows × columns × bytes a value, against
// workload.MaxMemory, reported at workload.rows with the figure. 1000 varchar columns × 100,000
// rows used to validate, then run 48 s and take 5.1 GB (× 1M rows: out of memory, exit 2).
func TestWorkloadMemoryBudget(t *testing.T) {
	cols := []string{"a", "id"}
	for i := range 1000 {
		cols = append(cols, fmt.Sprintf("c%d:varchar", i))
	}
	head := "title: w\ntable: {columns: [" + strings.Join(cols, ", ") + "], locality: [a], stream_key: [id]}\nvnodes: {count: 256}\nworkload:\n"
	for _, rows := range []string{"100000", "1000000"} {
		text := head + "  seed: 1\n  rows: " + rows + "\n"
		_, err := ParseWorkload("w.yaml", []byte(text))
		var pe *Error
		require.True(t, errors.As(err, &pe), "%v", err)
		assert.Equal(t, [2]int{6, 9}, [2]int{pe.Line, pe.Col}, "%s", pe)
		assert.Contains(t, pe.Msg, "workload.rows: this workload needs ~")
		assert.Contains(t, pe.Msg, "; the budget is 2.1 GB (2 GiB)")
	}
	// 10 million rows of two integer columns still fit, and so do the built-ins
	_, err := ParseWorkload("w.yaml", []byte(strings.Replace(wlHead, "a, id, v", "a, id", 1)+"workload: {rows: 10000000}\n"))
	require.NoError(t, err)
	for _, name := range WorkloadNames() {
		_, err := OpenWorkload(name)
		require.NoError(t, err, name)
	}
}
