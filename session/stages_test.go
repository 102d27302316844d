package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/wire"
	"github.com/backfill-explainer/explainer/wire/wiretest"
)

func TestStagesCorrectAgainstBugMode(t *testing.T) {
	s, err := OpenBuiltin("builder-fills-mid-epoch")
	require.NoError(t, err)
	require.NoError(t, s.Goto(5))
	st, err := s.Stages(Run{}, Run{Bug: "mark-before-drain"})
	require.NoError(t, err)
	assert.Equal(t, "as RisingWave does it", st.Left)
	assert.Equal(t, "bug mode mark-before-drain", st.Right)
	assert.Equal(t, s.Steps(), st.Steps)
	assert.Equal(t, 5, s.View().Step, "the open run stays where it was")
	require.NotEmpty(t, st.Differ)
	first := st.Differ[0]
	assert.Equal(t, StepDiffs{Step: 8, Panels: []string{"outputs", "downstream", "invariant"}}, first, "the runs part at the barrier e3")

	before, err := st.At(first.Step - 1)
	require.NoError(t, err)
	assert.Empty(t, panelNames(before.Differs.Panels), "the runs agree before the first difference")
	at, err := st.At(first.Step)
	require.NoError(t, err)
	assert.Equal(t, first.Panels, panelNames(at.Differs.Panels))
	assert.Equal(t, first.Step, at.Left.Step)
	assert.Equal(t, first.Step, at.Right.Step)

	end, err := st.At(st.Steps)
	require.NoError(t, err)
	assert.True(t, end.Differs.Panels.Downstream)
	assert.True(t, end.Differs.Panels.Invariant)
	assert.Equal(t, "[[2,150]]", testutil.MustJSON(end.Differs.OnlyLeft), "only the correct run holds (2,150)")
	assert.Empty(t, end.Differs.OnlyRight)
	assert.Equal(t, "holds", end.Left.Invariant.Status)
	assert.Equal(t, "violated", end.Right.Invariant.Status)
	wiretest.AsEncoder(t, st, st.AppendJSON(nil), "stages")
	wiretest.AsEncoder(t, end, end.AppendJSON(nil), "stages at the end")
	assert.Contains(t, string(end.AppendJSON(nil)), `"left":`+string(wire.AppendView(nil, end.Left)))
}

func TestStagesVnodesThatDiffer(t *testing.T) {
	s, err := OpenBuiltin("builder-fills-mid-epoch")
	require.NoError(t, err)
	st, err := s.Stages(Run{}, Run{Bug: "mark-before-drain"})
	require.NoError(t, err)
	for n := 0; n <= st.Steps; n++ {
		at, err := st.At(n)
		require.NoError(t, err)
		// a panel differs in a vnode only where the panel differs
		assert.Equal(t, at.Differs.Panels.Progress, len(at.Differs.Vnodes.Progress) > 0, "step %d progress", n)
		assert.Equal(t, at.Differs.Panels.Builders, len(at.Differs.Vnodes.Builders) > 0, "step %d builders", n)
		assert.Equal(t, at.Differs.Panels.Downstream, len(at.Differs.OnlyLeft)+len(at.Differs.OnlyRight) > 0, "step %d downstream", n)
	}
}

func TestStagesOfOneRunAgree(t *testing.T) {
	s, err := OpenBuiltin("happy-path")
	require.NoError(t, err)
	st, err := s.Stages(Run{}, Run{})
	require.NoError(t, err)
	assert.Equal(t, "this run", st.Left)
	assert.Equal(t, "the other run", st.Right)
	assert.Empty(t, st.Differ)

	// another script of the same scenario: an explored schedule
	b, err := OpenBuiltin("bug-mark-before-drain")
	require.NoError(t, err)
	x, err := b.Explore(0)
	require.NoError(t, err)
	require.Greater(t, len(x.Outcomes), 1)
	st, err = b.Stages(Run{}, Run{Text: x.Outcomes[1].Example})
	require.NoError(t, err)
	assert.NotEmpty(t, st.Differ)

	_, err = s.Stages(Run{}, Run{Bug: "nonsense"})
	assert.ErrorContains(t, err, "right run")
	_, err = st.At(st.Steps + 1)
	assert.Error(t, err)
}

// Two releases side by side: fatal-upstream-end under v3.0 and v3.1 part at the upstream's end
// (step 10): v3.1 fails there, v3.0's stream ends silently; after the recovery to e3 they differ
// only in the executor's outputs (v3.0's log keeps what it emitted at the end).
func TestStagesTwoReleases(t *testing.T) {
	s, err := OpenBuiltin("fatal-upstream-end")
	require.NoError(t, err)
	st, err := s.Stages(Run{Release: "v3.0"}, Run{Release: "v3.1"})
	require.NoError(t, err)
	assert.Equal(t, "v3.0", st.Left)
	assert.Equal(t, "v3.1", st.Right)
	require.NotEmpty(t, st.Differ)
	assert.Equal(t, 10, st.Differ[0].Step, "%v", st.Differ)
	at, err := st.At(10)
	require.NoError(t, err)
	assert.Equal(t, "ended", at.Left.Phase)
	assert.Equal(t, "failed", at.Right.Phase)
	assert.True(t, at.Differs.Panels.Phase)
	assert.True(t, at.Differs.Panels.Fatal)
	assert.Nil(t, at.Left.Error)
	require.NotNil(t, at.Right.Error)
	assert.Contains(t, at.Right.Error.Message, "locality provider upstream ended unexpectedly during backfill")
	assert.Equal(t, "v3.0", at.Left.Release)
	// v3.0's recovery drops the job, created in the foreground (the default); v3.1's keeps it
	at11, err := st.At(11)
	require.NoError(t, err)
	assert.Equal(t, "dropped", at11.Left.Phase)
	assert.Equal(t, "starting", at11.Right.Phase)

	// the open run's release on one side, a bug mode on the other
	require.NoError(t, s.SetRelease("v3.0"))
	st, err = s.Stages(Run{}, Run{Release: "v3.1", Bug: "no-state-write"})
	require.NoError(t, err)
	assert.Equal(t, "v3.0, as RisingWave does it", st.Left)
	assert.Equal(t, "v3.1, bug mode no-state-write", st.Right)
	_, err = s.Stages(Run{}, Run{Release: "3.0"})
	assert.EqualError(t, err, `right run: unknown release "3.0": write v3.0 (one of `+scenarios.ReleaseNames()+`)`)
}
