package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/explore"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/timeline"
	"github.com/backfill-explainer/explainer/view"
	"github.com/backfill-explainer/explainer/wire"
)

// bigConfig is a 256-vnode actor (crc32 placement, all vnodes owned) whose state table holds
// rows in all, chunk_size 256.
func bigConfig(rows int) *engine.Config {
	cfg := &engine.Config{
		Title:      "bench",
		Columns:    []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}},
		Locality:   []int{0},
		StreamKey:  []int{1},
		VnodeCount: 256,
		ChunkSize:  256,
		Fragment:   1,
		Actor:      1,
	}
	for v := 0; v < 256; v++ {
		cfg.Owned = append(cfg.Owned, v)
	}
	cfg.StartState = make([]engine.Row, rows)
	for i := range cfg.StartState {
		cfg.StartState[i] = engine.Row{engine.Int(int64(i / 4)), engine.Int(int64(i))}
	}
	return cfg
}

// backfill runs a whole backfill of the state table: snapshot deliveries 256 items at a time,
// and every 256 deliveries an upstream chunk of 16 new rows and a barrier. It returns the
// number of events (snapshot items, chunks, barriers).
func backfill(b *testing.B, e *engine.Engine, epoch *int64, next *int64) int {
	events := 0
	apply := func(s engine.Step) {
		if err := e.Apply(s); err != nil {
			b.Fatal(err)
		}
	}
	*epoch++
	apply(engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: *epoch, Checkpoint: true}})
	*epoch++
	apply(engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: *epoch, Checkpoint: true, StartBackfill: []int64{1}}})
	events += 2
	for k := 1; e.SnapshotRemaining() > 0; k++ {
		n := min(256, e.SnapshotRemaining())
		apply(engine.Step{Kind: engine.EventSnapshot, Count: n})
		events += n
		if k%256 == 0 && e.SnapshotRemaining() > 0 {
			chunk := make([]engine.RowOp, 16)
			for i := range chunk {
				*next++
				chunk[i] = engine.RowOp{Op: engine.OpInsert, Row: engine.Row{engine.Int(*next / 4), engine.Int(*next)}, Visible: true}
			}
			apply(engine.Step{Kind: engine.EventChunk, Chunk: chunk})
			*epoch++
			apply(engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: *epoch, Checkpoint: true}})
			events += 2
		}
	}
	return events
}

func benchBackfill(b *testing.B, rows int, narrate bool) {
	cfg := bigConfig(rows)
	b.ReportAllocs()
	var events, snapRows int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e, err := engine.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		e.SetNarration(narrate)
		var epoch int64
		next := int64(rows)
		b.StartTimer()
		events += backfill(b, e, &epoch, &next)
		snapRows += rows
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(float64(snapRows)/sec, "snapshot-rows/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
}

// BenchmarkBackfill1M: 256 vnodes, 1,000,000 rows, chunk_size 256, narration on (as the page).
func BenchmarkBackfill1M(b *testing.B) { benchBackfill(b, 1_000_000, true) }

// BenchmarkBackfill1MQuiet: the same without narration (as the explorer and the CLI's --json).
func BenchmarkBackfill1MQuiet(b *testing.B) { benchBackfill(b, 1_000_000, false) }

// BenchmarkSnapshotItem: one snapshot delivery into a builder, steady state.
func BenchmarkSnapshotItem(b *testing.B) {
	cfg := bigConfig(1_000_000)
	e, err := engine.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	e.SetNarration(false)
	_ = e.Apply(engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 1, Checkpoint: true}})
	_ = e.Apply(engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 2, Checkpoint: true, StartBackfill: []int64{1}}})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if e.SnapshotRemaining() <= 1 {
			b.StopTimer()
			e, _ = engine.New(cfg)
			e.SetNarration(false)
			_ = e.Apply(engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 1, Checkpoint: true}})
			_ = e.Apply(engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 2, Checkpoint: true, StartBackfill: []int64{1}}})
			b.StartTimer()
		}
		_ = e.Apply(engine.Step{Kind: engine.EventSnapshot, Count: 1})
	}
}

// BenchmarkTimelineGotoLast: going to the last step of a 10,000-step script from step 0.
func BenchmarkTimelineGotoLast(b *testing.B) {
	cfg := &engine.Config{Title: "t", Columns: []engine.Column{{Name: "a"}, {Name: "id"}}, Locality: []int{0}, StreamKey: []int{1},
		VnodeCount: 4, Owned: []int{0, 1, 2, 3}, Rule: engine.RuleModulo, ChunkSize: 4, Fragment: 1, Actor: 1}
	var script []engine.Step
	epoch := int64(1)
	script = append(script, engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 1, Checkpoint: true}})
	for i := 0; len(script) < 9_999; i++ {
		epoch++
		script = append(script, engine.Step{Kind: engine.EventChunk, Chunk: []engine.RowOp{{Op: engine.OpInsert, Row: engine.Row{engine.Int(int64(i)), engine.Int(int64(i))}, Visible: true}}},
			engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: epoch, Checkpoint: true}})
	}
	base, _ := engine.New(cfg)
	if err := timeline.Validate(base, script); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tl := timeline.New(base, script, func(engine.Step) string { return "" })
		if err := tl.Goto(len(script)); err != nil {
			b.Fatal(err)
		}
		if err := tl.Goto(len(script) / 2); err != nil { // back, through a kept copy
			b.Fatal(err)
		}
	}
}

// BenchmarkExplore: the interleaving explorer over a built-in-sized scenario.
func BenchmarkExploreMixedVisibility(b *testing.B) {
	s, err := session.OpenBuiltin("mixed-visibility")
	if err != nil {
		b.Fatal(err)
	}
	base, _ := engine.New(s.Scenario.Config)
	var x *explore.Exploration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x = explore.Explore(base, s.Scenario.Steps, 0)
	}
	b.ReportMetric(float64(x.Schedules)*float64(b.N)/b.Elapsed().Seconds(), "schedules/s")
	b.ReportMetric(float64(x.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkStepView: one step forward and the view of it, on a 256-vnode actor with 4,096 rows
// mid-backfill (snapshot deliveries, upstream chunks, barriers). "engine" builds the engine's
// part of the view only; "timeline" the whole view the page gets, with `predict` (a look-ahead
// on a copy) and `changed` (a comparison with the state before the step): their ratio is what
// those two parts cost.
func BenchmarkStepView(b *testing.B) {
	cfg := bigConfig(4_096)
	script := []engine.Step{
		{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 1, Checkpoint: true}},
		{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 2, Checkpoint: true, StartBackfill: []int64{1}}},
	}
	next, epoch := int64(4_096), int64(2)
	for len(script) < 300 {
		chunk := make([]engine.RowOp, 16)
		for i := range chunk {
			next++
			chunk[i] = engine.RowOp{Op: engine.OpInsert, Row: engine.Row{engine.Int(next / 4), engine.Int(next)}, Visible: true}
		}
		epoch++
		script = append(script, engine.Step{Kind: engine.EventSnapshot, Count: 32}, engine.Step{Kind: engine.EventChunk, Chunk: chunk},
			engine.Step{Kind: engine.EventSnapshot, Count: 32}, engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: epoch, Checkpoint: true}})
	}
	base, err := engine.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	// "json": the timeline's view and its JSON text, as the wasm bridge answers a step.
	b.Run("json", func(b *testing.B) {
		tl := timeline.New(base, script, func(engine.Step) string { return "" })
		b.ReportAllocs()
		for b.Loop() {
			if tl.Pos() == tl.Len() {
				b.StopTimer()
				tl = timeline.New(base, script, func(engine.Step) string { return "" })
				b.StartTimer()
			}
			if err := tl.Step(); err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(tl.View()); err != nil {
				b.Fatal(err)
			}
		}
	})
	// "append": the same view written as the bridge writes it now (wire.AppendView, no
	// reflection), into a buffer kept from step to step as the bridge keeps it.
	b.Run("append", func(b *testing.B) {
		tl := timeline.New(base, script, func(engine.Step) string { return "" })
		var buf []byte
		b.ReportAllocs()
		for b.Loop() {
			if tl.Pos() == tl.Len() {
				b.StopTimer()
				tl = timeline.New(base, script, func(engine.Step) string { return "" })
				b.StartTimer()
			}
			if err := tl.Step(); err != nil {
				b.Fatal(err)
			}
			v := tl.View()
			buf = wire.AppendView(buf[:0], &v)
		}
	})
	// "write": wire.AppendView alone, of one view mid-run (the JSON writer's part of "append",
	// steadier than "append" on a busy machine).
	b.Run("write", func(b *testing.B) {
		tl := timeline.New(base, script, func(engine.Step) string { return "" })
		for tl.Pos() < tl.Len()/2 {
			if err := tl.Step(); err != nil {
				b.Fatal(err)
			}
		}
		v := tl.View()
		buf := wire.AppendView(nil, &v)
		b.SetBytes(int64(len(buf)))
		b.ReportAllocs()
		for b.Loop() {
			buf = wire.AppendView(buf[:0], &v)
		}
	})
	for _, whole := range []bool{false, true} {
		name := map[bool]string{false: "engine", true: "timeline"}[whole]
		b.Run(name, func(b *testing.B) {
			tl := timeline.New(base, script, func(engine.Step) string { return "" })
			b.ReportAllocs()
			for b.Loop() {
				if tl.Pos() == tl.Len() {
					b.StopTimer()
					tl = timeline.New(base, script, func(engine.Step) string { return "" })
					b.StartTimer()
				}
				if err := tl.Step(); err != nil {
					b.Fatal(err)
				}
				if whole {
					_ = tl.View()
				} else {
					_ = view.Of(tl.Engine())
				}
			}
		})
	}
}
