package workload_test

import (
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/workload"
)

// millionRows is the built-in workload million-rows (scenarios/workloads/million-rows.yaml):
// table (a, id), locality a, stream key id, 256 vnodes by crc32, chunk_size 256; a million
// rows over 4 buffering barriers, 65,536 snapshot items and 64 changes per epoch, 4 after.
func millionRows(rows int) (*engine.Config, workload.Workload) {
	cfg := &engine.Config{Title: "bench", Columns: []engine.Column{{Name: "a"}, {Name: "id"}},
		Locality: []int{0}, StreamKey: []int{1}, VnodeCount: 256, ChunkSize: 256, Fragment: 7, Actor: 1}
	for v := 0; v < 256; v++ {
		cfg.Owned = append(cfg.Owned, v)
	}
	w := workload.Default(rows)
	w.StartAfter, w.UpstreamPerEpoch, w.After = 4, 64, 4
	return cfg, w
}

func benchWorkload(b *testing.B, rows int) {
	cfg, w := millionRows(rows)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := workload.Run(cfg, w, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkWorkload1M: the built-in million-row workload, run to its end by the engine with
// the default garbage collector (generate, buffer, backfill, complete, forward; the invariant
// checked at every barrier; the summary made). scenarios.BenchmarkScaleMillionRows is the
// same run as the command line and the page make it.
func BenchmarkWorkload1M(b *testing.B) { benchWorkload(b, 1_000_000) }

// BenchmarkWorkload100K: the same with a tenth of the rows.
func BenchmarkWorkload100K(b *testing.B) { benchWorkload(b, 100_000) }
