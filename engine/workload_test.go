package engine

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func wlConfig(vnodes int, cols []Column, locality, streamKey []int) *Config {
	cfg := &Config{Title: "w", Columns: cols, Locality: locality, StreamKey: streamKey, VnodeCount: vnodes, ChunkSize: 16, Fragment: 7, Actor: 1}
	for v := 0; v < vnodes; v++ {
		cfg.Owned = append(cfg.Owned, v)
	}
	return cfg
}

// workloadCases are tables, placements and mixes that exercise the generator: varchar keys,
// two locality columns, a locality column inside the stream key, actors owning some vnodes
// under each rule, delete-heavy and update-only mixes.
func workloadCases() map[string]struct {
	cfg *Config
	w   Workload
} {
	abv := []Column{{"a", TypeBigint}, {"id", TypeBigint}, {"v", TypeVarchar}}
	out := map[string]struct {
		cfg *Config
		w   Workload
	}{}
	add := func(name string, cfg *Config, edit func(*Workload)) {
		w := DefaultWorkload(3000)
		w.SnapshotPerEpoch, w.UpstreamPerEpoch = 500, 40
		if edit != nil {
			edit(&w)
		}
		out[name] = struct {
			cfg *Config
			w   Workload
		}{cfg, w}
	}
	add("crc32, varchar value", wlConfig(16, abv, []int{0}, []int{1}), nil)
	add("varchar keys", wlConfig(8, []Column{{"k", TypeVarchar}, {"id", TypeInt}, {"n", TypeInt}}, []int{0}, []int{1}), nil)
	add("two locality columns", wlConfig(32, []Column{{"a", TypeInt}, {"b", TypeVarchar}, {"id", TypeBigint}}, []int{0, 1}, []int{2}), nil)
	add("locality inside the stream key", wlConfig(8, []Column{{"a", TypeBigint}, {"id", TypeBigint}}, []int{0}, []int{0, 1}), nil)
	owned := wlConfig(16, abv, []int{0}, []int{1})
	owned.Owned = []int{1, 4, 5, 11}
	add("owning 4 of 16 (crc32)", owned, nil)
	mod := wlConfig(8, abv, []int{0}, []int{1})
	mod.Rule, mod.Owned = RuleModulo, []int{0, 3, 7}
	add("owning 3 of 8 (modulo)", mod, nil)
	rng := wlConfig(3, abv, []int{0}, []int{1})
	rng.Rule, rng.Bounds, rng.Owned = RuleRanges, []int64{1000, 2000}, []int{0, 2}
	add("owning 2 of 3 (ranges)", rng, nil)
	add("delete-heavy", wlConfig(16, abv, []int{0}, []int{1}), func(w *Workload) { w.Mix = Mix{Insert: 1, Delete: 5}; w.After = 20 })
	add("updates only", wlConfig(16, abv, []int{0}, []int{1}), func(w *Workload) { w.Mix = Mix{Update: 1} })
	add("deletes only, no rows", wlConfig(4, abv, []int{0}, []int{1}), func(w *Workload) { w.Rows = 0; w.Mix = Mix{Delete: 1} })
	add("no upstream changes", wlConfig(16, abv, []int{0}, []int{1}), func(w *Workload) { w.UpstreamPerEpoch = 0 })
	add("one barrier of buffering, no epoch after", wlConfig(16, abv, []int{0}, []int{1}), func(w *Workload) { w.StartAfter, w.After = 1, 0 })
	add("a snapshot of one item per epoch", wlConfig(4, abv, []int{0}, []int{1}), func(w *Workload) {
		w.Rows, w.SnapshotPerEpoch, w.UpstreamPerEpoch = 30, 1, 0
	})
	return out
}

// TestGeneratedChunksAreConsistent: with the engine's own checks on every generated chunk
// (an insert of a pk the upstream holds, a delete of a row it does not hold, or a U-/U+ pair
// that is not one fails the run), every case runs to the end, the invariant holds, and the
// generator's idea of the upstream's content is the engine's, row for row.
func TestGeneratedChunksAreConsistent(t *testing.T) {
	for name, c := range workloadCases() {
		t.Run(name, func(t *testing.T) {
			r, err := newWorkloadRun(c.cfg, c.w, nil, true)
			require.NoError(t, err)
			require.NoError(t, r.run())
			s := r.sum
			assert.Equal(t, "forwarding", s.Phase)
			assert.Equal(t, "holds", s.Invariant, "%+v", s.Violation)
			assert.Equal(t, len(r.g.live), s.Totals.UpstreamRows)
			assert.Equal(t, s.Totals.UpstreamRows, s.DownstreamRows)
			// the generator's rows are exactly the upstream's content
			want := map[string]bool{}
			tmp := make(Row, len(c.cfg.Columns))
			for _, gr := range r.g.live {
				r.g.fill(gr, tmp)
				want[tmp.key()] = true
			}
			have := 0
			r.e.upstream.each(func(_ int, en rsEntry) bool {
				assert.True(t, want[en.row.key()], "the engine holds %s, the generator does not", en.row)
				have++
				return true
			})
			assert.Equal(t, len(want), have)
			assert.Empty(t, r.e.Outputs(), "scale mode keeps no outputs")
		})
	}
}

// TestGeneratedRowsAreOnOwnedVnodes: every generated row falls on a vnode the actor owns,
// its key columns grow with its number (a vnode's new rows sort after its old ones), and
// every update keeps its row's pk.
func TestGeneratedRowsAreOnOwnedVnodes(t *testing.T) {
	for name, c := range workloadCases() {
		t.Run(name, func(t *testing.T) {
			w := c.w
			g := newGenerator(c.cfg, &w)
			owned := map[int]bool{}
			for _, v := range c.cfg.Owned {
				owned[v] = true
			}
			pk := c.cfg.PK()
			last := map[int]Row{}
			for i := 0; i < 50; i++ {
				rows := append([]RowOp(nil), g.inserts(20)...) // (the generator reuses its chunk's slice)
				rows = append(rows, g.changes(20)...)
				for j, ro := range rows {
					v, err := c.cfg.Vnode(ro.Row)
					require.NoError(t, err)
					require.True(t, owned[v], "%s on vnode %d", ro, v)
					if ro.Op == OpInsert {
						if prev, ok := last[v]; ok {
							assert.Negative(t, CompareRows(prev.Project(pk), ro.Row.Project(pk)), "inserts grow within a vnode")
						}
						last[v] = ro.Row
					}
					if ro.Op == OpUpdateDelete {
						require.Equal(t, OpUpdateInsert, rows[j+1].Op)
						assert.Equal(t, ro.Row.Project(pk), rows[j+1].Row.Project(pk))
					}
				}
			}
		})
	}
}

// TestGeneratorRollback: after a rollback the generator holds the content of its last
// checkpoint and makes the very same changes again.
func TestGeneratorRollback(t *testing.T) {
	c := workloadCases()["crc32, varchar value"]
	w := c.w
	g := newGenerator(c.cfg, &w)
	g.inserts(500)
	g.changes(50)
	g.checkpoint()
	live := append([]genRow(nil), g.live...)
	changes := func() string { // (the generator reuses its chunk's slice: print each at once)
		return fmt.Sprint(g.changes(200)) + fmt.Sprint(g.inserts(30)) + fmt.Sprint(g.changes(200))
	}
	first := changes()
	g.rollback()
	assert.Equal(t, live, g.live)
	again := changes()
	assert.Equal(t, first, again)
}

// TestSplitMixIsFixed pins the generator's sequence: a seed gives the same run on every
// machine and Go version (the summaries' goldens depend on it).
func TestSplitMixIsFixed(t *testing.T) {
	r := splitmix{s: 1234567}
	assert.Equal(t, uint64(6457827717110365317), r.next())
	assert.Equal(t, uint64(3203168211198807973), r.next())
	r = splitmix{s: 0}
	counts := make([]int, 6)
	for i := 0; i < 60000; i++ {
		counts[r.intn(6)]++
	}
	for _, c := range counts {
		assert.InDelta(t, 10000, c, 400, "intn is uniform: %v", counts)
	}
}

// TestWorkloadFaults: a fault of each kind, at each point of the run (the first barrier,
// buffering, the start barrier, the first backfill epoch before any progress is persisted,
// mid-backfill, the barrier that would complete the backfill, forwarding), is followed by a
// recovery; the run finishes with the invariant holding and the same downstream as without
// the fault (the upstream replays the lost changes).
func TestWorkloadFaults(t *testing.T) {
	cfg := wlConfig(16, []Column{{"a", TypeBigint}, {"id", TypeBigint}, {"v", TypeVarchar}}, []int{0}, []int{1})
	base := DefaultWorkload(4000)
	base.StartAfter, base.SnapshotPerEpoch, base.UpstreamPerEpoch, base.After = 3, 1000, 20, 3
	plain, err := RunWorkload(cfg, base, nil)
	require.NoError(t, err)
	require.Equal(t, "holds", plain.Invariant)
	// epochs: 1 first barrier, 2-4 buffering (4 starts), 5-9 backfill (9 completes), 10-12 after
	require.Equal(t, []string{"buffering", "buffering", "buffering", "backfilling", "backfilling", "backfilling",
		"backfilling", "backfilling", "forwarding", "forwarding", "forwarding", "forwarding"}, plain.Series.Phase)
	type want struct{ during, outcome, err string }
	points := map[int64]want{
		1:  {"starting", "failed", ErrStreamClosed},
		3:  {"buffering", "failed", ErrUpstreamEnded},
		4:  {"buffering", "failed", ErrUpstreamEnded},
		5:  {"backfilling", "failed", ErrUpstreamEnded},
		7:  {"backfilling", "failed", ErrUpstreamEnded},
		9:  {"completing", "ended", ""},
		11: {"forwarding", "ended", ""},
	}
	for epoch, wt := range points {
		for _, kind := range []FaultKind{FaultEnd, FaultError, FaultRecover} {
			t.Run(fmt.Sprintf("%s at e%d", kind, epoch), func(t *testing.T) {
				w := base
				w.Fault = &Fault{Kind: kind, Epoch: epoch}
				r, err := newWorkloadRun(cfg, w, nil, true)
				require.NoError(t, err)
				require.NoError(t, r.run())
				s := r.sum
				assert.Equal(t, "forwarding", s.Phase)
				assert.Nil(t, s.Error)
				assert.Equal(t, "holds", s.Invariant, "%+v", s.Violation)
				assert.Equal(t, plain.DownstreamRows, s.DownstreamRows)
				assert.Equal(t, plain.Totals.UpstreamRows, s.Totals.UpstreamRows)
				require.Len(t, s.Recoveries, 1)
				rec := s.Recoveries[0]
				assert.Equal(t, epoch, rec.Epoch)
				assert.Equal(t, wt.during, rec.During)
				assert.Equal(t, epoch-1, rec.RolledBackTo, "every barrier is a checkpoint")
				assert.Equal(t, epoch, s.Series.Epoch[rec.Barrier], "the first barrier after the recovery takes the fault's epoch")
				switch kind {
				case FaultRecover:
					assert.Nil(t, rec.Error)
					assert.Equal(t, wt.during, rec.Outcome)
				case FaultError:
					if wt.outcome == "ended" && wt.during == "forwarding" {
						// while forwarding an error fails the executor; only completion swallows it
						assert.Equal(t, "failed", rec.Outcome)
						require.NotNil(t, rec.Error)
						assert.Equal(t, FaultErrorMessage, rec.Error.Message)
						return
					}
					assert.Equal(t, wt.outcome, rec.Outcome)
					if wt.err != "" {
						require.NotNil(t, rec.Error)
						assert.Equal(t, FaultErrorMessage, rec.Error.Message)
					}
				default:
					assert.Equal(t, wt.outcome, rec.Outcome)
					if wt.err == "" {
						assert.Nil(t, rec.Error)
					} else {
						require.NotNil(t, rec.Error)
						assert.Equal(t, wt.err, rec.Error.Message)
					}
				}
			})
		}
	}
}

// TestWorkloadBugModes: at scale the invariant check catches every bug mode (a workload may
// carry `bug:`): updates and deletes of rows the snapshot has read land between positions and
// builders, and inserts land past pos.
func TestWorkloadBugModes(t *testing.T) {
	cfg := wlConfig(16, []Column{{"a", TypeBigint}, {"id", TypeBigint}, {"v", TypeVarchar}}, []int{0}, []int{1})
	w := DefaultWorkload(4000)
	w.SnapshotPerEpoch, w.UpstreamPerEpoch = 500, 40
	for _, tt := range []struct {
		bug      Bug
		violated bool
	}{{BugNone, false}, {BugNoStateWrite, true}, {BugEmitBeyondPos, true}, {BugMarkBeforeDrain, true}, {BugMarkOnArrival, true}} {
		t.Run(fmt.Sprint(tt.bug), func(t *testing.T) {
			c := *cfg
			c.Bug = tt.bug
			s, err := RunWorkload(&c, w, nil)
			require.NoError(t, err)
			assert.Equal(t, bugName(tt.bug), s.Bug)
			if !tt.violated {
				assert.Equal(t, "holds", s.Invariant)
				return
			}
			assert.Equal(t, "violated", s.Invariant)
			require.NotNil(t, s.Violation)
			assert.Contains(t, s.Violation.Text, "Invariant violated at e")
			assert.EqualValues(t, s.Series.Epoch[s.Violation.Barrier], s.Violation.Epoch)
		})
	}
}

func TestWorkloadCheck(t *testing.T) {
	ok := DefaultWorkload(100)
	require.NoError(t, ok.Check())
	for _, tt := range []struct {
		edit  func(*Workload)
		field string
	}{
		{func(w *Workload) { w.Rows = -1 }, "rows"},
		{func(w *Workload) { w.Rows = MaxWorkloadRows + 1 }, "rows"},
		{func(w *Workload) { w.Seed = -1 }, "seed"},
		{func(w *Workload) { w.StartAfter = 0 }, "start_after"},
		{func(w *Workload) { w.SnapshotPerEpoch = 0 }, "snapshot_per_epoch"},
		{func(w *Workload) { w.UpstreamPerEpoch = -1 }, "upstream_per_epoch"},
		{func(w *Workload) { w.Mix.Delete = -1 }, "mix.delete"},
		{func(w *Workload) { w.Mix = Mix{} }, "mix"},
		{func(w *Workload) { w.After = MaxAfter + 1 }, "after"},
		{func(w *Workload) { w.SnapshotPerEpoch = 16 }, "snapshot_per_epoch"},
		{func(w *Workload) { w.Fault = &Fault{Kind: 7, Epoch: 1} }, "fault.kind"},
		{func(w *Workload) { w.Fault = &Fault{Epoch: 0} }, "fault.epoch"},
	} {
		w := ok
		tt.edit(&w)
		err := w.Check()
		var we *WorkloadError
		require.ErrorAs(t, err, &we)
		assert.Equal(t, tt.field, we.Field, "%v", err)
	}
	// a workload with start state is refused
	cfg := wlConfig(4, []Column{{"a", TypeBigint}, {"id", TypeBigint}}, []int{0}, []int{1})
	cfg.StartState = []Row{{Int(1), Int(1)}}
	_, err := RunWorkload(cfg, ok, nil)
	assert.ErrorContains(t, err, "starts from empty tables")
}

// TestProgressSampler: the sampler keeps every barrier while it can, then every 2^k-th, and
// always the last, never more than its bound.
func TestProgressSampler(t *testing.T) {
	e, err := New(wlConfig(4, []Column{{"a", TypeBigint}, {"id", TypeBigint}}, []int{0}, []int{1}))
	require.NoError(t, err)
	for _, n := range []int{1, 2, 5, 6, 7, 13, 64, 1000} {
		s := &progressSampler{cols: 6, stride: 1}
		for k := 0; k < n; k++ {
			s.observe(e, k)
		}
		var sum ScaleSummary
		s.finish(e, n-1, &sum)
		b := sum.ProgressBarriers
		assert.LessOrEqual(t, len(b), 6, "n=%d: %v", n, b)
		assert.Equal(t, 0, b[0])
		assert.Equal(t, n-1, b[len(b)-1], "n=%d: %v", n, b)
		if n <= 6 {
			assert.Len(t, b, n, "all kept")
		}
		for i := 1; i < len(b); i++ {
			assert.Less(t, b[i-1], b[i])
		}
		assert.Len(t, sum.Progress, 4)
		assert.Len(t, sum.Progress[0], len(b))
	}
}

// TestScaleModeCountsOutputs: the engine in scale mode counts what it emits by source and
// visibility and keeps no output, while the same steps without the counter keep them all.
func TestScaleModeCountsOutputs(t *testing.T) {
	cfg := wlConfig(2, []Column{{"a", TypeBigint}, {"id", TypeBigint}}, []int{0}, []int{1})
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
	var c outputCounter
	counted.counter = &c
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
	assert.Equal(t, [3]int{builder, visible, hidden}, [3]int{c.snapshotRows, c.upVisible, c.upHidden})
	assert.Equal(t, [3]int{1, 0, 2}, [3]int{builder, visible, hidden}, "(2,3) is past pos, (12,4) on a vnode not started")
	assert.Empty(t, counted.Outputs())
	assert.Equal(t, kept.Trace().Downstream, counted.Trace().Downstream)
	assert.Equal(t, kept.Invariant(), counted.Invariant())
}

// TestIncrementalInvariantMatchesFullCheck: at every barrier of workloads under every bug
// mode, the invariant the engine keeps (re-checking only the changed part of each changed
// vnode) names exactly the rows a check of every vnode from scratch names.
func TestIncrementalInvariantMatchesFullCheck(t *testing.T) {
	cfg := wlConfig(8, []Column{{"a", TypeBigint}, {"id", TypeBigint}, {"v", TypeVarchar}}, []int{0}, []int{1})
	cfg.ChunkSize = 8
	for _, bug := range []Bug{BugNone, BugNoStateWrite, BugEmitBeyondPos, BugMarkBeforeDrain, BugMarkOnArrival} {
		for _, fault := range []*Fault{nil, {Kind: FaultEnd, Epoch: 6}, {Kind: FaultRecover, Epoch: 9}} {
			t.Run(fmt.Sprint(bug, fault), func(t *testing.T) {
				c := *cfg
				c.Bug = bug
				w := DefaultWorkload(600)
				w.SnapshotPerEpoch, w.UpstreamPerEpoch, w.After, w.Fault = 60, 12, 3, fault
				r, err := newWorkloadRun(&c, w, nil, true)
				require.NoError(t, err)
				checked := 0
				r.afterBarrier = func(k int) {
					inv := r.e.Invariant()
					if inv.Status == "unchecked" {
						return // the first barrier after a recovery is not checked (the rollback restored a checked state)
					}
					var missing, extra []Row
					for vi := range r.e.owned {
						full := r.e.compareVnode(vi, r.e.passedCount(vi))
						missing = append(missing, full.missing...)
						extra = append(extra, full.extra...)
					}
					sortRows(missing)
					sortRows(extra)
					require.Equal(t, fmt.Sprint(missing), fmt.Sprint(inv.Missing), "barrier %d: missing", k)
					require.Equal(t, fmt.Sprint(extra), fmt.Sprint(inv.Extra), "barrier %d: extra", k)
					checked++
				}
				require.NoError(t, r.run())
				assert.Greater(t, checked, 10)
				if bug != BugNone {
					assert.Equal(t, "violated", r.sum.Invariant)
				}
			})
		}
	}
}

// TestInvariantSeesRowsThatPosMovesPast: the check re-reads a vnode from its old pos when
// the pos moves, so a row that became expected without changing (here a buffered insert that
// mark-before-drain hides, between the old pos and the next snapshot row) is found missing.
func TestInvariantSeesRowsThatPosMovesPast(t *testing.T) {
	cfg := wlConfig(1, []Column{{"a", TypeBigint}, {"id", TypeBigint}}, []int{0}, []int{1})
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

// The generator's integer-only arenas are words the collector does not scan, seen as Values
// (newArena): a Value must fill whole 64-bit words, and its only pointer is the string's, which
// a generated integer leaves nil.
func TestIntegerArenaValuesHoldNoPointer(t *testing.T) {
	require.Zero(t, unsafe.Sizeof(Value{})%8)
	require.LessOrEqual(t, unsafe.Alignof(Value{}), uintptr(8))
	cfg, w := &Config{Title: "t", Columns: []Column{{Name: "a"}, {Name: "id"}, {Name: "v", Type: TypeInt}},
		Locality: []int{0}, StreamKey: []int{1}, VnodeCount: 4, ChunkSize: 4, Owned: []int{0, 1, 2, 3}}, DefaultWorkload(100)
	g := newGenerator(cfg, &w)
	require.True(t, g.intsOnly)
	for _, ro := range g.inserts(50) {
		for _, v := range ro.Row {
			require.Equal(t, KindInt, v.Kind)
			require.Nil(t, unsafe.StringData(v.S))
		}
	}
	cfg.Columns[2].Type = TypeVarchar
	require.False(t, newGenerator(cfg, &w).intsOnly, "a varchar column needs memory the collector scans")
}
