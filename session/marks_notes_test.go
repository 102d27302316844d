package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/scenarios"
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
// "" at the end of the script and once the job is dropped.
func TestNextNoteIsTheNextStepsNote(t *testing.T) {
	seen := 0
	everyRun(t, func(t *testing.T, s *Session) {
		for n := 0; n < s.Steps(); n++ {
			require.NoError(t, s.Goto(n))
			next := s.View().NextNote
			// a dropped job has no next step: no note may say what it would do
			if s.tl.Engine().Phase() == engine.PhaseDropped {
				assert.Equal(t, "", next, "step %d: the job was dropped", n)
			}
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

// TestMarkLabelsSayWhatTheGlyphDoesNot: a mark's glyph is the legend's alone ("mark.KIND": the
// glyph, a space, its meaning); its label is only what the glyph does not say: a barrier's
// epoch, an end's "stop" or "end", else "".
func TestMarkLabelsSayWhatTheGlyphDoesNot(t *testing.T) {
	kinds := map[string]bool{}
	everyRun(t, func(t *testing.T, s *Session) {
		for _, m := range s.View().Marks {
			kinds[m.Kind] = true
			entry, ok := glossary.Legend["mark."+m.Kind]
			require.True(t, ok, "mark kind %q has no legend entry", m.Kind)
			glyph, _, _ := strings.Cut(entry, " ")
			assert.NotContains(t, m.Label, glyph, "step %d", m.Step)
			switch m.Kind {
			case "barrier":
				assert.Regexp(t, `^e[0-9]+$`, m.Label)
			case "end":
				assert.Contains(t, []string{"stop", "end"}, m.Label)
			default:
				assert.Equal(t, "", m.Label, "%s at step %d", m.Kind, m.Step)
			}
		}
	})
	assert.Subset(t, keysOf(kinds), []string{"barrier", "error", "recovery", "end", engine.MarkInvariant})
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestADroppedJobHasNoNextNote: under every release and create type, once a recovery has dropped
// the job nothing follows, so no "next note" may tell what the script's next step would do (it
// said "the snapshot resumes…" on v3.0 beside a dropped job).
func TestADroppedJobHasNoNextNote(t *testing.T) {
	drops := 0
	for _, name := range scenarios.BuiltinNames() {
		for _, rel := range engine.Releases {
			for _, create := range []string{"foreground", "background"} {
				s, err := OpenBuiltin(name)
				require.NoError(t, err)
				require.NoError(t, s.SetRelease(rel.Name))
				require.NoError(t, s.SetCreate(create))
				for n := 0; n <= s.Steps(); n++ {
					require.NoError(t, s.Goto(n))
					if s.tl.Engine().Phase() != engine.PhaseDropped {
						continue
					}
					drops++
					assert.Equal(t, "", s.View().NextNote, "%s %s %s step %d", name, rel.Name, create, n)
				}
			}
		}
	}
	assert.Positive(t, drops)
}

// TestARecoveryNoteTellsBothFates: where a recovery's fate depends on the create type (a creating
// job on a release that drops foreground ones), the recover step's note is shown under both
// create types, so it must tell both fates: the foreground job dropped, the background one kept.
// (crash-while-buffering said only "Back to e2 …" beside a dropped foreground job.)
func TestARecoveryNoteTellsBothFates(t *testing.T) {
	seen := 0
	for _, name := range scenarios.BuiltinNames() {
		for _, rel := range engine.Releases {
			s, err := OpenBuiltin(name)
			require.NoError(t, err)
			require.NoError(t, s.SetRelease(rel.Name))
			for n := 1; n <= s.Steps(); n++ {
				require.NoError(t, s.Goto(n))
				st := s.tl.Script()[n-1]
				e := s.tl.Engine()
				if st.Kind != engine.EventRecover || e.Skipped() || e.RecoveryDropsAs(engine.CreateForeground) == e.RecoveryDropsAs(engine.CreateBackground) {
					continue
				}
				note, _ := s.tl.Note()
				if note == "" {
					continue
				}
				seen++
				where := fmt.Sprintf("%s %s step %d", name, rel.Name, n)
				assert.Regexp(t, `(?i)foreground[^.]*drop|drop[^.]*foreground`, note, where)
				assert.Regexp(t, `(?i)background[^.]*(kept|keeps|resumes|back to)`, note, where)
			}
		}
	}
	assert.Positive(t, seen)
}
