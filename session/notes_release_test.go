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

// TestEveryBuiltinShowsOnlyNotesWrittenForItsRelease runs every built-in under every release:
// a step's note shown as the room's text was written for that release (the file's own release,
// or the step's note for it); any other is hidden, the view saying so in the caveat alone.
func TestEveryBuiltinShowsOnlyNotesWrittenForItsRelease(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		for _, r := range engine.Releases {
			s, err := session.OpenBuiltin(name)
			require.NoError(t, err)
			file := s.Scenario.Config.RunRelease().Name
			script := append([]engine.Step(nil), s.Scenario.Steps...)
			require.NoError(t, s.SetRelease(r.Name))
			for i := 1; i <= s.Steps(); i++ {
				require.NoError(t, s.Goto(i))
				v := s.View()
				st := script[i-1]
				if st.Note == "" {
					continue
				}
				own, written := st.NoteBy[r.Name]
				if !written && r.Name == file {
					own, written = st.Note, true
				}
				if !written {
					assert.Equal(t, v.NoteCaveat, v.Note, "%s under %s step %d: a note written for %s is shown", name, r.Name, i, file)
					assert.Contains(t, v.Note, "hidden under "+r.Name, "%s step %d", name, i)
					continue
				}
				if v.NoteCaveat == v.Note {
					continue // left out: the step could not happen in this run
				}
				assert.True(t, strings.HasSuffix(v.Note, strings.TrimSpace(own)), "%s under %s step %d: %q", name, r.Name, i, v.Note)
			}
		}
	}
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
