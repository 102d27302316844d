package explore

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/backfill-explainer/explainer/engine"
)

// TestOutcomeSaysItsCheckIsTheLastBarriers: an outcome's invariant sentence names the barrier it
// was checked at and the end state's downstream count, so "downstream's 0 rows equal …" beside
// seven downstream rows reads as the last barrier's check, not the end state.
func TestOutcomeSaysItsCheckIsTheLastBarriers(t *testing.T) {
	inv := engine.Invariant{Status: "holds", Epoch: 1, Text: "Invariant holds at e1: downstream's 0 rows equal every row of the vnodes the backfill has passed."}
	got := lastCheckText(inv, 7)
	assert.True(t, strings.HasPrefix(got, "At the last barrier checked, e1 (not the end state): "), got)
	assert.Contains(t, got, "The end state's downstream holds 7 rows")
	assert.Equal(t, "", lastCheckText(engine.Invariant{Status: "unchecked"}, 3))
}
