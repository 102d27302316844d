package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// TestInvariantMarkAtTheBrokenCheck: in every run, the timeline has a mark of kind invariant at
// exactly the steps whose check finds the invariant violated when the check before did not, and
// nowhere else; a run that breaks it (bug-mark-before-drain) has one, at a barrier.
func TestInvariantMarkAtTheBrokenCheck(t *testing.T) {
	everyRun(t, func(t *testing.T, s *Session) {
		want := []int{}
		last := ""
		for n := 1; n <= s.Steps(); n++ {
			require.NoError(t, s.Goto(n))
			inv := s.View().Invariant
			if inv.Step == n && inv.Status != last {
				if inv.Status == "violated" {
					want = append(want, n)
				}
				last = inv.Status
			}
		}
		got := []int{}
		for _, m := range s.View().Marks {
			if m.Kind == engine.MarkInvariant {
				got = append(got, m.Step)
			}
		}
		assert.Equal(t, want, got)
	})
	s, err := OpenBuiltin("bug-mark-before-drain")
	require.NoError(t, err)
	var broken, barriers []int
	for _, m := range s.View().Marks {
		switch m.Kind {
		case engine.MarkInvariant:
			broken = append(broken, m.Step)
		case "barrier":
			barriers = append(barriers, m.Step)
		}
	}
	require.Len(t, broken, 1)
	assert.Contains(t, barriers, broken[0], "the mark is at the barrier whose check failed")
	require.NoError(t, s.Goto(broken[0]))
	assert.Equal(t, "violated", s.View().Invariant.Status)
	require.NoError(t, s.Goto(broken[0]-1))
	assert.NotEqual(t, "violated", s.View().Invariant.Status)
}

// TestNextNoteIsTheNextStepsNote: at every step of every built-in, next_note is the note the
// view shows once the next scripted step is applied (when that step can happen in the run), and
// "" at the end of the script.
func TestNextNoteIsTheNextStepsNote(t *testing.T) {
	seen := 0
	everyRun(t, func(t *testing.T, s *Session) {
		for n := 0; n < s.Steps(); n++ {
			require.NoError(t, s.Goto(n))
			next := s.View().NextNote
			require.NoError(t, s.Step())
			v := s.View()
			if !s.tl.Engine().Skipped() {
				assert.Equal(t, v.Note, next, "step %d", n)
			}
			if next != "" {
				seen++
			}
		}
		assert.Equal(t, "", s.View().NextNote, "at the end")
	})
	assert.Positive(t, seen)
}
