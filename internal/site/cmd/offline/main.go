// Command offline writes the single-file explainer that works from file://:
//
//	go run ./internal/site/cmd/offline [--dir dist] [--out dist/explainer-offline.html]
//
// See site.BuildOffline for what it inlines.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/backfill-explainer/explainer/internal/site"
)

func main() {
	fs := flag.NewFlagSet("offline", flag.ContinueOnError)
	dir := fs.String("dir", "dist", "the built site (index.html, web/explainer.wasm, web/wasm_exec.js)")
	out := fs.String("out", "", "output file (default DIR/explainer-offline.html)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "offline: unexpected argument %q\n", fs.Arg(0))
		os.Exit(2)
	}
	if *out == "" {
		*out = filepath.Join(*dir, "explainer-offline.html")
	}
	page, err := site.BuildOffline(site.OfflineOptions{Dir: *dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, page, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "offline:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s (%d bytes)\n", *out, len(page))
}
