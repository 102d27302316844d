package session_test

import (
	"fmt"
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
	assert.Contains(t, v.Note, "written for "+s.Scenario.WrittenNames()+" and is hidden under v3.0")
	assert.True(t, strings.HasPrefix(s.Scenario.WrittenNames(), "v3.1"))
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
	assert.Contains(t, s.View().Note, "written for "+s.Scenario.WrittenNames()+" and is hidden under v3.0")
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

// TestBorrowedTextsHoldTheSameRun: where a built-in's text does not name a release, the release
// reads the text of the release its registry entry borrows from (ProseOf); that holds only while
// the built-in runs the same under both: at every step the same trace and the same narration
// sites, under both create types. Where it does not, the file writes its texts for that release.
func TestBorrowedTextsHoldTheSameRun(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		s, err := session.OpenBuiltin(name)
		require.NoError(t, err)
		for run, from := range s.Scenario.Borrowed {
			for _, create := range []string{"foreground", "background"} {
				a, b := openUnder(t, name, run, create), openUnder(t, name, from, create)
				require.Equal(t, a.Steps(), b.Steps())
				for i := 1; i <= a.Steps(); i++ {
					require.NoError(t, a.Goto(i))
					require.NoError(t, b.Goto(i))
					ea, eb := a.Timeline().Engine(), b.Timeline().Engine()
					if !assert.Equal(t, runText(eb), runText(ea), "%s, %s: at step %d it runs otherwise than under %s, whose texts it reads: write its own (a `%s:` key)", name, create, i, from, run) ||
						!assert.Equal(t, sitesOf(eb), sitesOf(ea), "%s, %s: at step %d it says otherwise than under %s, whose texts it reads: write its own (a `%s:` key)", name, create, i, from, run) {
						break
					}
				}
			}
		}
	}
}

// TestAReleaseBorrowsTexts: a release added to the registry with ProseOf reads that release's
// text wherever a text of the file does not name it, and its own where the file writes one.
func TestAReleaseBorrowsTexts(t *testing.T) {
	r := *engine.DefaultRelease
	r.Name, r.ProseOf = "v9.9", engine.DefaultRelease
	saved := engine.Releases
	engine.Releases = append(append([]*engine.Release(nil), saved...), &r)
	t.Cleanup(func() { engine.Releases = saved })
	def := engine.DefaultRelease.Name
	src := "title: t\nwritten_for: [" + def + "]\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: ranges, bounds: [10]}\nfragment: 7\nsteps:\n  - barrier: 1\n    note: for every release it is written for\n  - barrier: 2\n    note: {" + def + ": the default's}\n"
	s, err := session.Load("t.yaml", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, def, s.Scenario.Borrowed["v9.9"])
	require.NoError(t, s.SetRelease("v9.9"))
	require.NoError(t, s.Goto(1))
	assert.Equal(t, "for every release it is written for", s.View().Note)
	require.NoError(t, s.Goto(2))
	assert.Equal(t, "the default's", s.View().Note)
	s, err = session.Load("t.yaml", []byte(strings.Replace(src, "{"+def+": the default's}", "{"+def+": the default's, v9.9: its own}", 1)))
	require.NoError(t, err)
	require.NoError(t, s.SetRelease("v9.9"))
	require.NoError(t, s.Goto(2))
	assert.Equal(t, "its own", s.View().Note, "a text that names the release is its own")
	require.NoError(t, s.Goto(1))
	assert.Equal(t, "for every release it is written for", s.View().Note, "the others still borrow")
}

func openUnder(t *testing.T, name, release, create string) *session.Session {
	t.Helper()
	s, err := session.OpenBuiltin(name)
	require.NoError(t, err)
	require.NoError(t, s.SetRelease(release))
	require.NoError(t, s.SetCreate(create))
	return s
}

// runText is the run so far in lines: its outputs, phase, failure, progress table and downstream.
func runText(e *engine.Engine) string {
	t := e.Trace()
	var b strings.Builder
	for _, o := range t.Outputs {
		fmt.Fprintf(&b, "%d: %s\n", o.Step, o)
	}
	fmt.Fprintf(&b, "phase %s\nprogress %v\ndownstream %v\n", t.Phase, t.ProgressTable, t.Downstream)
	if t.Error != nil {
		fmt.Fprintf(&b, "error %s\n", t.Error.Message)
	}
	return b.String()
}

func sitesOf(e *engine.Engine) []string {
	var out []string
	for _, x := range e.Explanations() {
		out = append(out, x.Site)
	}
	return out
}
