package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// TestRecoveryDropsACreatingForegroundJob: under every release and create type, every failure
// path's data says whether the recovery keeps or drops the job, and the recovery does it: a
// creating foreground job is dropped exactly where the release's registry says, and a job whose
// first barrier no checkpoint committed (still initial) in every release and for both create
// types (phase dropped, state table, progress table and downstream empty, the outputs kept); nothing may
// follow, and background (or a release that keeps creating jobs) resumes.
func TestRecoveryDropsACreatingForegroundJob(t *testing.T) {
	drops := 0
	for name, steps := range failurePaths {
		for _, rel := range engine.Releases {
			for _, create := range []string{"foreground", "background"} {
				t.Run(name+"/"+rel.Name+"/"+create, func(t *testing.T) {
					s := runScenario(t, header+"create: "+create+"\n"+steps)
					require.NoError(t, s.SetRelease(rel.Name))
					require.NoError(t, s.RunToEnd())
					f := s.View().Failure
					if f == nil {
						return
					}
					initial := beforeACheckpoint[name]
					want := initial || rel.DropsCreatingForeground && create == "foreground" && name != "error while forwarding" // (finished at e3)
					assert.Equal(t, want, f.Data.Dropped, f.Data.Headline)
					// the job first, then the rows, then the cost
					switch {
					case want:
						assert.Regexp(t, `^The job is dropped.*No row is lost upstream.*The cost: run the whole CREATE again`, f.Data.Headline)
					case !f.Panic:
						assert.Regexp(t, `^The job is kept: .*no row is lost.*The cost is time`, f.Data.Headline)
					}
					// the failure's "from here" says the same as the recovery does
					if initial {
						assert.Contains(t, f.Recovery, "deletes a job in its initial status, whatever its create type")
						assert.NotContains(t, f.Recovery, "starts over")
					} else if want {
						assert.Contains(t, f.Recovery, "recovery deletes it")
						assert.NotContains(t, f.Recovery, "starts over")
					} else {
						assert.Contains(t, f.Recovery, "starts over")
					}
					outs := len(s.Trace().Outputs)
					require.NoError(t, s.Apply("recover"))
					v, tr := s.View(), s.Trace()
					if !want {
						assert.Empty(t, f.Data.Reason)
						assert.NotEqual(t, "dropped", v.Phase)
						assert.Nil(t, v.Dropped)
						assert.NoError(t, s.Apply("barrier: 9"))
						return
					}
					drops++
					assert.Equal(t, "dropped", v.Phase)
					assert.Equal(t, "dropped", tr.Phase)
					assert.Nil(t, tr.Error)
					assert.Empty(t, tr.ProgressTable)
					assert.Empty(t, tr.Downstream)
					// its state table goes with it: nothing committed, nothing pending
					assert.Empty(t, v.StateTable.Rows, "the dropped job's state table")
					assert.Empty(t, v.StateTable.Pending, "the dropped job's state table")
					assert.Equal(t, outs, len(tr.Outputs), "what was emitted stays")
					require.NotNil(t, v.Dropped)
					err := s.Apply("barrier: 9")
					require.Error(t, err)
					assert.Contains(t, err.Error(), "the job was dropped by the recovery")
					assert.Error(t, s.Apply("recover"))
					// the dropped job's header says why: before any checkpoint every create type is
					// dropped, so how it was created is not the reason
					assert.Equal(t, f.Data.Reason, v.Dropped.Reason)
					if initial {
						assert.Equal(t, "no checkpoint yet", v.Dropped.Reason)
					} else {
						assert.Equal(t, "created in the foreground", v.Dropped.Reason)
					}
					if initial {
						// background would not save it: the advice must not say so
						assert.Contains(t, v.Dropped.Headline, "whatever its create type")
						assert.NotContains(t, v.Dropped.Headline, "BACKGROUND_DDL")
						assert.NotContains(t, err.Error(), "create: background")
						return
					}
					assert.Contains(t, v.Dropped.Headline, "SET BACKGROUND_DDL = true")
					assert.Contains(t, err.Error(), "create: background")
				})
			}
		}
	}
	assert.Positive(t, drops)
}

// beforeACheckpoint names the failure paths that fail before any checkpoint barrier: the job is
// still initial there.
var beforeACheckpoint = map[string]bool{"stream closed first": true, "chunk first": true, "non-checkpoint first": true, "error on the first message": true}

// A job is creating until a checkpoint at or after its finish report: a recovery before that
// drops a foreground job, one after it keeps the job in every release.
func TestAFinishedJobIsKept(t *testing.T) {
	const steps = `steps:
  - barrier: 1
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - barrier: {epoch: 3, checkpoint: false}
  - barrier: 4
  - recover
`
	for _, rel := range engine.Releases {
		// the finish report rides e3 (not a checkpoint); e4 commits it
		s := runScenario(t, header+steps)
		require.NoError(t, s.SetRelease(rel.Name))
		require.NoError(t, s.RunToEnd())
		rs := s.Timeline().Engine().Reports()
		require.NotEmpty(t, rs)
		assert.Equal(t, engine.ReportFinish, rs[len(rs)-1].Kind, rel.Name)
		assert.NotEqual(t, "dropped", s.View().Phase, rel.Name)
		// the same recovery before e4: the finish report reached no checkpoint
		s = runScenario(t, header+`steps:
  - barrier: 1
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - barrier: {epoch: 3, checkpoint: false}
  - recover
`)
		require.NoError(t, s.SetRelease(rel.Name))
		require.NoError(t, s.RunToEnd())
		want := "starting"
		if rel.DropsCreatingForeground {
			want = "dropped"
		}
		assert.Equal(t, want, s.View().Phase, rel.Name)
	}
}
