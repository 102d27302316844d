package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFirstBarrierOnManyVnodes: loading the progress of 32768 vnodes is narrated as counts,
// and building that sentence costs a handful of allocations, not one string per vnode: the
// narration used to build the per-vnode list (quadratic in the vnodes) before throwing it
// away for the counts.
func TestFirstBarrierOnManyVnodes(t *testing.T) {
	cfg := &Config{Title: "t", Columns: []Column{{Name: "a"}, {Name: "id"}}, Locality: []int{0}, StreamKey: []int{1},
		VnodeCount: 32768, ChunkSize: 256, Fragment: 1, Actor: 1}
	for v := 0; v < 32768; v++ {
		cfg.Owned = append(cfg.Owned, v)
	}
	base, err := New(cfg)
	require.NoError(t, err)
	e := base.Clone()
	require.NoError(t, e.Apply(Step{Kind: EventBarrier, Barrier: Barrier{Epoch: 1, Checkpoint: true}}))
	var load string
	for _, ef := range e.Explanations() {
		if ef.Kind == "load" {
			load = ef.Text
		}
	}
	assert.Equal(t, "Progress loaded from the progress table: 32768 not started, 0 in progress, 0 completed.", load)
	allocs := testing.AllocsPerRun(3, func() { _ = e.describeProgress() })
	assert.Less(t, allocs, 100.0, "describing 32768 vnodes' progress")
}
