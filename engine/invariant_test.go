package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInvariantSeesRowsThatPosMovesPast: the check re-reads a vnode from its old pos when
// the pos moves, so a row that became expected without changing (here a buffered insert that
// mark-before-drain hides, between the old pos and the next snapshot row) is found missing.
func TestInvariantSeesRowsThatPosMovesPast(t *testing.T) {
	cfg := testConfig(1, []Column{{"a", TypeBigint}, {"id", TypeBigint}}, []int{0}, []int{1})
	cfg.ChunkSize, cfg.Bug = 100, BugMarkBeforeDrain
	e, err := New(cfg)
	require.NoError(t, err)
	ins := func(k int64) RowOp { return RowOp{Op: OpInsert, Row: Row{Int(k), Int(k)}, Visible: true} }
	for _, s := range []Step{
		{Kind: EventBarrier, Barrier: Barrier{Epoch: 1, Checkpoint: true}},
		{Kind: EventChunk, Chunk: []RowOp{ins(10), ins(30)}},
		{Kind: EventBarrier, Barrier: Barrier{Epoch: 2, Checkpoint: true, StartBackfill: []int64{7}}},
		{Kind: EventSnapshot, Count: 1},
		{Kind: EventBarrier, Barrier: Barrier{Epoch: 3, Checkpoint: true}},
		{Kind: EventChunk, Chunk: []RowOp{ins(20)}},
		{Kind: EventSnapshot, Count: 1},
		{Kind: EventBarrier, Barrier: Barrier{Epoch: 4, Checkpoint: true}},
	} {
		require.NoError(t, e.Apply(s))
		if s.Kind == EventBarrier && s.Barrier.Epoch == 3 {
			require.Equal(t, "holds", e.Invariant().Status)
		}
	}
	inv := e.Invariant()
	assert.Equal(t, "violated", inv.Status)
	assert.Equal(t, []Row{{Int(20), Int(20)}}, inv.Missing)
}
