package diagnose

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReleaseReadFromTheText: a text that names RisingWave's version is answered for its release
// line when none was asked for, and the answer says which it used and why.
func TestReleaseReadFromTheText(t *testing.T) {
	line := logLines[MsgActorExited]
	newest := ReleaseNames()[len(ReleaseNames())-1] // (every release says this message)
	for _, tc := range []struct{ text, asked, want, why string }{
		{"RisingWave version: 3.0.2\n" + line, "", "v3.0", "3.0.2"},
		{"compute node v3.0.2 " + line, "", "v3.0", "3.0.2"},
		{"image: risingwavelabs/risingwave-v2.8\n" + line, "", "v2.8", "2.8"},
		{"image: risingwavelabs/risingwave:v2.7.4\n" + line, "", "v2.7", "2.7.4"},
		{"RisingWave version: 3.0.2\n" + line, "v3.1", "v3.1", "but v3.1 was asked for"},
		{line, "", newest, ""},
	} {
		a, err := Diagnose(tc.text, tc.asked)
		require.NoError(t, err)
		require.True(t, a.Recognised, tc.text)
		assert.Equal(t, tc.want, a.Matches[0].Release, tc.text)
		if tc.why == "" {
			assert.Empty(t, a.ReleaseFrom)
			assert.True(t, a.Matches[0].Assumed)
			continue
		}
		assert.Contains(t, a.ReleaseFrom, tc.why, tc.text)
		assert.True(t, strings.HasPrefix(a.Text(), a.ReleaseFrom), "the answer says first which release it used")
		assert.False(t, a.Matches[0].Assumed && tc.asked == "", tc.text)
	}
	a, err := Diagnose("RisingWave Version:  3.0.2\n"+line, "")
	require.NoError(t, err)
	assert.Contains(t, a.ReleaseFrom, `("RisingWave Version:  3.0.2")`, "quoted as written")
	a, err = Diagnose("RisingWave version: 2.6.1\n"+line, "")
	require.NoError(t, err)
	assert.Contains(t, a.ReleaseFrom, "no facts for")
	assert.Equal(t, newest, a.Matches[0].Release)
}

// TestAnswerBeforeProofs: the answer's words come before who raises it and the proofs; the
// fatal error and its older counterpart link the 10-minute lesson.
func TestAnswerBeforeProofs(t *testing.T) {
	for _, m := range Catalogue() {
		for _, r := range ReleaseNames() {
			a, err := Diagnose(logLines[m.ID], r)
			require.NoError(t, err)
			text := a.Text()
			proofs := strings.Index(text, "What the source proves")
			if proofs < 0 {
				continue
			}
			for _, w := range []string{"Left behind:", "Where to look next", "Release " + r + ":"} {
				if i := strings.Index(text, w); i >= 0 {
					assert.Less(t, i, proofs, "%s %s: %q after the proofs", m.ID, r, w)
				}
			}
		}
	}
	a, err := Diagnose(logLines[MsgUpstreamEnded], "v3.1")
	require.NoError(t, err)
	require.NotNil(t, a.Matches[0].Lesson)
	assert.Contains(t, a.Text(), "#lesson=met-this-error&section=1")
	assert.Contains(t, string(a.AppendJSON(nil)), `"lesson":{"name":"met-this-error"`)
}
