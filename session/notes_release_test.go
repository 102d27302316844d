package session_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// TestEveryBuiltinIsWrittenForEveryRelease runs every built-in under every release and both
// create types: its title, summary and every step's note are written for that release (the
// file's `written_for:`, or per release), and the view shows those; a note written for another
// release would be hidden (the view saying so in the caveat alone), so it is an error here too.
func TestEveryBuiltinIsWrittenForEveryRelease(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		for _, r := range engine.Releases {
			for _, create := range []string{"foreground", "background"} {
				s, err := session.OpenBuiltin(name)
				require.NoError(t, err)
				sc := s.Scenario
				fileTitle, fileSummary := sc.Config.Title, sc.Config.Summary
				script := append([]engine.Step(nil), sc.Steps...)
				require.NoError(t, s.SetRelease(r.Name))
				require.NoError(t, s.SetCreate(create))
				at := name + " under " + r.Name + ", " + create
				title, ok := sc.TitleFor(r.Name, fileTitle)
				assert.True(t, ok, "%s: its title is not written for %s", at, r.Name)
				summary, ok := sc.SummaryFor(r.Name, fileSummary)
				assert.True(t, ok, "%s: its summary is not written for %s", at, r.Name)
				dropped := false
				for i := 1; i <= s.Steps(); i++ {
					require.NoError(t, s.Goto(i))
					v := s.View()
					dropped = dropped || v.Phase == "dropped"
					assert.Equal(t, title, v.Title, at)
					assert.Equal(t, summary, v.Summary, at)
					st := script[i-1]
					if st.Note == "" && st.NoteBy == nil {
						continue
					}
					if !assert.True(t, sc.NoteWritten(st, r.Name), "%s step %d: its note is not written for %s", at, i, r.Name) {
						continue
					}
					assert.NotContains(t, v.Note, "hidden under", "%s step %d", at, i)
					if v.NoteCaveat == v.Note {
						continue // left out: the step could not happen in this run
					}
					own := st.Note
					if st.NoteBy != nil {
						own = st.NoteBy[r.Name]
					}
					assert.True(t, strings.HasSuffix(v.Note, strings.TrimSpace(own)), "%s step %d: %q", at, i, v.Note)
				}
				// a built-in whose recovery drops the job says so; one created in the background to resume says that
				if dropped && create == sc.Config.Create.String() {
					assert.Contains(t, summary, "drop", "%s: the recovery drops the job, and the summary does not say so", at)
				}
				if sc.Config.Create == engine.CreateBackground && hasRecover(script) {
					assert.Contains(t, summary, "background", "%s: created in the background, and the summary does not say so", at)
				}
			}
		}
	}
}

// TestNoteWrittenForAnotherReleaseIsHidden: under a release the file's texts are not written
// for, a note is hidden, the view saying so in the caveat alone.
func TestNoteWrittenForAnotherReleaseIsHidden(t *testing.T) {
	src := "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: ranges, bounds: [10]}\nfragment: 7\nsteps:\n  - barrier: 1\n    note: for the default only\n"
	s, err := session.Load("t.yaml", []byte(src))
	require.NoError(t, err)
	require.NoError(t, s.SetRelease("v3.0"))
	require.NoError(t, s.Goto(1))
	v := s.View()
	assert.Equal(t, v.NoteCaveat, v.Note)
	assert.Contains(t, v.Note, "written for v3.1 and is hidden under v3.0")
}

// TestNoteWrittenPerRelease: a step's note may be written per release; each release shows its own.
func TestNoteWrittenPerRelease(t *testing.T) {
	src := "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: ranges, bounds: [10]}\nfragment: 7\nsteps:\n  - barrier: 1\n    note: {v3.1: for three one, v3.0: for three zero}\n  - barrier: 2\n    note: only for the default\n"
	s, err := session.Load("t.yaml", []byte(src))
	require.NoError(t, err)
	require.NoError(t, s.Goto(1))
	assert.Equal(t, "for three one", s.View().Note)
	require.NoError(t, s.SetRelease("v3.0"))
	require.NoError(t, s.Goto(1))
	assert.Equal(t, "for three zero", s.View().Note)
	assert.Empty(t, s.View().NoteCaveat)
	require.NoError(t, s.Goto(2))
	assert.Contains(t, s.View().Note, "written for v3.1 and is hidden under v3.0")
	require.NoError(t, s.SetRelease("v2.7"))
	require.NoError(t, s.Goto(1))
	assert.Contains(t, s.View().Note, "hidden under v2.7")
	_, err = session.Load("t.yaml", []byte(strings.Replace(src, "{v3.1: for three one, v3.0: for three zero}", "{v3.0: only zero}", 1)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "it needs one for v3.1")
	_, err = session.Load("t.yaml", []byte(strings.Replace(src, "{v3.1: for three one, v3.0: for three zero}", "{v3.1: a, v9.9: b}", 1)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "v9.9")
}

func hasRecover(script []engine.Step) bool {
	for _, st := range script {
		if st.Kind == engine.EventRecover {
			return true
		}
	}
	return false
}
