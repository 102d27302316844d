package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testConfig(vnodes int, cols []Column, locality, streamKey []int) *Config {
	cfg := &Config{Title: "w", Columns: cols, Locality: locality, StreamKey: streamKey, VnodeCount: vnodes, ChunkSize: 16, Fragment: 7, Actor: 1}
	for v := 0; v < vnodes; v++ {
		cfg.Owned = append(cfg.Owned, v)
	}
	return cfg
}

// testCounter counts outputs as a workload's run does.
type testCounter struct{ builder, visible, hidden, barriers int }

func (c *testCounter) Chunk(rows []OutRow, source string) {
	for _, r := range rows {
		switch {
		case source == "builder":
			c.builder++
		case r.Visible:
			c.visible++
		default:
			c.hidden++
		}
	}
}
func (c *testCounter) BuilderRows(n int) { c.builder += n }
func (c *testCounter) Barrier()          { c.barriers++ }

// TestScaleModeCountsOutputs: the engine in scale mode counts what it emits by source and
// visibility and keeps no output, while the same steps without the counter keep them all.
func TestScaleModeCountsOutputs(t *testing.T) {
	cfg := testConfig(2, []Column{{"a", TypeBigint}, {"id", TypeBigint}}, []int{0}, []int{1})
	cfg.Rule, cfg.Bounds, cfg.ChunkSize = RuleRanges, []int64{10}, 2
	script := []Step{
		{Kind: EventBarrier, Barrier: Barrier{Epoch: 1, Checkpoint: true}},
		{Kind: EventChunk, Chunk: []RowOp{{Op: OpInsert, Row: Row{Int(1), Int(1)}, Visible: true}, {Op: OpInsert, Row: Row{Int(11), Int(2)}, Visible: true}}},
		{Kind: EventBarrier, Barrier: Barrier{Epoch: 2, Checkpoint: true, StartBackfill: []int64{7}}},
		{Kind: EventSnapshot, Count: 1},
		{Kind: EventChunk, Chunk: []RowOp{{Op: OpInsert, Row: Row{Int(2), Int(3)}, Visible: true}, {Op: OpInsert, Row: Row{Int(12), Int(4)}, Visible: true}}},
		{Kind: EventBarrier, Barrier: Barrier{Epoch: 3, Checkpoint: true}},
	}
	kept, err := New(cfg)
	require.NoError(t, err)
	counted, err := New(cfg)
	require.NoError(t, err)
	var c testCounter
	counted.CountOutputs(&c)
	for _, s := range script {
		require.NoError(t, kept.Apply(s))
		require.NoError(t, counted.Apply(s))
	}
	builder, visible, hidden := 0, 0, 0
	for _, o := range kept.Outputs() {
		for _, r := range o.Rows {
			switch {
			case o.Source == "builder":
				builder++
			case r.Visible:
				visible++
			default:
				hidden++
			}
		}
	}
	assert.Equal(t, 3, c.barriers)
	assert.Equal(t, [3]int{builder, visible, hidden}, [3]int{c.builder, c.visible, c.hidden})
	assert.Equal(t, [3]int{1, 0, 2}, [3]int{builder, visible, hidden}, "(2,3) is past pos, (12,4) on a vnode not started")
	assert.Empty(t, counted.Outputs())
	assert.Equal(t, kept.Trace().Downstream, counted.Trace().Downstream)
	assert.Equal(t, kept.Invariant(), counted.Invariant())
}
