package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// header is a two-vnode table: a<10 → v0, a≥10 → v1, fragment 7.
const header = `title: t
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, rule: ranges, bounds: [10]}
fragment: 7
`

func runScenario(t *testing.T, text string) *session.Session {
	t.Helper()
	s, err := session.Load("t.yaml", []byte(text))
	require.NoError(t, err)
	require.NoError(t, s.RunToEnd())
	return s
}

func outputs(s *session.Session) []string {
	var out []string
	for _, o := range s.Timeline().Engine().Outputs() {
		out = append(out, o.String())
	}
	return out
}

func progressJSON(s *session.Session) string {
	b, _ := json.Marshal(s.Trace().ProgressTable)
	return string(b)
}

func TestFirstMessage(t *testing.T) {
	tests := []struct {
		name  string
		steps string
		msg   string
		panic bool
	}{
		{"stream ends first", "- end", engine.ErrStreamClosed, false},
		{"error first", "- error: upstream actor panicked", "upstream actor panicked", false},
		{"chunk first panics", `- chunk: ["+ 1 100"]`, "the first message must be a barrier: chunk +(1,100)", true},
		{"watermark first panics", "- watermark: {column: a, value: 5}", "the first message must be a barrier: watermark a=5", true},
		{"non-checkpoint first barrier panics", "- barrier: {epoch: 1, checkpoint: false}", engine.PanicNotCheckpoint, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := runScenario(t, header+"steps:\n"+tt.steps+"\n")
			tr := s.Trace()
			require.NotNil(t, tr.Error)
			assert.Equal(t, tt.msg, tr.Error.Message)
			assert.Equal(t, tt.panic, tr.Error.Panic)
			assert.Equal(t, 1, tr.Error.Step)
			assert.Equal(t, "failed", tr.Phase)
			assert.Empty(t, tr.Outputs)
		})
	}
}

func TestFirstBarrierIgnoresItsMutation(t *testing.T) {
	s := runScenario(t, header+`steps:
  - barrier: {epoch: 1, start_backfill: [7]}
  - barrier: {epoch: 2, rescale: true}
`)
	// the start signal on the first barrier is not looked at; the second barrier's rescale fails buffering
	assert.Equal(t, []string{"B e1"}, outputs(s))
	assert.Equal(t, engine.ErrRescale, s.Trace().Error.Message)
}

func TestBuffering(t *testing.T) {
	s := runScenario(t, header+`steps:
  - barrier: 1
  - chunk: ["+ 1 100", "(+ 2 101)", "+ 11 200"]
  - watermark: {column: a, value: 5}
  - barrier: {epoch: 2, start_backfill: [8]}
`)
	v := s.View()
	assert.Equal(t, "buffering", v.Phase, "a start signal for another fragment is ignored")
	assert.Equal(t, []string{"B e1", "B e2"}, outputs(s), "nothing but barriers is emitted while buffering")
	require.Len(t, v.StateTable.Rows, 2, "the invisible row is skipped")
	assert.Empty(t, v.StateTable.Pending)
	assert.Equal(t, "[]", progressJSON(s), "NotStarted is never persisted")
}

func TestEndWhileBufferingFailsAtThatStep(t *testing.T) {
	s := runScenario(t, header+`steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - end
`)
	tr := s.Trace()
	require.NotNil(t, tr.Error)
	assert.Equal(t, engine.ErrUpstreamEnded, tr.Error.Message)
	assert.Equal(t, 3, tr.Error.Step)
}

func TestBuilderCapacityIsAtLeastTwo(t *testing.T) {
	s := runScenario(t, header+`chunk_size: 1
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101", "+ 3 102"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - snapshot: 1
`)
	assert.Equal(t, []string{"B e1", "B e2", "chunk +(1,100)✓ +(2,101)✓"}, outputs(s))
	v := s.View()
	assert.Equal(t, 2, v.Config.Capacity)
	assert.Equal(t, "in_progress", v.Progress[0].State)
}

func TestHasProgressGateHoldsBackChunks(t *testing.T) {
	s := runScenario(t, header+`steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - chunk: ["+ 12 201"]
  - barrier: 3
  - snapshot: 3
`)
	// no vnode is in progress at e3: the chunk is not emitted, only stored; the refreshed
	// snapshot then reads it
	assert.Equal(t, []string{"B e1", "B e2", "B e3", "chunk +(1,100)✓", "chunk +(12,201)✓"}, outputs(s))
	assert.Equal(t, "completing", s.View().Phase)
}

func TestReuseVersusRefresh(t *testing.T) {
	base := header + `steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
`
	reuse := runScenario(t, base+"  - barrier: 3\n")
	assert.Equal(t, 3, reuse.View().Snapshot.OpenedAt, "no chunk arrived: the stream opened at step 3 is kept")
	refresh := runScenario(t, base+"  - chunk: [\"+ 5 104\"]\n  - barrier: 3\n")
	assert.Equal(t, 6, refresh.View().Snapshot.OpenedAt, "a chunk arrived: the stream is reopened at the barrier")
	assert.Equal(t, 3, refresh.View().Snapshot.Remaining, "(2,101), (5,104) and the end")
}

func TestMarkingKeepsOpsAndOrder(t *testing.T) {
	s := runScenario(t, `title: t
table: {columns: [a, id, v], locality: [a], stream_key: [id]}
vnodes: {count: 3, rule: ranges, bounds: [10, 20]}
fragment: 7
steps:
  - barrier: 1
  - chunk: ["+ 1 100 x", "+ 2 101 x", "+ 3 102 x", "+ 11 200 x", "+ 21 300 x"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 2
  - chunk: ["U- 1 100 x", "U+ 1 100 y", "- 3 102 x", "+ 25 301 z", "(+ 4 103 q)"]
  - barrier: 3
`)
	outs := outputs(s)
	require.Len(t, outs, 5)
	assert.Equal(t, "chunk U-(1,100,x)✓ U+(1,100,y)✓ -(3,102,x)✗ +(25,301,z)✗", outs[3],
		"ops unchanged; ≤ pos visible, > pos and NotStarted hidden; the invisible row compacted away")
	assert.Equal(t, "holds", s.View().Invariant.Status)
}

func TestSnapshotEndFlushesBufferUnstored(t *testing.T) {
	s := runScenario(t, header+`steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - chunk: ["+ 12 201"]
  - snapshot: 2
`)
	assert.Equal(t, []string{"B e1", "B e2", "chunk +(1,100)✓", "chunk +(12,201)✓"}, outputs(s))
	v := s.View()
	assert.Equal(t, "completing", v.Phase)
	assert.Len(t, v.StateTable.Rows, 1, "flushed chunks are not written to the state table")
	assert.Equal(t, "[]", progressJSON(s), "the snapshot's end is not a barrier: nothing persisted")
}

func TestCompletionPersistsEmptyVnodesWithNullPos(t *testing.T) {
	s := runScenario(t, header+`steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 2
  - barrier: 3
`)
	assert.Equal(t, `[[0,1,100,true,1],[1,null,null,true,0]]`, progressJSON(s))
	assert.Equal(t, "forwarding", s.View().Phase)
}

func TestEndOrErrorInCompletionIsSwallowed(t *testing.T) {
	for _, ev := range []string{"end", "error: boom"} {
		t.Run(ev, func(t *testing.T) {
			s := runScenario(t, header+`steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 2
  - `+ev+"\n")
			tr := s.Trace()
			assert.Nil(t, tr.Error)
			assert.Equal(t, "ended", tr.Phase)
			assert.Equal(t, "[]", progressJSON(s), "no completion barrier: nothing persisted")
		})
	}
}

func TestForwarding(t *testing.T) {
	base := header + `steps:
  - barrier: 1
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - barrier: 3
  - chunk: ["+ 1 100", "(+ 2 101)"]
  - watermark: {column: a, value: 9}
`
	s := runScenario(t, base+"  - end\n")
	assert.Equal(t, []string{"B e1", "B e2", "B e3", "chunk +(1,100)✓ +(2,101)✗", "W a=9"}, outputs(s), "forwarded unchanged, not compacted")
	assert.Equal(t, "ended", s.Trace().Phase)
	assert.Equal(t, engine.ErrRescale, runScenario(t, base+"  - barrier: {epoch: 4, rescale: true}\n").Trace().Error.Message)
	assert.Equal(t, "boom", runScenario(t, base+"  - error: boom\n").Trace().Error.Message)
}

func TestStartsCompletedGoesStraightToForwarding(t *testing.T) {
	s := runScenario(t, header+`start:
  state_table: [[1, 100]]
  progress:
    - {vnode: 0, pos: [1, 100], finished: true, rows: 1}
    - {vnode: 1, pos: [null, null], finished: true, rows: 0}
steps:
  - barrier: 5
  - chunk: ["+ 2 101"]
`)
	assert.Equal(t, "forwarding", s.View().Phase)
	assert.Equal(t, "[[1,100],[2,101]]", testutil.MustJSON(s.Trace().Downstream), "downstream starts with the passed start rows")
}

func TestRecoveryRollsBackToLastCheckpoint(t *testing.T) {
	s := runScenario(t, header+`steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101", "+ 3 102"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 2
  - barrier: 3
  - snapshot: 1
  - barrier: {epoch: 4, checkpoint: false}
  - recover
`)
	tr := s.Trace()
	assert.Equal(t, `[[0,2,101,false,2]]`, progressJSON(s), "e4 was not a checkpoint: its progress is undone")
	assert.Equal(t, "[[1,100],[2,101]]", testutil.MustJSON(tr.Downstream), "downstream rolls back to e3")
	assert.Equal(t, "recovery to e3", outputs(s)[len(tr.Outputs)-1])
	assert.Equal(t, "starting", tr.Phase)
	// restart: skips buffering, resumes after (2,101)
	s2 := runScenario(t, header+`steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101", "+ 3 102"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 2
  - barrier: 3
  - recover
  - barrier: 5
  - snapshot: 2
  - barrier: 6
`)
	outs := outputs(s2)
	assert.Equal(t, []string{"B e5", "chunk +(3,102)✓", "B e6"}, outs[len(outs)-3:])
	assert.Equal(t, "holds", s2.View().Invariant.Status)
}

func TestInputErrors(t *testing.T) {
	tests := []struct {
		name  string
		steps string
		want  string
	}{
		{"step after failure", "- end\n  - barrier: 2", "step 2: the executor has failed"},
		{"snapshot while buffering", "- barrier: 1\n  - snapshot: 1", "step 2: no snapshot is being read"},
		{"snapshot past its end", "- barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 2", "step 3: the snapshot has only 1 item left"},
		{"insert an existing pk", "- barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - chunk: [\"+ 1 100\"]", "step 3: inserts pk (1,100)"},
		{"delete a missing row", "- barrier: 1\n  - chunk: [\"- 1 100\"]", "step 2: deletes (1,100), which the upstream does not hold"},
		{"split update pair", "- barrier: 1\n  - chunk: [\"+ 1 100\", \"U- 1 100\", \"+ 2 101\"]", "step 2: U-(1,100) must be followed by U+"},
		{"step after the stream ended", "- barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - end\n  - chunk: [\"+ 1 100\"]", "step 5: the executor's stream has ended"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := session.Load("t.yaml", []byte(header+"steps:\n  "+tt.steps+"\n"))
			require.Error(t, err)
			var pe *scenarios.Error
			require.ErrorAs(t, err, &pe)
			assert.Contains(t, pe.Msg, tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "t.yaml:"), err.Error())
		})
	}
}

func TestBranchedFlag(t *testing.T) {
	s, err := session.OpenBuiltin("happy-path")
	require.NoError(t, err)
	require.NoError(t, s.Goto(6))
	require.NoError(t, s.Apply("snapshot: 2"), "the scripted step")
	assert.False(t, s.View().Branched)
	require.NoError(t, s.Apply(`chunk: ["+ 5 104"]`), "an injected chunk")
	assert.True(t, s.View().Branched)
}

// TestDownstreamNeverHoldsARowLessThanZeroTimes: a visible delete of a row downstream does not
// hold (here a U- of a row the has-progress gate dropped) changes nothing and is named as an
// inconsistency; the U+ that follows then puts the row there, instead of cancelling out.
func TestDownstreamNeverHoldsARowLessThanZeroTimes(t *testing.T) {
	s, err := session.Load("t.yaml", []byte(header+`start:
  state_table: [[1, 100], [11, 200]]
  progress:
    - {vnode: 1, pos: [11, 200], finished: true, rows: 1}
steps:
  - barrier: 10
  - chunk: ["+ 14 103"]
  - barrier: 11
  - snapshot: 2
  - barrier: 12
  - chunk: ["U- 14 103", "U+ 14 103"]
  - barrier: 13
`))
	require.NoError(t, err)
	require.NoError(t, s.Goto(3))
	assert.Equal(t, "[[14,103]]", testutil.MustJSON(s.View().Invariant.Missing), "the gate dropped (14,103) of the completed vnode 1")
	require.NoError(t, s.Goto(6))
	var said []string
	for _, ef := range s.View().Explanations {
		said = append(said, ef.Text)
	}
	assert.Contains(t, strings.Join(said, "\n"), "Inconsistency: this chunk deletes U-(14,103), but downstream does not hold it, so the delete changes nothing there")
	require.NoError(t, s.RunToEnd())
	assert.Equal(t, "[[1,100],[11,200],[14,103]]", testutil.MustJSON(s.Trace().Downstream), "the U+ puts the row downstream")
	assert.Equal(t, "holds", s.View().Invariant.Status)
}
