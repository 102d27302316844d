package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/session"
)

// reportsSaid lists, per step, the narration's sentences that report progress.
func reportsSaid(t *testing.T, s *session.Session) map[int]string {
	t.Helper()
	said := map[int]string{}
	for s.Timeline().Pos() < s.Steps() {
		require.NoError(t, s.Step())
		for _, ef := range s.View().Explanations {
			if ef.Kind == "report" {
				said[s.Timeline().Pos()] += ef.Text
			}
		}
	}
	return said
}

// TestProgressReports: the executor reports to the meta service at every barrier of the
// backfill (the processed snapshot rows) and at the completion barrier (finished), never while
// buffering or forwarding after its own completion; the narration says so where it happens.
func TestProgressReports(t *testing.T) {
	s, err := session.OpenBuiltin("happy-path")
	require.NoError(t, err)
	said := reportsSaid(t, s)
	assert.Equal(t, []engine.ProgressReport{
		{Step: 10, Epoch: 4, Kind: engine.ReportUpdate, Rows: 2},
		{Step: 15, Epoch: 5, Kind: engine.ReportFinish, Rows: 6, Buffered: 6},
	}, s.Timeline().Engine().Reports())
	assert.Len(t, said, 2, "only the barriers that report say so: %v", said)
	assert.Contains(t, said[10], "Progress reported to the meta service: 2 snapshot rows processed")
	assert.Contains(t, said[15], "Progress reported to the meta service: the backfill has finished, with 6 snapshot rows processed")
}

// TestFinishReportedOnceWhenStartedCompleted: an executor that starts with every vnode
// Completed reports finished at the first barrier it forwards (not at its first barrier, which
// it emits before loading its progress), once per start.
func TestFinishReportedOnceWhenStartedCompleted(t *testing.T) {
	s, err := session.Load("t.yaml", []byte(header+`start:
  state_table: [[1, 100], [2, 101], [11, 200]]
  progress:
    - {vnode: 0, pos: [2, 101], finished: true, rows: 2}
    - {vnode: 1, pos: [11, 200], finished: true, rows: 1}
steps:
  - barrier: 5
  - recover
  - barrier: 6
  - barrier: 7
  - barrier: 8
  - recover
  - barrier: 9
  - barrier: 10
`))
	require.NoError(t, err)
	said := reportsSaid(t, s)
	assert.Equal(t, []engine.ProgressReport{
		{Step: 4, Epoch: 7, Kind: engine.ReportFinish, Rows: 3, Buffered: 3},
		{Step: 8, Epoch: 10, Kind: engine.ReportFinish, Rows: 3, Buffered: 3},
	}, s.Timeline().Engine().Reports())
	require.Len(t, said, 2, "%v", said)
	assert.Contains(t, said[4], "started with every vnode already completed, so at the first barrier it forwards it reports to the meta service that it has finished, once, with 3 snapshot rows")
	assert.Contains(t, said[8], "reports to the meta service that it has finished")
}
