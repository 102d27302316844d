package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// TestBugModesAreCaughtAtTheirBarrier: each bug mode's built-in violates the invariant at the
// exact step named, naming the rows; the same steps without the bug keep it.
func TestBugModesAreCaughtAtTheirBarrier(t *testing.T) {
	tests := []struct {
		name    string
		bug     engine.Bug
		step    int
		missing string
		extra   string
	}{
		{"bug-mark-before-drain", engine.BugMarkBeforeDrain, 8, "[[2,150]]", "[]"},
		{"bug-no-state-write", engine.BugNoStateWrite, 10, "[[4,103]]", "[]"},
		{"bug-mark-on-arrival", engine.BugMarkOnArrival, 7, `[[3,102,"y"]]`, `[[3,102,"x"]]`},
		{"bug-emit-beyond-pos", engine.BugEmitBeyondPos, 7, "[]", "[[4,103]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := session.OpenBuiltin(tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.bug, s.Scenario.Config.Bug)
			first := 0
			for s.Timeline().Pos() < s.Steps() {
				require.NoError(t, s.Step())
				if inv := s.View().Invariant; inv.Status == "violated" && first == 0 {
					first = s.Timeline().Pos()
					assert.Equal(t, tt.missing, testutil.MustJSON(inv.Missing))
					assert.Equal(t, tt.extra, testutil.MustJSON(inv.Extra))
					var why string
					for _, ef := range s.View().Explanations {
						if ef.Kind == "bug" {
							why = ef.Text
						}
					}
					assert.Contains(t, why, tt.bug.Info().Why, "the cause is explained at the violation")
				}
			}
			assert.Equal(t, tt.step, first, "caught at the exact step")
			assert.Equal(t, tt.bug.String(), s.Trace().Bug, "the trace names the bug mode")

			require.NoError(t, s.SetBug("none"))
			require.NoError(t, s.RunToEnd())
			assert.Equal(t, s.Steps(), s.Timeline().Pos(), "the same steps run without the bug")
			assert.Equal(t, "holds", s.View().Invariant.Status)
		})
	}
}

func TestParseBug(t *testing.T) {
	for _, b := range engine.Bugs {
		got, err := engine.ParseBug(b.Name)
		require.NoError(t, err)
		assert.Equal(t, b.Bug, got)
		assert.NotEmpty(t, b.URL)
	}
	got, err := engine.ParseBug("none")
	require.NoError(t, err)
	assert.Equal(t, engine.BugNone, got)
	_, err = engine.ParseBug("typo")
	assert.Error(t, err)
}

// stepTexts collects everything the narration says at the current step: the explanations and
// the reasons on the rows emitted at this step.
func stepTexts(s *session.Session) []string {
	v := s.View()
	var out []string
	for _, ef := range v.Explanations {
		out = append(out, ef.Text)
	}
	for _, o := range s.Timeline().Engine().Outputs() {
		if o.Step != v.Step {
			continue
		}
		for _, r := range o.Rows {
			if r.Why != "" {
				out = append(out, r.Why)
			}
		}
	}
	return out
}

// TestNoStateWriteNarratesWhatThisRunDoes: under no-state-write the barrier's narration never
// claims the chunk is written or that the refreshed snapshot will emit a hidden insert or
// skip a deleted row; it says per row what happens, and the invariant catches the deleted row
// that comes back.
func TestNoStateWriteNarratesWhatThisRunDoes(t *testing.T) {
	s, err := session.Load("t.yaml", []byte(`title: t
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, rule: ranges, bounds: [10]}
fragment: 7
bug: no-state-write
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 11 200"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - chunk: ["+ 3 102", "- 11 200"]
  - barrier: 3
  - snapshot: 2
  - barrier: 4
`))
	require.NoError(t, err)
	require.NoError(t, s.Goto(6))
	texts := stepTexts(s)
	all := strings.Join(texts, "\n")
	for _, lie := range []string{"and written to the state table", "is written to the state table", "will emit it",
		"never reads the old row", "where the snapshot will read it", "reads this row and emits it"} {
		assert.NotContains(t, all, lie, "a sentence claims what this run does not do")
	}
	why := func(prefix string) string {
		for _, tx := range texts {
			if strings.HasPrefix(tx, prefix) {
				return tx
			}
		}
		return ""
	}
	assert.Contains(t, why("+(3,102) hidden"), "not written to the state table")
	assert.Contains(t, why("+(3,102) hidden"), "never reaches downstream")
	assert.Contains(t, why("-(11,200) hidden"), "still holds this row, so the refreshed snapshot reads it although the upstream deleted it")
	require.NoError(t, s.RunToEnd())
	inv := s.View().Invariant
	assert.Equal(t, "violated", inv.Status)
	assert.Equal(t, "[[11,200]]", testutil.MustJSON(inv.Extra), "the deleted row came back")
	assert.Equal(t, "[[3,102]]", testutil.MustJSON(inv.Missing), "the hidden insert never arrived")
}

// TestMarkBeforeDrainSaysWhatHappensToEachRow: marked against the lagging pos, a key between
// pos and the builder's last row is lost, but a key past the builder's last row is still
// emitted by the refreshed snapshot, and each row's reason says which.
func TestMarkBeforeDrainSaysWhatHappensToEachRow(t *testing.T) {
	s, err := session.Load("t.yaml", []byte(`title: t
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, rule: ranges, bounds: [10]}
chunk_size: 2
fragment: 7
bug: mark-before-drain
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101", "+ 3 102"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 3
  - chunk: ["+ 2 150", "+ 4 103"]
  - barrier: 3
  - snapshot: 2
  - barrier: 4
`))
	require.NoError(t, err)
	require.NoError(t, s.Goto(6))
	why := map[string]string{}
	for _, tx := range stepTexts(s) {
		for _, row := range []string{"+(2,150)", "+(4,103)"} {
			if strings.HasPrefix(tx, row+" hidden") {
				why[row] = tx
			}
		}
	}
	assert.Contains(t, why["+(2,150)"], "never emitted")
	assert.NotContains(t, why["+(4,103)"], "never emitted", "(4,103) lies past the builder's last row (3,102)")
	assert.Contains(t, why["+(4,103)"], "this row is left to the refreshed snapshot, which reads it from there")
	require.NoError(t, s.RunToEnd())
	assert.Contains(t, outputs(s), "chunk +(4,103)✓", "the refreshed snapshot did emit (4,103)")
	assert.Equal(t, "[[2,150]]", testutil.MustJSON(s.View().Invariant.Missing), "only (2,150) is lost")
}

// TestEveryBugModePlaysTheWholeScript: every built-in under every bug mode (and with none)
// reaches the end of its script; a step that no longer fits is adapted and says so.
func TestEveryBugModePlaysTheWholeScript(t *testing.T) {
	modes := []string{"none"}
	for _, b := range engine.Bugs {
		modes = append(modes, b.Name)
	}
	adapted := 0
	for _, name := range scenarios.BuiltinNames() {
		for _, mode := range modes {
			s, err := session.OpenBuiltin(name)
			require.NoError(t, err)
			require.NoError(t, s.SetBug(mode), "%s --bug %s", name, mode)
			steps := len(s.Scenario.Steps)
			require.Equal(t, steps, s.Steps(), "%s --bug %s keeps its whole script", name, mode)
			for s.Timeline().Pos() < s.Steps() {
				require.NoError(t, s.Step(), "%s --bug %s", name, mode)
				for _, ef := range s.View().Explanations {
					if ef.Kind == "adapt" {
						adapted++
						assert.Contains(t, ef.Text, "The script's step asks: ", "%s --bug %s", name, mode)
						assert.Empty(t, ef.URL, "adapting the script is the explainer's own doing")
						assert.Equal(t, engine.UncitedOurs, ef.Uncited)
					}
				}
			}
			assert.Equal(t, steps, s.Timeline().Engine().StepCount(), "%s --bug %s", name, mode)
		}
	}
	t.Logf("%d steps adapted over %d built-ins × %d modes", adapted, len(scenarios.BuiltinNames()), len(modes))
	assert.Positive(t, adapted, "some built-in needs adapting under some bug mode")
}

// TestEachBugModeNamesItsScenario: the bug menu can open the built-in that shows each mode.
func TestEachBugModeNamesItsScenario(t *testing.T) {
	for _, b := range engine.Bugs {
		s, err := session.OpenBuiltin(b.Scenario)
		require.NoError(t, err, b.Name)
		assert.Equal(t, b.Bug, s.Scenario.Config.Bug, "%s runs under its bug mode", b.Scenario)
	}
}
