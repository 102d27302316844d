package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
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
			s, err := scenarios.OpenBuiltin(tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.bug, s.Scenario.Config.Bug)
			first := 0
			for s.Timeline().Pos() < s.Steps() {
				require.NoError(t, s.Step())
				if inv := s.View().Invariant; inv.Status == "violated" && first == 0 {
					first = s.Timeline().Pos()
					assert.Equal(t, tt.missing, mustJSON(inv.Missing))
					assert.Equal(t, tt.extra, mustJSON(inv.Extra))
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
