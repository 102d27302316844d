package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/view"
)

// Tests that what the page says about a run that left its script stays true: the notes, the
// saved file, what can happen next after a failure, and what a recovery rolled back.

// branchAction is the first action at the current step that leaves the script, or nil.
func branchAction(s *Session) *view.Action {
	for _, a := range s.Actions() {
		if !a.Scripted {
			return &a
		}
	}
	return nil
}

// TestNotesAfterABranchCarryACaveat: once the run leaves its script at step k, the notes of the
// steps kept from the script after it say they were written for the scripted run (naming step
// k), and the notes before k, which the run did follow, carry no caveat.
func TestNotesAfterABranchCarryACaveat(t *testing.T) {
	checked := 0
	for _, name := range scenarios.BuiltinNames() {
		base, err := OpenBuiltin(name)
		require.NoError(t, err)
		for k := 0; k < base.Steps(); k++ {
			s, err := OpenBuiltin(name)
			require.NoError(t, err)
			require.NoError(t, s.Goto(k))
			a := branchAction(s)
			if a == nil {
				continue
			}
			require.NoError(t, s.Apply(a.Step), "%s at %d: %s", name, k, a.Step)
			want := fmt.Sprintf("(Written for the scripted run; this run left the script at step %d, so it may differ.) ", k+1)
			for n := k + 2; n <= s.Steps(); n++ {
				require.NoError(t, s.Goto(n))
				v := s.View()
				if s.tl.Script()[n-1].Note == "" {
					assert.Empty(t, v.NoteCaveat)
					continue
				}
				checked++
				assert.Equal(t, want, v.NoteCaveat, "%s: branched at %d, step %d", name, k+1, n)
				assert.True(t, strings.HasPrefix(v.Note, v.NoteCaveat), "%s step %d: the note begins with its caveat", name, n)
			}
			for n := 1; n <= k; n++ {
				require.NoError(t, s.Goto(n))
				assert.Empty(t, s.View().NoteCaveat, "%s: step %d came before the branch at %d", name, n, k+1)
			}
		}
	}
	assert.Greater(t, checked, 100, "enough notes were checked after a branch")
}

// TestAnEarlyMessageKeepsItsNoteWithACaveat: delivering the next scripted upstream message
// before the scripted snapshot step keeps that message's note, marked as written for the script.
func TestAnEarlyMessageKeepsItsNoteWithACaveat(t *testing.T) {
	s, err := OpenBuiltin("happy-path")
	require.NoError(t, err)
	// find a scripted snapshot step followed by an upstream message with a note
	for k := 0; k < s.Steps(); k++ {
		require.NoError(t, s.Goto(k))
		var first *view.Action
		for _, a := range s.Actions() {
			if a.ID == "upstream" {
				first = &a
			}
		}
		if first == nil {
			continue
		}
		j := k
		for !s.tl.Script()[j].Kind.IsUpstream() {
			j++
		}
		note := s.tl.Script()[j].Note
		if note == "" {
			continue
		}
		require.NoError(t, s.Apply(first.Step))
		v := s.View()
		assert.Equal(t, fmt.Sprintf("(Written for the scripted run; this run left the script at step %d, so it may differ.) ", k+1), v.NoteCaveat)
		assert.Equal(t, v.NoteCaveat+strings.TrimSpace(note), v.Note)
		return
	}
	t.Fatal("happy-path has no snapshot step followed by an upstream message with a note")
}

// TestSkippedStepsHideTheirNotes: under a bug mode, a step of the script that cannot happen
// shows no note of its own (it describes the step happening), only the caveat saying so.
func TestSkippedStepsHideTheirNotes(t *testing.T) {
	found := 0
	everyRun(t, func(t *testing.T, s *Session) {
		for n := 1; n <= s.Steps(); n++ {
			require.NoError(t, s.Goto(n))
			if !s.Timeline().Engine().Skipped() || s.tl.Script()[n-1].Note == "" {
				continue
			}
			found++
			v := s.View()
			assert.Equal(t, v.NoteCaveat, v.Note, "step %d: only the caveat", n)
			assert.Contains(t, v.Note, "could not happen")
			assert.NotContains(t, v.Note, strings.TrimSpace(s.tl.Script()[n-1].Note))
		}
	})
	assert.Positive(t, found, "some built-in under some bug mode skips a step that has a note")
}

// TestExportReplaysTheRun: the saved scenario of every built-in, under every bug mode, as
// scripted and after leaving the script, loads as it is (every step possible under the file's
// own bug mode) and replays the same run: the same trace, step for step (Positions maps the
// run's steps to the file's). Its notes never state as true what was written for another run.
func TestExportReplaysTheRun(t *testing.T) {
	everyRun(t, func(t *testing.T, s *Session) {
		for _, branch := range []int{-1, 3} {
			if branch >= 0 {
				if branch > s.Steps() {
					continue
				}
				require.NoError(t, s.Goto(branch))
				if a := branchAction(s); a != nil {
					require.NoError(t, s.Apply(a.Step))
				}
			}
			x := s.Export()
			loaded, err := Load("", []byte(x.Scenario))
			require.NoError(t, err, "branch %d: the saved file loads:\n%s", branch, x.Scenario)
			require.Len(t, x.Positions, s.Steps()+1)
			assert.Equal(t, loaded.Steps(), x.Positions[s.Steps()])
			for n := 0; n <= s.Steps(); n++ {
				require.NoError(t, s.Goto(n))
				require.NoError(t, loaded.Goto(x.Positions[n]))
				assert.Equal(t, renumber(s.Trace(), x.Positions), loaded.Trace(), "branch %d, step %d", branch, n)
			}
			// every note of the saved file that the run did not write for itself says so
			played, _ := s.tl.Played()
			for i, p := range played {
				if p.Skipped != "" || p.Caveat == "" {
					continue
				}
				assert.Contains(t, x.Scenario, scenarios.YAMLString(p.Caveat+strings.TrimSpace(p.Step.Note)), "step %d's note keeps its caveat", i+1)
			}
		}
	})
}

// renumber writes a trace's output steps as the saved file numbers them.
func renumber(tr engine.Trace, positions []int) engine.Trace {
	outs := make([]engine.Output, len(tr.Outputs))
	for i, o := range tr.Outputs {
		o.Step = positions[o.Step]
		outs[i] = o
	}
	tr.Outputs = outs
	if tr.Error != nil {
		f := *tr.Error
		f.Step = positions[f.Step]
		tr.Error = &f
	}
	tr.Step = positions[tr.Step]
	return tr
}

// TestThereIsAlwaysAWayOn: after a failure and a recovery, at the end of every script (and
// after injecting the upstream's end at any step and recovering), some action is offered, and
// applying the first one works; a restarted executor is offered the first barrier it waits for
// (-short: every third built-in, under one mode).
func TestThereIsAlwaysAWayOn(t *testing.T) {
	everyRunOrSome(t, func(t *testing.T, s *Session) {
		check := func(where string) {
			v := s.View()
			if v.Phase == "dropped" {
				// the recovery dropped the job (still initial, or creating and foreground where the
				// release drops those): nothing can follow, and the view says why
				require.NotNil(t, v.Dropped, where)
				assert.Empty(t, v.Actions, where)
				return
			}
			require.NotEmpty(t, v.Actions, "%s: something can happen next (phase %s)", where, v.Phase)
			if v.Phase == "starting" {
				assert.True(t, hasAction(v.Actions, func(a view.Action) bool { return strings.HasPrefix(a.Step, "barrier") }), "%s: a restarted executor is offered a barrier: %v", where, v.Actions)
			}
			probe := s.Export()
			again, err := Load("", []byte(probe.Scenario))
			require.NoError(t, err)
			// the export's step matching this one (the whole script is exported while the run is
			// still on it: what was injected is what the script does next, as in a scenario that
			// starts with the upstream's end)
			require.NoError(t, again.Goto(probe.Positions[s.Timeline().Pos()]))
			require.NoError(t, again.Apply(v.Actions[0].Step), "%s: %s", where, v.Actions[0].Step)
		}
		require.NoError(t, s.RunToEnd())
		check("the script's end")
		if p := s.View().Phase; p == "failed" || p == "ended" {
			require.NoError(t, s.Apply("recover"))
			check("a recovery at the script's end")
		}
		n := s.Steps()
		for k := 0; k <= n; k += 3 {
			require.NoError(t, s.Goto(min(k, s.Steps())))
			if s.Apply("end") != nil {
				continue
			}
			require.NoError(t, s.Apply("recover"))
			check(fmt.Sprintf("end injected at step %d, then recovery", k))
			for i := 0; i < 3 && len(s.View().Actions) > 0 && s.View().Phase != "dropped"; i++ { // and on, a few steps
				require.NoError(t, s.Apply(s.View().Actions[0].Step))
				assert.NotEmpty(t, s.View().Actions, "after %d more steps", i+1)
			}
		}
	})
}

func hasAction(acts []view.Action, f func(view.Action) bool) bool {
	for _, a := range acts {
		if f(a) {
			return true
		}
	}
	return false
}

// TestRolledBackOutputs: after every recovery of every built-in (as written, under every bug
// mode, and after an injected end), the view's rolled_back ranges are exactly the outputs after
// the last checkpoint barrier emitted before that recovery, found by reading the output list.
func TestRolledBackOutputs(t *testing.T) {
	recoveries := 0
	everyRun(t, func(t *testing.T, s *Session) {
		check := func() {
			v := s.View()
			outs := s.Timeline().Engine().Outputs()
			var want []engine.Rollback
			last := 0 // outputs up to and including the last checkpoint barrier (or a recovery)
			epoch := int64(0)
			for i, o := range outs {
				switch {
				case o.Type == engine.OutBarrier && o.Checkpoint:
					last, epoch = i+1, o.Epoch
				case o.Type == engine.OutRecovery:
					recoveries++
					if last < i {
						want = append(want, engine.Rollback{From: last, To: i, Step: o.Step, Epoch: epoch})
					}
					last = i + 1
				}
			}
			if want == nil {
				want = []engine.Rollback{}
			}
			assert.Equal(t, want, v.RolledBack, "at step %d", v.Step)
		}
		for n := 0; n <= s.Steps(); n++ {
			require.NoError(t, s.Goto(n))
			check()
		}
		require.NoError(t, s.Goto(min(8, s.Steps())))
		if s.Apply("end") == nil {
			require.NoError(t, s.Apply("recover"))
			check()
		}
	})
	assert.Greater(t, recoveries, 20)
}

// TestExportCarriesTheWholeRun: the saved trace of the whole run is every step of the script,
// wherever the run stands; the other trace stops at the current step.
func TestExportCarriesTheWholeRun(t *testing.T) {
	everyRun(t, func(t *testing.T, s *Session) {
		require.NoError(t, s.Goto(min(3, s.Steps())))
		x := s.Export()
		assert.Equal(t, s.Trace(), x.Trace)
		require.NoError(t, s.RunToEnd())
		assert.Equal(t, s.Trace(), x.Whole)
	})
}

// TestTheExplainersOwnOutputIsNotAScenario: a trace, a view or a saved run opened where a
// scenario is expected is named as such, with what to open instead; a scenario with a mistake
// keeps its own error.
func TestTheExplainersOwnOutputIsNotAScenario(t *testing.T) {
	s, err := OpenBuiltin("fatal-upstream-end")
	require.NoError(t, err)
	require.NoError(t, s.Goto(10))
	x := s.Export()
	jsonOf := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	indented := func(v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		require.NoError(t, err)
		return string(b)
	}
	tests := []struct {
		name, text, want string
	}{
		{"a trace", indented(x.Whole), "1:1: this is a trace, not a scenario: it holds what a run emitted"},
		{"a trace on one line", jsonOf(x.Trace), "1:1: this is a trace, not a scenario"},
		{"a view", jsonOf(s.View()), "1:1: this is a view (what the page shows at one step), not a scenario"},
		{"a saved run", jsonOf(x), "1:1: this is a saved run (what export() returns), not a scenario"},
		{"a scenario with an unknown key", "title: t\noutputs: []\nphase: x\ndownstream: []\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n", "2:1: unknown key \"outputs\""},
		{"a file that is nothing", "hello: world\n", `1:1: unknown key "hello"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("", []byte(tc.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
