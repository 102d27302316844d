package explore

import (
	"runtime"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/stretchr/testify/require"
)

// chunkScenario is one vnode; a chunk of `rows` rows before the backfill starts, then `pairs`
// one-row chunks each followed by a barrier: the snapshot's rows and the upstream's messages
// interleave in very many ways.
func chunkScenario(rows, pairs int) (*engine.Config, []engine.Step) {
	cfg := &engine.Config{Title: "t", Columns: []engine.Column{{Name: "a"}, {Name: "id"}}, Locality: []int{0}, StreamKey: []int{1},
		VnodeCount: 1, Owned: []int{0}, ChunkSize: 256, Fragment: 1, Actor: 1}
	barrier := func(epoch int64, start bool) engine.Step {
		b := engine.Barrier{Epoch: epoch, Checkpoint: true}
		if start {
			b.StartBackfill = []int64{1}
		}
		return engine.Step{Kind: engine.EventBarrier, Barrier: b}
	}
	row := func(id int64) engine.RowOp {
		return engine.RowOp{Op: engine.OpInsert, Row: engine.Row{engine.Int(0), engine.Int(id)}, Visible: true}
	}
	steps := []engine.Step{barrier(1, false)}
	big := engine.Step{Kind: engine.EventChunk}
	for i := 0; i < rows; i++ {
		big.Chunk = append(big.Chunk, row(int64(i)))
	}
	steps = append(steps, big, barrier(2, false), barrier(3, true))
	for i := 0; i < pairs; i++ {
		steps = append(steps, engine.Step{Kind: engine.EventChunk, Chunk: []engine.RowOp{row(int64(100000 + i))}}, barrier(int64(4+i), false))
	}
	return cfg, steps
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The explorer's memory estimate is honest: what it holds when it stops (its table of states,
// their outcomes and examples) is within the estimate, and the estimate stays within the budget.
func TestExploreHonoursItsMemoryBudget(t *testing.T) {
	cfg, steps := chunkScenario(200, 10)
	base, err := engine.New(cfg)
	require.NoError(t, err)
	budget := int64(16 << 20)
	if testing.Short() {
		budget = 4 << 20 // -short: a quarter of the budget, a quarter of the search
	}
	before := liveHeap()
	x := newExplorer(base, steps, ExploreBudget{States: 1 << 30, Bytes: budget})
	res := x.search(x.root)
	held := liveHeap() - before
	r := x.report(res)
	runtime.KeepAlive(x)
	t.Logf("%d states, %d bytes estimated (peak %d), %d bytes held; %s", r.States, x.bytes, r.Bytes, held, r.Stopped)
	require.True(t, r.Capped)
	require.Contains(t, r.Stopped, "memory budget")
	require.LessOrEqual(t, r.Bytes, budget)
	require.Less(t, float64(held), 1.25*float64(x.bytes), "the estimate must not be far below what is held")
	require.Greater(t, float64(held), 0.5*float64(x.bytes), "nor far above it")
}

// bufferingBarriers is one vnode and n barriers while the executor buffers (v2.7 reports
// progress at each of them), then the start signal and one row to read.
func bufferingBarriers(n int, rel *engine.Release) (*engine.Config, []engine.Step) {
	cfg, steps := chunkScenario(1, 0)
	cfg.Release = rel
	var out []engine.Step
	for _, s := range steps[:2] { // the first barrier and the chunk
		out = append(out, s)
	}
	for i := range n {
		out = append(out, engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: int64(2 + i), Checkpoint: true}})
	}
	return cfg, append(out, engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: int64(2 + n), Checkpoint: true, StartBackfill: []int64{1}}})
}

// The search's cost is linear in the script under every release: each engine copy on the path
// used to keep its own copy of every progress report so far, and v2.7 reports at every barrier
// while buffering (8,000 barriers: 1.96 GB against an estimate of 66 MB).
func TestExploreIsLinearInBarriers(t *testing.T) {
	for _, rel := range engine.Releases {
		cost := func(n int) uint64 {
			cfg, steps := bufferingBarriers(n, rel)
			base, err := engine.New(cfg)
			require.NoError(t, err)
			var r *Exploration
			a := testutil.Allocated(func() { r = Explore(base, steps, 0) })
			require.True(t, r.Exhaustive, rel.Name)
			return a
		}
		small, large := cost(1000), cost(4000)
		t.Logf("%s: 1,000 barriers %d bytes, 4,000 %d (ratio %.1f: linear 4, quadratic 16)", rel.Name, small, large, float64(large)/float64(small))
		require.Less(t, float64(large)/float64(small), 6.0, rel.Name)
	}
}

// The explorer's time is bounded by its work, not only its state count: a move costs a copy,
// the engine's work and the bytes it hashes, and the search stops at the work budget with a
// clear message (an 800 KB scenario took 31 s within the default state bound).
func TestExploreStopsAtItsWorkBudget(t *testing.T) {
	cfg, steps := chunkScenario(2000, 10)
	base, err := engine.New(cfg)
	require.NoError(t, err)
	r := ExploreWithin(base, steps, ExploreBudget{States: 1 << 30, Bytes: 1 << 40, Work: 5_000_000})
	t.Logf("%d states, work %d; %s", r.States, r.Work, r.Stopped)
	require.True(t, r.Capped)
	require.Contains(t, r.Stopped, "stopped at the work budget (5000000 units)")
	require.LessOrEqual(t, r.Work, int64(5_000_000+1_000_000), "a move past the budget is the last")
}
