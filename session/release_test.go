package session

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/timeline"
)

// A run under another release exports with its release, so that its link opens it so again.
func TestExportKeepsTheRelease(t *testing.T) {
	s, err := OpenBuiltin("fatal-upstream-end")
	require.NoError(t, err)
	require.NoError(t, s.Goto(10))
	require.NoError(t, s.SetRelease("v3.0"))
	e := s.Export()
	assert.Contains(t, e.Scenario, "\nrelease: v3.0\n")
	back, err := Load("", []byte(e.Scenario))
	require.NoError(t, err)
	require.NoError(t, back.Goto(10))
	assert.Equal(t, "ended", back.View().Phase)
}

// The notes' caveat names the release the script was written for, and goes when the run is
// back under it; a bug mode and a release both differing are both named.
func TestReleaseCaveat(t *testing.T) {
	// the built-in without its written_for: its plain notes are written for v3.1 alone
	text, err := scenarios.BuiltinText("fatal-upstream-end")
	require.NoError(t, err)
	text = []byte(strings.Replace(string(text), "written_for: [v2.7, v2.8, v3.0, v3.1]\n", "", 1))
	s, err := Load("fatal-upstream-end.yaml", text)
	require.NoError(t, err)
	require.NoError(t, s.Goto(9))
	require.NoError(t, s.SetRelease("v3.0"))
	written := s.Scenario.WrittenNames() // v3.1 (and a release added later that borrows its texts)
	assert.Equal(t, timeline.NoteHiddenText(written, "v3.0"), s.View().NoteCaveat, "the note written for v3.1 is hidden")
	assert.Equal(t, s.View().NoteCaveat, s.View().Note, "never beside a contradiction: the note is the hidden sentence alone")
	require.NoError(t, s.SetRelease("v3.1"))
	assert.Equal(t, "", s.View().NoteCaveat, "back under the release it was written for")
	require.NoError(t, s.Goto(10))
	assert.Equal(t, "failed", s.View().Phase)
	require.NoError(t, s.Goto(9))
	require.NoError(t, s.SetRelease("v2.8"))
	require.NoError(t, s.SetBug("no-state-write"))
	assert.Equal(t, timeline.NoteHiddenText(written, "v2.8"), s.View().NoteCaveat)
	require.NoError(t, s.SetBug("none"))
	assert.Equal(t, timeline.NoteHiddenText(written, "v2.8"), s.View().NoteCaveat, "the bug mode off, the release still differs")
	require.NoError(t, s.Goto(10))
	assert.Equal(t, "ended", s.View().Phase)
	assert.Empty(t, s.View().NoteCaveat, "step 10's note is written per release: v2.8's own")

	// a run of the two-stage compare from a session under v3.0: the v3.1 side has no caveat
	st, err := s.Stages(Run{}, Run{Release: "v3.1"})
	require.NoError(t, err)
	at, err := st.At(9)
	require.NoError(t, err)
	assert.NotEmpty(t, at.Left.NoteCaveat)
	assert.Empty(t, at.Right.NoteCaveat)
}
