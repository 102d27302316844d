// Command firstview writes every built-in scenario's views at every step beside the wasm, so the
// page shows a built-in before the engine loads (package firstview):
//
//	go run ./internal/site/cmd/firstview [--dir dist]   writes DIR/web/views/
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/backfill-explainer/explainer/internal/firstview"
)

func main() {
	fs := flag.NewFlagSet("firstview", flag.ContinueOnError)
	dir := fs.String("dir", "dist", "the built site")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	files, err := firstview.Write()
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstview:", err)
		os.Exit(1)
	}
	total := 0
	for name, b := range files {
		p := filepath.Join(*dir, "web", "views", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "firstview:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "firstview:", err)
			os.Exit(1)
		}
		total += len(b)
	}
	fmt.Printf("wrote %d files of stored views (%d bytes) in %s\n", len(files), total, filepath.Join(*dir, "web", "views"))
}
