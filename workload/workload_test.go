package workload

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

func wlConfig(vnodes int, cols []engine.Column, locality, streamKey []int) *engine.Config {
	cfg := &engine.Config{Title: "w", Columns: cols, Locality: locality, StreamKey: streamKey, VnodeCount: vnodes, ChunkSize: 16, Fragment: 7, Actor: 1}
	for v := 0; v < vnodes; v++ {
		cfg.Owned = append(cfg.Owned, v)
	}
	return cfg
}

// workloadCases are tables, placements and mixes that exercise the generator: varchar keys,
// two locality columns, a locality column inside the stream key, actors owning some vnodes
// under each rule, delete-heavy and update-only mixes.
func workloadCases() map[string]struct {
	cfg *engine.Config
	w   Workload
} {
	abv := []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}, {Name: "v", Type: engine.TypeVarchar}}
	out := map[string]struct {
		cfg *engine.Config
		w   Workload
	}{}
	add := func(name string, cfg *engine.Config, edit func(*Workload)) {
		w := Default(3000)
		w.SnapshotPerEpoch, w.UpstreamPerEpoch = 500, 40
		if edit != nil {
			edit(&w)
		}
		out[name] = struct {
			cfg *engine.Config
			w   Workload
		}{cfg, w}
	}
	add("crc32, varchar value", wlConfig(16, abv, []int{0}, []int{1}), nil)
	add("varchar keys", wlConfig(8, []engine.Column{{Name: "k", Type: engine.TypeVarchar}, {Name: "id", Type: engine.TypeInt}, {Name: "n", Type: engine.TypeInt}}, []int{0}, []int{1}), nil)
	add("two locality columns", wlConfig(32, []engine.Column{{Name: "a", Type: engine.TypeInt}, {Name: "b", Type: engine.TypeVarchar}, {Name: "id", Type: engine.TypeBigint}}, []int{0, 1}, []int{2}), nil)
	add("locality inside the stream key", wlConfig(8, []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}}, []int{0}, []int{0, 1}), nil)
	owned := wlConfig(16, abv, []int{0}, []int{1})
	owned.Owned = []int{1, 4, 5, 11}
	add("owning 4 of 16 (crc32)", owned, nil)
	mod := wlConfig(8, abv, []int{0}, []int{1})
	mod.Rule, mod.Owned = engine.RuleModulo, []int{0, 3, 7}
	add("owning 3 of 8 (modulo)", mod, nil)
	rng := wlConfig(3, abv, []int{0}, []int{1})
	rng.Rule, rng.Bounds, rng.Owned = engine.RuleRanges, []int64{1000, 2000}, []int{0, 2}
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
			r, err := newWorkloadRun(c.cfg, c.w, Options{CheckChunks: true})
			require.NoError(t, err)
			require.NoError(t, r.run())
			s := r.sum
			assert.Equal(t, "forwarding", s.Phase)
			assert.Equal(t, "holds", s.Invariant, "%+v", s.Violation)
			assert.Equal(t, len(r.g.live), s.Totals.UpstreamRows)
			assert.Equal(t, s.Totals.UpstreamRows, s.DownstreamRows)
			// the generator's rows are exactly the upstream's content, which downstream holds
			// once forwarding with the invariant holding
			var want []engine.Row
			for _, gr := range r.g.live {
				row := make(engine.Row, len(c.cfg.Columns))
				r.g.fill(gr, row)
				want = append(want, row)
			}
			slices.SortFunc(want, engine.CompareRows)
			have := r.e.Trace().Downstream
			require.Len(t, have, len(want))
			for i := range want {
				require.True(t, want[i].Equal(have[i]), "row %d: the generator holds %s, the engine %s", i, want[i], have[i])
			}
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
			last := map[int]engine.Row{}
			for i := 0; i < 50; i++ {
				rows := append([]engine.RowOp(nil), g.inserts(20)...) // (the generator reuses its chunk's slice)
				rows = append(rows, g.changes(20)...)
				for j, ro := range rows {
					v, err := c.cfg.Vnode(ro.Row)
					require.NoError(t, err)
					require.True(t, owned[v], "%s on vnode %d", ro, v)
					if ro.Op == engine.OpInsert {
						if prev, ok := last[v]; ok {
							assert.Negative(t, engine.CompareRows(prev.Project(pk), ro.Row.Project(pk)), "inserts grow within a vnode")
						}
						last[v] = ro.Row
					}
					if ro.Op == engine.OpUpdateDelete {
						require.Equal(t, engine.OpUpdateInsert, rows[j+1].Op)
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

// TestWorkloadFaults: a fault of each kind, at each point of the run (the first barrier,
// buffering, the start barrier, the first backfill epoch before any progress is persisted,
// mid-backfill, the barrier that would complete the backfill, forwarding), is followed by a
// recovery; the run finishes with the invariant holding and the same downstream as without
// the fault (the upstream replays the lost changes).
func TestWorkloadFaults(t *testing.T) {
	cfg := wlConfig(16, []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}, {Name: "v", Type: engine.TypeVarchar}}, []int{0}, []int{1})
	base := Default(4000)
	base.StartAfter, base.SnapshotPerEpoch, base.UpstreamPerEpoch, base.After = 3, 1000, 20, 3
	plain, err := Run(cfg, base, nil)
	require.NoError(t, err)
	require.Equal(t, "holds", plain.Invariant)
	// epochs: 1 first barrier, 2-4 buffering (4 starts), 5-9 backfill (9 completes), 10-12 after
	require.Equal(t, []string{"buffering", "buffering", "buffering", "backfilling", "backfilling", "backfilling",
		"backfilling", "backfilling", "forwarding", "forwarding", "forwarding", "forwarding"}, plain.Series.Phase)
	type want struct{ during, outcome, err string }
	points := map[int64]want{
		1:  {"starting", "failed", engine.ErrStreamClosed},
		3:  {"buffering", "failed", engine.ErrUpstreamEnded},
		4:  {"buffering", "failed", engine.ErrUpstreamEnded},
		5:  {"backfilling", "failed", engine.ErrUpstreamEnded},
		7:  {"backfilling", "failed", engine.ErrUpstreamEnded},
		9:  {"completing", "ended", ""},
		11: {"forwarding", "ended", ""},
	}
	for epoch, wt := range points {
		for _, kind := range []FaultKind{FaultEnd, FaultError, FaultRecover} {
			t.Run(fmt.Sprintf("%s at e%d", kind, epoch), func(t *testing.T) {
				w := base
				w.Fault = &Fault{Kind: kind, Epoch: epoch}
				r, err := newWorkloadRun(cfg, w, Options{CheckChunks: true})
				require.NoError(t, err)
				require.NoError(t, r.run())
				s := r.sum
				if epoch == 1 {
					// before the first checkpoint the job is still initial: the recovery drops it
					assert.Equal(t, "dropped", s.Phase)
					require.Len(t, s.Recoveries, 1)
					assert.True(t, s.Recoveries[0].Dropped)
					// why, as the engine says it: not how the job was created
					assert.Equal(t, "no checkpoint yet", s.Recoveries[0].DropReason)
					assert.NotContains(t, s.Recoveries[0].DropText, "BACKGROUND_DDL")
					assert.Zero(t, s.DownstreamRows)
					return
				}
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
	cfg := wlConfig(16, []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}, {Name: "v", Type: engine.TypeVarchar}}, []int{0}, []int{1})
	w := Default(4000)
	w.SnapshotPerEpoch, w.UpstreamPerEpoch = 500, 40
	for _, tt := range []struct {
		bug      engine.Bug
		violated bool
	}{{engine.BugNone, false}, {engine.BugNoStateWrite, true}, {engine.BugEmitBeyondPos, true}, {engine.BugMarkBeforeDrain, true}, {engine.BugMarkOnArrival, true}} {
		t.Run(fmt.Sprint(tt.bug), func(t *testing.T) {
			c := *cfg
			c.Bug = tt.bug
			s, err := Run(&c, w, nil)
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
	ok := Default(100)
	require.NoError(t, ok.Check())
	for _, tt := range []struct {
		edit  func(*Workload)
		field string
	}{
		{func(w *Workload) { w.Rows = -1 }, "rows"},
		{func(w *Workload) { w.Rows = MaxRows + 1 }, "rows"},
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
		var we *Error
		require.ErrorAs(t, err, &we)
		assert.Equal(t, tt.field, we.Field, "%v", err)
	}
	// a workload with start state is refused
	cfg := wlConfig(4, []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}}, []int{0}, []int{1})
	cfg.StartState = []engine.Row{{engine.Int(1), engine.Int(1)}}
	_, err := Run(cfg, ok, nil)
	assert.ErrorContains(t, err, "starts from empty tables")
}

// TestProgressSampler: the sampler keeps every barrier while it can, then every 2^k-th, and
// always the last, never more than its bound.
func TestProgressSampler(t *testing.T) {
	e, err := engine.New(wlConfig(4, []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}}, []int{0}, []int{1}))
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

// The generator's integer-only arenas are words the collector does not scan, seen as Values
// (newArena): a Value must fill whole 64-bit words, and its only pointer is the string's, which
// a generated integer leaves nil.
func TestIntegerArenaValuesHoldNoPointer(t *testing.T) {
	require.Zero(t, unsafe.Sizeof(engine.Value{})%8)
	require.LessOrEqual(t, unsafe.Alignof(engine.Value{}), uintptr(8))
	cfg, w := &engine.Config{Title: "t", Columns: []engine.Column{{Name: "a"}, {Name: "id"}, {Name: "v", Type: engine.TypeInt}},
		Locality: []int{0}, StreamKey: []int{1}, VnodeCount: 4, ChunkSize: 4, Owned: []int{0, 1, 2, 3}}, Default(100)
	g := newGenerator(cfg, &w)
	require.True(t, g.intsOnly)
	for _, ro := range g.inserts(50) {
		for _, v := range ro.Row {
			require.Equal(t, engine.KindInt, v.Kind)
			require.Nil(t, unsafe.StringData(v.S))
		}
	}
	cfg.Columns[2].Type = engine.TypeVarchar
	require.False(t, newGenerator(cfg, &w).intsOnly, "a varchar column needs memory the collector scans")
}
