package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/session"
)

// Cost tests: they compare bytes allocated (runtime.MemStats.TotalAlloc, which does not depend
// on the machine's speed or load) for inputs of different sizes. Wall-clock time is measured by
// the benchmarks, never asserted.

// vnodeScenario is a scenario over `vnodes` vnodes (all owned, crc32): two rows, a backfill, and
// then `pairs` times an upstream chunk and a barrier while backfilling, then `recovers` times a
// recovery and two barriers.
func vnodeScenario(vnodes, pairs, recovers int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title: scale\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: %d}\nfragment: 7\nsteps:\n", vnodes)
	b.WriteString("  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 2 200\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n")
	epoch := 4
	for i := 0; i < pairs; i++ {
		fmt.Fprintf(&b, "  - chunk: [\"+ %d %d\"]\n  - barrier: %d\n", 3+i, 1000+i, epoch)
		epoch++
	}
	for i := 0; i < recovers; i++ {
		fmt.Fprintf(&b, "  - recover\n  - barrier: %d\n  - barrier: %d\n", epoch, epoch+1)
		epoch += 2
	}
	return b.String()
}

// runAll loads a scenario and steps through it as the command line and the page do: load (which
// runs it once), then every step with narration, the view at each step, and the trace.
func runAll(t *testing.T, text string, views bool) {
	s, err := session.Load("scale.yaml", []byte(text))
	require.NoError(t, err)
	for s.Step() == nil {
		if views {
			_ = s.View()
		}
	}
	require.Equal(t, s.Steps(), s.Timeline().Pos())
	_ = s.Trace()
}

// Every path is linear in the number of vnodes: loading, the first barrier, the backfill's
// barriers, recoveries and the view. (describeProgress built its text with += over every vnode:
// quadratic, and 16384 vnodes exhausted the page's wasm memory.)
func TestCostIsLinearInVnodes(t *testing.T) {
	small := testutil.Allocated(func() { runAll(t, vnodeScenario(2048, 2, 3), true) })
	large := testutil.Allocated(func() { runAll(t, vnodeScenario(8192, 2, 3), true) })
	ratio := float64(large) / float64(small)
	t.Logf("2048 vnodes: %d bytes; 8192 vnodes: %d bytes; ratio %.2f (linear: about 4, quadratic: 16)", small, large, ratio)
	require.Less(t, ratio, 8.0, "4× the vnodes must cost about 4× as much")
}

// A step costs what it touches, not one entry per vnode: the marginal cost of a chunk and a
// barrier while backfilling (a snapshot refresh, a commit, a checkpoint, the invariant) and of a
// recovery with two barriers is about the same with 32768 vnodes as with 256. Before, each
// barrier copied the state table, both row sets, the progress table and the invariant's
// per-vnode results (about 100 bytes per vnode), a refresh made a lane per vnode, and the
// timeline kept such a copy every 64 steps.
func TestStepCostIsIndependentOfVnodes(t *testing.T) {
	marginal := func(vnodes int) (perPair, perRecovery float64) {
		cost := func(pairs, recovers int) uint64 {
			return testutil.Allocated(func() { runAll(t, vnodeScenario(vnodes, pairs, recovers), false) })
		}
		base := cost(10, 2)
		return float64(cost(110, 2)-base) / 100, float64(cost(10, 52)-base) / 50
	}
	pairSmall, recSmall := marginal(256)
	pairLarge, recLarge := marginal(32768)
	t.Logf("bytes per chunk+barrier: %.0f with 256 vnodes, %.0f with 32768; per recovery and two barriers: %.0f and %.0f", pairSmall, pairLarge, recSmall, recLarge)
	require.Less(t, pairLarge, 2*pairSmall, "128× the vnodes must not make a chunk and a barrier much more costly")
	require.Less(t, recLarge, 2*recSmall, "128× the vnodes must not make a recovery much more costly")
}

// rowsScenario holds `rows` start rows in one vnode, then `pairs` times a one-row chunk and a
// barrier (while buffering: each chunk is written to the state table and committed).
func rowsScenario(rows, pairs int) string {
	var b strings.Builder
	b.WriteString("title: rows\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 1}\nstart: {state_table: [")
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "[0,%d]", 2*i)
	}
	b.WriteString("]}\nsteps:\n  - barrier: 1\n")
	for i := 0; i < pairs; i++ {
		fmt.Fprintf(&b, "  - chunk: [\"+ 0 %d\"]\n  - barrier: %d\n", 2*(i*7919%rows)+1, i+2)
	}
	return b.String()
}

// A commit, a checkpoint and a copy of the engine do not copy a vnode's rows: with 40,000 rows in
// one vnode, a chunk of one row and a barrier cost about what they cost with 1,000 (before, every
// commit copied the vnode's rows, and so did the first change of the upstream's content after
// each checkpoint: 48,000 rows and 11,000 such pairs took 39 s and 3.5 GB).
func TestStepCostIsIndependentOfRows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs 40,000-row scenarios")
	}
	perPair := func(rows int) float64 {
		a := testutil.Allocated(func() { runAll(t, rowsScenario(rows, 20), false) })
		b := testutil.Allocated(func() { runAll(t, rowsScenario(rows, 220), false) })
		return float64(b-a) / 200
	}
	small, large := perPair(1000), perPair(40000)
	t.Logf("bytes per chunk+barrier: %.0f with 1,000 rows, %.0f with 40,000 rows", small, large)
	require.Less(t, large, 3*small, "40× the rows must not make a step 40× as costly")
}

// The engine's view of a 32768-vnode backfill is a value like any other: a copy (what the
// timeline keeps every 64 steps, and the explorer at every state) is cheap.
func TestCloneIsCheap(t *testing.T) {
	s, err := session.Load("scale.yaml", []byte(vnodeScenario(32768, 5, 1)))
	require.NoError(t, err)
	require.NoError(t, s.RunToEnd())
	e := s.Timeline().Engine()
	var c *engine.Engine
	n := testutil.Allocated(func() {
		for i := 0; i < 100; i++ {
			c = e.Clone()
		}
	})
	require.NotNil(t, c)
	t.Logf("a copy of a 32768-vnode engine: %d bytes", n/100)
	require.Less(t, n/100, uint64(32768), "a copy must cost less than a byte per vnode")
}

// BenchmarkLoad32768Vnodes loads and steps a 32768-vnode backfill with 100 chunk+barrier pairs
// and 10 recoveries (what `backfill run` does).
func BenchmarkLoad32768Vnodes(b *testing.B) {
	text := vnodeScenario(32768, 100, 10)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s, err := session.Load("scale.yaml", []byte(text))
		if err != nil {
			b.Fatal(err)
		}
		for s.Step() == nil {
		}
	}
}

// BenchmarkView32768Vnodes renders the view of a 32768-vnode backfill (the page does it at
// every step): linear in the vnodes.
func BenchmarkView32768Vnodes(b *testing.B) {
	s, err := session.Load("scale.yaml", []byte(vnodeScenario(32768, 5, 0)))
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Goto(7); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = s.View()
	}
}
