package engine_test

import (
	"testing"

	"github.com/backfill-explainer/explainer/engine"
)

// scaleConfig is the built-in "A million rows over 256 vnodes" table: (a, id, v), locality a,
// stream key id, 256 vnodes by crc32, chunk_size 256.
func scaleConfig() *engine.Config {
	cfg := &engine.Config{Title: "bench", Columns: []engine.Column{{Name: "a"}, {Name: "id"}, {Name: "v"}},
		Locality: []int{0}, StreamKey: []int{1}, VnodeCount: 256, ChunkSize: 256, Fragment: 7, Actor: 1}
	for v := 0; v < 256; v++ {
		cfg.Owned = append(cfg.Owned, v)
	}
	return cfg
}

func benchWorkload(b *testing.B, rows int) {
	cfg := scaleConfig()
	w := engine.DefaultWorkload(rows)
	w.StartAfter, w.UpstreamPerEpoch, w.After = 4, 64, 4
	b.ReportAllocs()
	for b.Loop() {
		if _, err := engine.RunWorkload(cfg, w, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkWorkload1M: the built-in million-row workload, run to its end (generate, buffer,
// backfill, complete, forward; the invariant checked at every barrier; the summary made).
func BenchmarkWorkload1M(b *testing.B) { benchWorkload(b, 1_000_000) }

// BenchmarkWorkload100K: the same table with a tenth of the rows.
func BenchmarkWorkload100K(b *testing.B) { benchWorkload(b, 100_000) }
