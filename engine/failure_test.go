package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
	"github.com/backfill-explainer/explainer/session"
)

// TestFailureTableIsComplete: every failure kind has one entry, with a meaning, sentences the
// source proves (each with lines and a link at the pinned commit) and at least one inference.
func TestFailureTableIsComplete(t *testing.T) {
	kinds := []engine.FailureKind{engine.FailUpstreamEnded, engine.FailUpstreamEndedBuffering, engine.FailStreamClosed,
		engine.FailFirstNotBarrier, engine.FailFirstNotCheckpoint, engine.FailRescale, engine.FailUpstreamError, engine.FailSnapshotError}
	require.Len(t, failure.Failures, len(kinds))
	for _, k := range kinds {
		info := failure.Of(k)
		require.NotNil(t, info, k)
		assert.NotEmpty(t, info.Meaning, k)
		assert.NotEmpty(t, info.Proven, k)
		assert.NotEmpty(t, info.Inferred, k)
		cites := append([]engine.Citation{}, info.Proven...)
		for _, c := range info.ProvenIn {
			cites = append(cites, c)
		}
		for _, c := range cites {
			assert.NotEmpty(t, c.Text, k)
			assert.Contains(t, []string{engine.FileLocalityProvider, engine.FileExecutorMod, engine.FileActor, engine.FileMerge, engine.FileExchangeInput, engine.FilePanicHook}, c.File, k)
			assert.LessOrEqual(t, c.Lines[0], c.Lines[1], k)
			assert.Equal(t, engine.FileURL(c.File, c.Lines), c.URL, k)
			assert.Contains(t, c.URL, engine.SourceCommit, k)
		}
	}
	assert.True(t, engine.FailFirstNotBarrier.Panics())
	assert.True(t, engine.FailFirstNotCheckpoint.Panics())
	assert.Contains(t, failure.Of(engine.FailFirstNotBarrier).Proven[1].Text, "expects it to be one", "the first-message panic is an expect, not an assertion")
	assert.Contains(t, failure.Of(engine.FailFirstNotCheckpoint).Proven[1].Text, "asserts", "the checkpoint-kind check is the assertion")
}

// TestFailureExplanations: each failure path explains itself in the view: its kind, what the
// source proves there, what we infer, what it left behind (counted) and what recovery does.
func TestFailureExplanations(t *testing.T) {
	tests := []struct {
		name       string
		yaml       string
		kind       engine.FailureKind
		panic      bool
		lines      [2]int // a citation the explanation must carry
		leftBehind []string
		recovery   string
	}{
		{"upstream ends mid-backfill", `chunk_size: 2
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101", "+ 3 102", "+ 4 103", "+ 11 200"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 2
  - barrier: 3
  - snapshot: 3
  - chunk: ["+ 5 104", "+ 12 201"]
  - end
`, engine.FailUpstreamEnded, false, engine.LinesFatalEnd,
			[]string{"Never emitted: 1 row in the builders (vnode 1) and 1 chunk in the upstream buffer (2 rows).", "Progress made since the last checkpoint (e3) is not durable.", "Downstream received 1 output since the last checkpoint (e3); a recovery rolls it back."},
			"resumes the snapshot (vnode 0 after (2,101))"},
		{"upstream ends while buffering", `steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - end
`, engine.FailUpstreamEndedBuffering, false, [2]int{471, 473},
			[]string{"Never committed: 1 write to the state table."},
			"buffers again and waits for a new start signal"},
		{"stream closed first", "steps:\n  - end\n", engine.FailStreamClosed, false, failure.LinesModStreamClosed,
			[]string{"Nothing: the executor failed on its first message"}, "deletes a job in its initial status"},
		{"chunk first", "steps:\n  - chunk: [\"+ 1 100\"]\n", engine.FailFirstNotBarrier, true, failure.LinesModExpectBarrier,
			[]string{"Nothing"}, "deletes a job in its initial status"},
		{"non-checkpoint first barrier", "steps:\n  - barrier: {epoch: 1, checkpoint: false}\n", engine.FailFirstNotCheckpoint, true, failure.LinesModAssertCheckpoint,
			[]string{"Nothing"}, "deletes a job in its initial status"},
		{"rescale at a backfill barrier", `steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - chunk: ["+ 3 102"]
  - barrier: {epoch: 3, rescale: true}
`, engine.FailRescale, false, [2]int{658, 690},
			[]string{"Already emitted at this barrier, before the failure: 2 chunks.", "Never committed: 1 write to the state table."},
			"buffers again"},
		{"rescale while buffering", "steps:\n  - barrier: 1\n  - barrier: {epoch: 2, rescale: true}\n", engine.FailRescale, false, [2]int{500, 501},
			[]string{"Nothing in memory"}, "buffers again"},
		{"upstream error while backfilling", `steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - error: exchange closed
`, engine.FailUpstreamError, false, [2]int{586, 587},
			[]string{"Never emitted: 1 row in the builders (vnode 0)."}, "buffers again"},
		{"snapshot read error", `steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - chunk: ["+ 11 200"]
  - snapshot_error: object store timed out
`, engine.FailSnapshotError, false, [2]int{606, 606},
			[]string{"Never emitted: 1 row in the builders (vnode 0) and 1 chunk in the upstream buffer (1 row)."}, "buffers again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := runScenario(t, header+tt.yaml)
			v := s.View()
			f := v.Failure
			require.NotNil(t, f)
			assert.Equal(t, tt.kind, f.Kind)
			assert.Equal(t, v.Error.Message, f.Message)
			assert.Equal(t, tt.panic, f.Panic)
			assert.Equal(t, v.Error.Step, f.Step)
			var lines [][2]int
			for _, c := range f.Proven {
				lines = append(lines, c.Lines)
			}
			assert.Contains(t, lines, tt.lines)
			for _, lb := range tt.leftBehind {
				assert.Contains(t, f.LeftBehind, lb)
			}
			assert.Contains(t, f.Recovery, "Recovery is not in this file")
			assert.Contains(t, f.Recovery, tt.recovery)
			b, err := json.Marshal(v)
			require.NoError(t, err)
			assert.Contains(t, string(b), `"failure":{"kind":"`+string(tt.kind)+`"`)

			// after a recovery the failure and its explanation are gone
			require.NoError(t, s.Apply("recover"))
			assert.Nil(t, s.View().Failure)
			assert.Contains(t, string(mustMarshal(t, s.View())), `"failure":null`)
		})
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// TestSnapshotErrorOnlyWhileBackfilling: the step is refused, with the phase named, when no
// snapshot is being read.
func TestSnapshotErrorOnlyWhileBackfilling(t *testing.T) {
	for _, steps := range []string{"  - snapshot_error: x\n", "  - barrier: 1\n  - snapshot_error: x\n"} {
		_, err := loadScenario(header + "steps:\n" + steps)
		require.Error(t, err)
		assert.True(t, strings.Contains(err.Error(), "no snapshot is being read"), err.Error())
	}
}

func loadScenario(text string) (*session.Session, error) {
	return session.Load("t.yaml", []byte(text))
}
