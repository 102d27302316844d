package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
)

// Held-out cases of a Stop barrier, one per phase the executor can be in when it comes.
var stopCases = []struct {
	name, steps string
	phase       string // the phase the Stop barrier finds
	outputs     int    // the trace's outputs (the Stop barrier the last one)
}{
	{"first barrier", "  - barrier: {epoch: 1, mutation: stop}\n", "starting", 1},
	{"buffering", "  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - barrier: {epoch: 2, mutation: stop}\n", "buffering", 2},
	{"backfilling", "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 2 101\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - chunk: [\"+ 3 102\"]\n  - barrier: {epoch: 3, mutation: stop}\n", "backfilling", 5},
	{"completing", "  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: {epoch: 3, mutation: stop}\n", "completing", 3},
	{"forwarding", "  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n  - barrier: {epoch: 4, mutation: stop}\n", "forwarding", 4},
}

// TestStopByPhaseAndRelease: in every release and phase the executor handles a Stop barrier as
// any barrier (commits, emits it), then the actor stops: phase ended, no error, the Stop barrier
// the last output; the narration cites actor.rs and merge.rs at the release's own lines.
func TestStopByPhaseAndRelease(t *testing.T) {
	for _, r := range engine.Releases {
		for _, c := range stopCases {
			where := r.Name + " " + c.name
			s := runUnder(t, r.Name, c.steps)
			tr := s.Trace()
			assert.Nil(t, tr.Error, where)
			assert.Equal(t, "ended", tr.Phase, where)
			require.Len(t, tr.Outputs, c.outputs, where)
			last := tr.Outputs[len(tr.Outputs)-1]
			assert.Equal(t, engine.OutBarrier, last.Type, where)
			v := s.View()
			assert.Equal(t, view.ActorStopped, v.Actor.State, where)
			require.NotNil(t, v.Actor.Citation, where)
			assert.Contains(t, v.Actor.Citation.URL, "/blob/"+r.Ref+"/", where)
			sites := map[string]engine.Explanation{}
			for _, ef := range v.Explanations {
				sites[ef.Site] = ef
			}
			stop, ok := sites["actor.stop"]
			require.True(t, ok, "%s: %v", where, v.Explanations)
			assert.Equal(t, engine.FileActor, stop.File, where)
			assert.Contains(t, stop.URL, "/blob/"+r.Ref+"/", where)
			assert.Equal(t, engine.FileMerge, sites["actor.stop-input-ends"].File, where)
			// nothing after the yield runs
			_, reopened := sites["barrier.refresh"]
			_, rebuilt := sites["barrier.rebuild"]
			_, reused := sites["barrier.reuse"]
			_, loaded := sites["start.load"]
			assert.False(t, reopened || rebuilt || reused || loaded, "%s: %v", where, v.Explanations)
			// only recover may follow, then the executor starts over
			require.Error(t, s.Apply("barrier: 99"), where)
			assert.Contains(t, s.Apply("chunk: [\"+ 5 104\"]").Error(), "the actor stopped at the Stop barrier", where)
			drops := s.Timeline().Engine().RecoveryDrops() // a creating foreground job (create_test.go)
			require.NoError(t, s.Apply("recover"), where)
			if drops {
				assert.Equal(t, "dropped", s.Trace().Phase, where)
				continue
			}
			assert.Equal(t, "starting", s.Trace().Phase, where)
			assert.Equal(t, view.ActorRunning, s.View().Actor.State, where)
		}
	}
}

// TestStopCommitsLikeAnyBarrier: the Stop barrier's commit is the same as a barrier without a
// mutation in the same place (the executor never looks at Stop): the traces agree but for the
// phase.
func TestStopCommitsLikeAnyBarrier(t *testing.T) {
	for _, r := range engine.Releases {
		for _, c := range stopCases {
			stop := runUnder(t, r.Name, c.steps).Trace()
			plain := runUnder(t, r.Name, strings.Replace(c.steps, ", mutation: stop}", "}", 1)).Trace()
			assert.Equal(t, plain.Outputs, stop.Outputs, r.Name+" "+c.name)
			assert.Equal(t, plain.ProgressTable, stop.ProgressTable, r.Name+" "+c.name)
			assert.Equal(t, plain.Downstream, stop.Downstream, r.Name+" "+c.name)
		}
	}
}

// TestActorStates: the view's actor is running, exited unexpectedly after an end of the
// executor's stream, failed after an error or a panic (a panic cites the panic hook that aborts the node), in every release.
func TestActorStates(t *testing.T) {
	for _, r := range engine.Releases {
		run := runUnder(t, r.Name, "  - barrier: 1\n")
		assert.Equal(t, view.ActorRunning, run.View().Actor.State)
		exited := runUnder(t, r.Name, endForwarding)
		a := exited.View().Actor
		assert.Equal(t, view.ActorExited, a.State, r.Name)
		assert.Contains(t, a.Text, "actor exited unexpectedly")
		require.NotNil(t, a.Citation)
		assert.Equal(t, engine.FileActor, a.Citation.File)
		failed := runUnder(t, r.Name, "  - barrier: 1\n  - error: boom\n").View().Actor
		assert.Equal(t, view.ActorFailed, failed.State, r.Name)
		require.NotNil(t, failed.Citation)
		panicked := runUnder(t, r.Name, "  - chunk: [\"+ 1 100\"]\n").View().Actor
		assert.Equal(t, view.ActorFailed, panicked.State, r.Name)
		require.NotNil(t, panicked.Citation, r.Name)
		assert.Equal(t, engine.FilePanicHook, panicked.Citation.File, r.Name)
		assert.Contains(t, panicked.Text, "aborts the compute node", r.Name)
	}
}

// TestStepAfterStopIsAnErrorAtItsLine: a file with a step after a Stop is refused at that step.
func TestStepAfterStopIsAnErrorAtItsLine(t *testing.T) {
	_, err := session.Load("t.yaml", []byte(header+"steps:\n  - barrier: 1\n  - barrier: {epoch: 2, mutation: stop}\n  - chunk: [\"+ 1 100\"]\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "step 3: the actor stopped at the Stop barrier e2; only `recover` can follow")
	assert.Regexp(t, `^t\.yaml:\d+:\d+: `, err.Error())
}

// crashWhileBuffering recovers while buffering, then a barrier carries the start signal.
const crashWhileBuffering = "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 11 200\"]\n  - barrier: 2\n  - recover\n  - barrier: 3\n  - chunk: [\"+ 2 101\"]\n  - barrier: {epoch: 4, start_backfill: [7]}\n"

// TestStartSignalAfterRecoveryByRelease: from v2.8 the meta service sends the start signal again
// after a recovery and the backfill starts; v2.7's never does, so a file that has one is refused
// at the step, and a script written for another release plays the barrier without it (the
// executor stays buffering). The restarted executor's buffering start says which, citing meta.
func TestStartSignalAfterRecoveryByRelease(t *testing.T) {
	for _, r := range engine.Releases {
		if !r.ResendsStart {
			_, err := session.Load("t.yaml", []byte(header+"create: background\nrelease: "+r.Name+"\nsteps:\n"+crashWhileBuffering))
			require.Error(t, err, r.Name)
			assert.Contains(t, err.Error(), "step 7: v2.7's meta service never sends the start signal for fragment 7 after a recovery")
			assert.Regexp(t, `^t\.yaml:\d+:\d+: `, err.Error())
			s, err := session.Load("t.yaml", []byte(header+"create: background\nsteps:\n"+crashWhileBuffering))
			require.NoError(t, err)
			require.NoError(t, s.SetRelease(r.Name))
			require.NoError(t, s.RunToEnd())
			assert.Equal(t, "buffering", s.Trace().Phase, r.Name)
			said := map[string]bool{}
			for _, ef := range s.View().Explanations {
				said[ef.Site] = true
			}
			assert.True(t, said["script.adapted"], "%s: %v", r.Name, s.View().Explanations)
			require.NoError(t, s.Goto(5))
			assert.True(t, sitesOf(s)["recover.no-start-signal"], r.Name)
			assert.False(t, sitesOf(s)["recover.start-signal-again"], r.Name)
			continue
		}
		s := runUnderBackground(t, r.Name, crashWhileBuffering)
		assert.Equal(t, "backfilling", s.Trace().Phase, r.Name)
		require.NoError(t, s.Goto(5))
		said := sitesOf(s)
		assert.True(t, said["recover.start-signal-again"], r.Name)
		assert.True(t, said["start.initial"], r.Name)
		assert.True(t, said["start.buffer-order"], r.Name)
		assert.False(t, said["recover.no-start-signal"], r.Name)
	}
}

// TestFirstBarrierNarration: the first barrier of a new executor is not called Initial; after a
// recovery it is, and the order sentence comes at every buffering start.
func TestFirstBarrierNarration(t *testing.T) {
	for _, r := range engine.Releases {
		s := runUnder(t, r.Name, "  - barrier: 1\n")
		said := sitesOf(s)
		assert.False(t, said["start.initial"], r.Name)
		assert.True(t, said["start.buffer-order"], r.Name)
		assert.False(t, said["recover.start-signal-again"] || said["recover.no-start-signal"], r.Name)
	}
}

// TestTruncationNarrationByRelease: at the completing barrier the narration says the meta service
// truncates the state table; v2.7 after a recovery says it never does (the recovered order is empty).
func TestTruncationNarrationByRelease(t *testing.T) {
	resumed := "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 2 101\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n  - recover\n  - barrier: 4\n  - snapshot: 2\n  - barrier: 5\n"
	for _, r := range engine.Releases {
		fresh := sitesOf(runUnder(t, r.Name, endForwarding[:strings.LastIndex(endForwarding, "  - end")]))
		assert.True(t, fresh["completion.truncate"], "%s: said at the completing barrier", r.Name)
		s := runUnderBackground(t, r.Name, resumed)
		assert.Equal(t, "forwarding", s.Trace().Phase, r.Name)
		said := sitesOf(s)
		if r.ResendsStart {
			assert.True(t, said["completion.truncate"], r.Name)
		} else {
			assert.True(t, said["completion.no-truncate"], r.Name)
		}
	}
}

// sitesOf lists the sites of the current step's narration.
func sitesOf(s *session.Session) map[string]bool {
	said := map[string]bool{}
	for _, ef := range s.View().Explanations {
		said[ef.Site] = true
	}
	return said
}

// TestBugModeInfoByRelease: the view's bug mode cites its lines in the run's release and names it.
func TestBugModeInfoByRelease(t *testing.T) {
	for _, r := range engine.Releases {
		s, err := session.Load("t.yaml", []byte(header+"release: "+r.Name+"\nbug: no-state-write\nsteps:\n  - barrier: 1\n"))
		require.NoError(t, err)
		b := s.View().Bug
		require.NotNil(t, b)
		want, ok := r.At(engine.FileLocalityProvider, [2]int{684, 686})
		require.True(t, ok)
		assert.Equal(t, want, b.Lines, r.Name)
		assert.Contains(t, b.URL, "/blob/"+r.Ref+"/", r.Name)
		assert.Equal(t, r.Name, b.Release)
	}
}

// TestSilentEndRowsSayTheUpstreamEnded: in a silent end (v2.7–v3.0) the snapshot rows read after
// the end are said to come because the upstream has ended, not because it has nothing ready.
func TestSilentEndRowsSayTheUpstreamEnded(t *testing.T) {
	steps := "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 2 101\", \"+ 11 200\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - end\n"
	for _, r := range engine.Releases {
		if r.EndFails {
			continue
		}
		said := sitesOf(runUnder(t, r.Name, steps))
		assert.True(t, said["backfill.row-ended"], r.Name)
		assert.False(t, said["backfill.row"], r.Name)
	}
}

// TestV27RestartWithEveryVnodeCompletedNeverFinishes: under v2.7 only, an executor restarted
// with every vnode completed is told to leave the job creating for good (progress.rs
// v2.7.4:402-425, 204-212) and the meta log's "fragment not found for actor".
func TestV27RestartWithEveryVnodeCompletedNeverFinishes(t *testing.T) {
	done := "  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 11 101\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 3\n  - barrier: 3\n  - barrier: 4\n  - recover\n  - barrier: 5\n"
	for _, r := range engine.Releases {
		s := runUnderBackground(t, r.Name, done)
		assert.Equal(t, "forwarding", s.Trace().Phase, r.Name)
		said := sitesOf(s)
		assert.Equal(t, r == engine.ReleaseV27, said["recover.never-done"], r.Name)
		if r == engine.ReleaseV27 {
			for _, ef := range s.View().Explanations {
				if ef.Site == "recover.never-done" {
					assert.Contains(t, ef.Text, "stays creating")
					// the finish report rode e3, a checkpoint: this run's job is created, and the
					// recovery said so ("The job had finished"); the stuck job is said as another's
					assert.True(t, strings.HasPrefix(ef.Text, "Here the job had finished"), ef.Text)
					assert.Contains(t, ef.Text, "fragment not found for actor")
					assert.Contains(t, ef.URL, "/blob/v2.7.4/src/meta/src/barrier/progress.rs#L402-L425")
				}
			}
		}
	}
	fresh := sitesOf(runUnder(t, "v2.7", "  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 2\n  - barrier: 3\n"))
	assert.False(t, fresh["recover.never-done"], "no recovery, nothing said")
}

// runUnderBackground is runUnder for a job created in the background, which every release's
// recovery keeps (create.go): for the tests of what the restarted executor does.
func runUnderBackground(t *testing.T, release, steps string) *session.Session {
	t.Helper()
	s, err := session.Load("t.yaml", []byte(header+"create: background\nrelease: "+release+"\nsteps:\n"+steps))
	require.NoError(t, err)
	require.NoError(t, s.RunToEnd())
	return s
}
