package session_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/session"
)

const byReleaseSrc = "title: {v3.1: fatal, \"v2.7 v2.8, v3.0\": silent}\nsummary: {v3.1: s31, v2.8 v3.0: s30}\nwritten_for: [v2.8, v3.0, v3.1]\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: ranges, bounds: [10]}\nfragment: 7\nsteps:\n  - barrier: 1\n    note: every release written for\n  - barrier: 2\n    note: {v2.7 v2.8: old, v3.1: new}\n"

// TestTitleSummaryAndNotesPerRelease: a title and a summary may be written per release, a key may
// name several releases, and `written_for:` says which releases the texts not written per release
// are for; the view shows each release's own, and hides a note not written for the run's.
func TestTitleSummaryAndNotesPerRelease(t *testing.T) {
	s, err := session.Load("t.yaml", []byte(byReleaseSrc))
	require.NoError(t, err)
	require.NoError(t, s.Goto(2))
	v := s.View()
	assert.Equal(t, "fatal", v.Title)
	assert.Equal(t, "s31", v.Summary)
	assert.Equal(t, "new", v.Note)
	for _, c := range []struct{ rel, title, summary, note1, note2 string }{
		{"v3.0", "silent", "s30", "every release written for", ""},
		{"v2.8", "silent", "s30", "every release written for", "old"},
		{"v2.7", "silent", "s31", "", "old"},
		{"v3.1", "fatal", "s31", "every release written for", "new"},
	} {
		require.NoError(t, s.SetRelease(c.rel))
		require.NoError(t, s.Goto(1))
		v := s.View()
		assert.Equal(t, c.title, v.Title, c.rel)
		assert.Equal(t, c.summary, v.Summary, c.rel) // v2.7: not written for it, the file's own
		if c.note1 == "" {                           // (a release added later that borrows their texts is named too)
			assert.Contains(t, v.Note, "written for "+s.Scenario.WrittenNames()+" and is hidden under v2.7")
		} else {
			assert.Equal(t, c.note1, v.Note, c.rel)
		}
		require.NoError(t, s.Goto(2))
		if c.note2 == "" {
			by := s.Scenario.Steps[1].NoteBy
			assert.Contains(t, s.View().Note, "written for "+engine.NamesWhere(func(r *engine.Release) bool { _, ok := by[r.Name]; return ok })+" and is hidden under "+c.rel)
			assert.Contains(t, s.View().Note, "written for v2.7, v2.8, v3.1")
		} else {
			assert.Equal(t, c.note2, s.View().Note, c.rel)
		}
	}
	w := s.Scenario
	assert.True(t, strings.HasPrefix(w.WrittenNames(), "v2.8, v3.0, v3.1"), w.WrittenNames())
	_, ok := w.SummaryFor("v2.7", "s31")
	assert.False(t, ok)
}

// TestByReleaseErrors: the errors of texts written per release name the line and what to write.
func TestByReleaseErrors(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{`"v2.7 v2.8, v3.0": silent`, `v2.7 v2.8 v2.7: silent`, "1:22: title: v2.7 is written twice"},
		{`v2.8 v3.0: s30`, `v2.8 v9.9: s30`, "2:"},
		{`{v3.1: fatal, "v2.7 v2.8, v3.0": silent}`, `{v3.0: silent}`, "title: written per release, it needs one for v3.1"},
		{`written_for: [v2.8, v3.0, v3.1]`, `written_for: [v2.8, v2.8]`, "written_for: v2.8 is named twice"},
		{`written_for: [v2.8, v3.0, v3.1]`, `written_for: [3.0]`, "written_for: "},
		{`{v3.1: fatal, "v2.7 v2.8, v3.0": silent}`, `{v3.1: "", v3.0: x}`, "title: v3.1's title must not be empty"},
	} {
		src := strings.Replace(byReleaseSrc, c.from, c.to, 1)
		require.NotEqual(t, byReleaseSrc, src, c.from)
		_, err := session.Load("t.yaml", []byte(src))
		if assert.Error(t, err, c.to) {
			assert.Contains(t, err.Error(), c.want, c.to)
		}
	}
}
