package session

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each outcome says how it differs from the one it is compared with, and what it says is true:
// the phase, the positions and the downstream rows named are those of the two outcomes.
func TestExplorerOutcomesSayHowTheyDiffer(t *testing.T) {
	for _, tc := range []struct{ name, bug string }{
		{"happy-path", ""},
		{"builder-fills-mid-epoch", ""},
		{"builder-fills-mid-epoch", "mark-before-drain"},
		{"bug-mark-on-arrival", ""},
		{"fatal-upstream-end", ""},
		{"recovery-resumes", ""},
		{"rescale-mid-backfill", ""},
	} {
		t.Run(tc.name+"/"+tc.bug, func(t *testing.T) {
			s, err := OpenBuiltin(tc.name)
			require.NoError(t, err)
			if tc.bug != "" {
				require.NoError(t, s.SetBug(tc.bug))
			}
			r, err := s.Explore(0)
			require.NoError(t, err)
			require.False(t, r.Capped)
			var total uint64
			for i, o := range r.Outcomes {
				total += o.Schedules
				d := o.Diff
				assert.True(t, d.Finished, "outcome %d: an exhaustive search finishes every schedule", i+1)
				if len(r.Outcomes) == 1 {
					assert.Zero(t, d.Versus)
					continue
				}
				ref := d.Versus - 1
				require.True(t, ref >= 0 && ref < len(r.Outcomes) && ref != i, "outcome %d compared with %d", i+1, d.Versus)
				other := r.Outcomes[ref]
				require.NotEmpty(t, d.Differs)
				words := strings.Join(d.Differs, "; ")
				if o.Phase != other.Phase {
					assert.Contains(t, words, fmt.Sprintf("ends %s (outcome %d: %s)", o.Phase, ref+1, other.Phase))
				} else {
					assert.NotContains(t, words, "ends "+o.Phase+" (")
				}
				if !slices.Equal(d.Positions, other.Diff.Positions) {
					for k, p := range d.Positions {
						if k < len(other.Diff.Positions) && other.Diff.Positions[k] != p {
							assert.Contains(t, words, p, "outcome %d names the vnode whose position differs", i+1)
						}
					}
				}
				onlyHere, notHere := diffRows(o.Downstream, other.Downstream)
				assert.Equal(t, onlyHere, d.OnlyHere)
				assert.Equal(t, notHere, d.NotHere)
				for _, row := range onlyHere {
					assert.Contains(t, words, row.String())
				}
				if len(onlyHere)+len(notHere) == 0 {
					assert.Contains(t, words, fmt.Sprintf("downstream holds the same rows as outcome %d", ref+1))
				}
				if o.Violated != other.Violated {
					assert.Contains(t, words, "the invariant ")
				}
				// every outcome differs from the one it is compared with in something it names
				assert.False(t, len(d.Differs) == 1 && strings.HasPrefix(d.Differs[0], "downstream holds the same"),
					"outcome %d says only that it is the same: %v", i+1, d.Differs)
			}
			assert.Equal(t, r.Schedules, total, "the schedules of the outcomes add up to the schedules explored")
		})
	}
}

// A capped search lists only schedules it played to the end: states are counted on entry and a
// state past the budget is not explored, so no outcome is a state on the way.
func TestACappedSearchListsOnlyFinishedSchedules(t *testing.T) {
	s, err := OpenBuiltin("happy-path")
	require.NoError(t, err)
	r, err := s.Explore(50)
	require.NoError(t, err)
	require.True(t, r.Capped)
	require.NotEmpty(t, r.Outcomes, "a budget of 50 states reaches some ends of happy-path")
	for _, o := range r.Outcomes {
		assert.True(t, o.Diff.Finished)
	}
	full, err := s.Explore(0)
	require.NoError(t, err)
	for _, o := range full.Outcomes {
		assert.True(t, o.Diff.Finished)
	}
}
