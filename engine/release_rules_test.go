package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/session"
)

// runUnder runs a scenario text to its end under a release.
func runUnder(t *testing.T, release, steps string) *session.Session {
	t.Helper()
	s, err := session.Load("t.yaml", []byte(header+"release: "+release+"\nsteps:\n"+steps))
	require.NoError(t, err)
	require.NoError(t, s.RunToEnd())
	return s
}

// Held-out cases (not built-ins), each asserted by the release's rule.
var (
	rescaleBuffering   = "  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - barrier: {epoch: 2, rescale: true}\n"
	rescaleBackfilling = "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 11 200\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - chunk: [\"+ 2 101\"]\n  - barrier: {epoch: 3, rescale: true}\n"
	rescaleCompleting  = "  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: {epoch: 3, rescale: true}\n"
	rescaleForwarding  = "  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n  - barrier: {epoch: 4, rescale: true}\n"
	endBuffering       = "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 11 200\"]\n  - barrier: 2\n  - chunk: [\"+ 2 101\", \"+ 12 201\"]\n  - end\n"
	endBackfilling     = "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 2 101\", \"+ 11 200\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - chunk: [\"+ 3 102\"]\n  - end\n"
	endCompleting      = "  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - end\n"
	endForwarding      = "  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n  - end\n"
)

// TestRescaleByRelease: v3.1 fails at a rescale in every phase; earlier releases ignore it, the
// barrier committed and emitted like one without a mutation.
func TestRescaleByRelease(t *testing.T) {
	for _, r := range engine.Releases {
		for name, steps := range map[string]string{"buffering": rescaleBuffering, "backfilling": rescaleBackfilling, "completing": rescaleCompleting, "forwarding": rescaleForwarding} {
			tr := runUnder(t, r.Name, steps).Trace()
			if r.RescaleFails {
				require.NotNil(t, tr.Error, "%s %s", r.Name, name)
				assert.Equal(t, engine.ErrRescale, tr.Error.Message, "%s %s", r.Name, name)
				assert.Equal(t, "failed", tr.Phase)
				continue
			}
			assert.Nil(t, tr.Error, "%s %s", r.Name, name)
			last := tr.Outputs[len(tr.Outputs)-1]
			assert.Equal(t, engine.OutBarrier, last.Type, "%s %s: the rescale barrier is emitted", r.Name, name)
			want := map[string]string{"buffering": "buffering", "backfilling": "backfilling", "completing": "forwarding", "forwarding": "forwarding"}[name]
			assert.Equal(t, want, tr.Phase, "%s %s", r.Name, name)
		}
	}
}

// TestEndByRelease: an end while buffering or backfilling fails in v3.1 and ends silently before,
// with every row emitted at that step and nothing persisted; while completing or forwarding the
// executor's stream ends in every release.
func TestEndByRelease(t *testing.T) {
	for _, r := range engine.Releases {
		for name, steps := range map[string]string{"buffering": endBuffering, "backfilling": endBackfilling} {
			s := runUnder(t, r.Name, steps)
			tr := s.Trace()
			if r.EndFails {
				require.NotNil(t, tr.Error, "%s %s", r.Name, name)
				assert.Equal(t, engine.ErrUpstreamEnded, tr.Error.Message)
				continue
			}
			assert.Nil(t, tr.Error, "%s %s", r.Name, name)
			assert.Equal(t, "ended", tr.Phase, "%s %s", r.Name, name)
			for _, row := range tr.ProgressTable {
				assert.Equal(t, false, row[len(row)-2], "%s %s: no vnode persisted Completed", r.Name, name)
			}
			// downstream holds the upstream's whole content, emitted at the end's step
			assert.Len(t, tr.Downstream, map[string]int{"buffering": 4, "backfilling": 4}[name], "%s %s", r.Name, name)
			last := s.Timeline().Engine().Effects()
			assert.Contains(t, last[len(last)-1].Text, "actor exited unexpectedly")
		}
		for name, steps := range map[string]string{"completing": endCompleting, "forwarding": endForwarding} {
			tr := runUnder(t, r.Name, steps).Trace()
			assert.Nil(t, tr.Error, "%s %s", r.Name, name)
			assert.Equal(t, "ended", tr.Phase, "%s %s", r.Name, name)
		}
	}
}

// TestSilentEndThenRecover: after a silent end, recover restarts from the last checkpoint.
func TestSilentEndThenRecover(t *testing.T) {
	for _, r := range []string{"v2.8", "v3.0"} {
		tr := runUnder(t, r, endBuffering+"  - recover\n  - barrier: 3\n  - barrier: {epoch: 4, start_backfill: [7]}\n  - snapshot: 3\n  - barrier: 5\n").Trace()
		assert.Nil(t, tr.Error)
		assert.Equal(t, "forwarding", tr.Phase, r)
		assert.Len(t, tr.Downstream, 2, "%s: the rolled-back run keeps the committed rows only", r)
	}
	// v2.7's meta service never sends the start signal again after a recovery: it buffers on
	tr := runUnder(t, "v2.7", endBuffering+"  - recover\n  - barrier: 3\n  - barrier: 4\n  - barrier: 5\n").Trace()
	assert.Nil(t, tr.Error)
	assert.Equal(t, "buffering", tr.Phase)
	assert.Empty(t, tr.Downstream)
}

// TestReportsByRelease: v2.7 reports buffered rows while buffering and in the backfill and no
// finish after a restart Completed; later releases report (snapshot rows, 0) and finish (rows, rows).
func TestReportsByRelease(t *testing.T) {
	steps := "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 11 200\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n  - snapshot: 2\n  - barrier: 4\n"
	for _, r := range engine.Releases {
		reps := runUnder(t, r.Name, steps).Timeline().Engine().Reports()
		if r.ReportsBuffered {
			assert.Equal(t, []engine.ProgressReport{
				{Step: 3, Epoch: 2, Kind: engine.ReportUpdate, Rows: 0, Buffered: 2},
				{Step: 5, Epoch: 3, Kind: engine.ReportUpdate, Rows: 1, Buffered: 2},
				{Step: 7, Epoch: 4, Kind: engine.ReportFinish, Rows: 2, Buffered: 2},
			}, reps, r.Name)
			continue
		}
		assert.Equal(t, []engine.ProgressReport{
			{Step: 5, Epoch: 3, Kind: engine.ReportUpdate, Rows: 1},
			{Step: 7, Epoch: 4, Kind: engine.ReportFinish, Rows: 2, Buffered: 2},
		}, reps, r.Name)
	}
	started := "start:\n  state_table: [[1, 100]]\n  progress:\n    - {vnode: 0, pos: [1, 100], finished: true, rows: 1}\n    - {vnode: 1, pos: [null, null], finished: true, rows: 0}\n"
	for _, r := range engine.Releases {
		s, err := session.Load("t.yaml", []byte(header+"release: "+r.Name+"\n"+started+"steps:\n  - barrier: 5\n  - barrier: 6\n"))
		require.NoError(t, err)
		require.NoError(t, s.RunToEnd())
		assert.Equal(t, !r.ReportsBuffered, len(s.Timeline().Engine().Reports()) == 1, "%s: finish after a restart Completed", r.Name)
	}
}

// TestSnapshotNarrationByRelease: the same rows, but before v3.1 a barrier with nothing buffered
// says the snapshot stream is rebuilt; v3.1 says it is kept.
func TestSnapshotNarrationByRelease(t *testing.T) {
	steps := "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 2 101\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n"
	var traces []engine.Trace
	for _, r := range engine.Releases {
		s := runUnder(t, r.Name, steps)
		sites := map[string]bool{}
		for _, ef := range s.Timeline().Engine().Effects() {
			sites[ef.Site] = true
		}
		assert.Equal(t, r.KeepsSnapshot, sites["barrier.reuse"], r.Name)
		assert.Equal(t, !r.KeepsSnapshot, sites["barrier.rebuild"], r.Name)
		tr := s.Trace()
		tr.Release = ""
		traces = append(traces, tr)
	}
	for _, tr := range traces[1:] {
		assert.Equal(t, traces[0], tr)
	}
}

// TestReleaseKeyErrors: an unknown release is an error at its value, saying what to write.
func TestReleaseKeyErrors(t *testing.T) {
	for text, want := range map[string]string{
		"release: 3.0\n":    "5:10: release: unknown release \"3.0\": write v3.0",
		"release: v3.0.2\n": "5:10: release: unknown release \"v3.0.2\": write v3.0",
		"release: v2.6\n":   "5:10: release: unknown release \"v2.6\": expected one of v2.7, v2.8, v3.0, v3.1",
	} {
		_, err := session.Load("t.yaml", []byte(header+text+"steps:\n  - barrier: 1\n"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), want)
	}
}
