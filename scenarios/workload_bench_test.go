package scenarios

import (
	"testing"

	"github.com/backfill-explainer/explainer/wire"
)

// BenchmarkScaleMillionRows: Scale on the built-in million-rows, as `backfill run --json
// million-rows` and the page run it (parsing, the run with the collector relaxed, the summary
// as JSON). Under WebAssembly: GOOS=js GOARCH=wasm go test -exec=…/go_js_wasm_exec -bench ….
func BenchmarkScaleMillionRows(b *testing.B) {
	text, err := WorkloadText("million-rows")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := Scale("million-rows.yaml", text, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := wire.ScaleSummaryJSON(s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1e6*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
