package session

import (
	"testing"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExportReplaysTheRunExactly(t *testing.T) {
	s, err := OpenBuiltin("happy-path")
	require.NoError(t, err)
	require.NoError(t, s.Goto(7))
	require.NoError(t, s.Apply("snapshot: 1"))        // a branch: the snapshot first
	require.NoError(t, s.Apply(`chunk: ["+ 5 104"]`)) // an injected chunk
	require.NoError(t, s.Apply("barrier: {epoch: 40, checkpoint: false}"))
	require.NoError(t, s.RunToEnd())
	ex := s.Export()
	back, err := Load("exported.yaml", []byte(ex.Scenario))
	require.NoError(t, err, ex.Scenario)
	require.NoError(t, back.RunToEnd())
	assert.Equal(t, ex.Trace, back.Trace(), "opening the exported file reproduces the run")
}

func TestExploreReportExamplesAreScenarios(t *testing.T) {
	s, err := OpenBuiltin("bug-mark-before-drain")
	require.NoError(t, err)
	r, err := s.Explore(0)
	require.NoError(t, err)
	require.NotEmpty(t, r.Outcomes)
	for _, o := range r.Outcomes {
		ex, err := Load("", []byte(o.Example))
		require.NoError(t, err, o.Example)
		require.NoError(t, ex.RunToEnd())
		assert.Equal(t, o.Phase, ex.Trace().Phase)
		assert.Equal(t, o.Downstream, ex.Trace().Downstream)
	}
}

func TestCompareBugMode(t *testing.T) {
	s, err := OpenBuiltin("builder-fills-mid-epoch")
	require.NoError(t, err)
	c, err := s.CompareBug("mark-before-drain")
	require.NoError(t, err)
	assert.Equal(t, "as RisingWave does it", c.Left)
	assert.Equal(t, "bug mode mark-before-drain", c.Right)
	require.Len(t, c.Rows, s.Steps())
	first := 0
	for _, r := range c.Rows {
		if r.OutputsDiffer && first == 0 {
			first = r.Step
		}
	}
	assert.Equal(t, 8, first, "the runs part at the barrier e3")
	last := c.Rows[len(c.Rows)-1]
	assert.True(t, last.DownstreamDiffers)
	assert.Equal(t, "[[2,150]]", testutil.MustJSON(last.OnlyLeft), "only the correct run holds (2,150)")
	assert.Equal(t, "holds", last.Left.Invariant)
	assert.Equal(t, "violated", last.Right.Invariant)

	// comparing a bug-mode scenario with its bug mode compares it with the correct run
	b, err := OpenBuiltin("bug-emit-beyond-pos")
	require.NoError(t, err)
	c, err = b.CompareBug("emit-beyond-pos")
	require.NoError(t, err)
	assert.Equal(t, "as RisingWave does it", c.Right)
	_, err = s.CompareBug("nonsense")
	assert.Error(t, err)
}
