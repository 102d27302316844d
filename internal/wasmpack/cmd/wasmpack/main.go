// Command wasmpack merges a linked WebAssembly module's data segments in place (see package
// wasmpack):
//
//	go run ./internal/wasmpack/cmd/wasmpack [-gap 64] FILE.wasm
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/backfill-explainer/explainer/internal/wasmpack"
)

func main() {
	gap := flag.Int("gap", 64, "merge segments at most this many bytes apart")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmpack [-gap N] FILE.wasm")
		os.Exit(2)
	}
	name := flag.Arg(0)
	in, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmpack:", err)
		os.Exit(1)
	}
	out, st, err := wasmpack.Merge(in, *gap)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmpack: %s: %v\n", name, err)
		os.Exit(1)
	}
	if err := os.WriteFile(name, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wasmpack:", err)
		os.Exit(1)
	}
	fmt.Printf("wasmpack: %s: %d data segments → %d (%d zero bytes written), %d → %d bytes\n",
		name, st.SegmentsBefore, st.SegmentsAfter, st.ZerosAdded, st.SizeBefore, st.SizeAfter)
}
