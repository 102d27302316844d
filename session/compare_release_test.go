package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fatal-upstream-end under v3.1 against v3.0: the end at step 10 fails in one and ends silently
// in the other.
func TestCompareRelease(t *testing.T) {
	s, err := OpenBuiltin("fatal-upstream-end")
	require.NoError(t, err)
	c, err := s.CompareRelease("v3.0")
	require.NoError(t, err)
	assert.Equal(t, "under v3.1", c.Left)
	assert.Equal(t, "under v3.0", c.Right)
	require.Len(t, c.Rows, s.Steps())
	end := c.Rows[9]
	assert.Equal(t, "failed", end.Left.Phase)
	assert.Equal(t, "locality provider upstream ended unexpectedly during backfill", end.Left.Error)
	assert.Equal(t, "ended", end.Right.Phase)
	assert.Empty(t, end.Right.Error)
	assert.True(t, end.OutputsDiffer, "v3.0 reads the rest of the snapshot at the end")
	for _, r := range c.Rows[:9] {
		assert.False(t, r.OutputsDiffer, "step %d", r.Step)
	}

	// the other way round, from a session already under v3.0
	require.NoError(t, s.SetRelease("v3.0"))
	c, err = s.CompareRelease("v3.1")
	require.NoError(t, err)
	assert.Equal(t, "under v3.0", c.Left)
	assert.Equal(t, "ended", c.Rows[9].Left.Phase)
	assert.Equal(t, "failed", c.Rows[9].Right.Phase)

	_, err = s.CompareRelease("v9")
	assert.EqualError(t, err, `unknown release "v9": expected one of v2.7, v2.8, v3.0, v3.1`)
}

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
