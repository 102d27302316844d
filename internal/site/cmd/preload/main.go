// Command preload prepares the built page's modules for loading: it bundles the page's module
// scripts in place (see site.BundlePage: one file for the page's static module graph, a chunk
// per module the page imports with import(), shared chunks so every module runs once), then adds
// to index.html a <link rel="modulepreload"> for every module its module scripts import
// statically (the shared chunks; see site.AddModulePreloads), so that a browser fetches them at
// once instead of one level at a time:
//
//	go run ./internal/site/cmd/preload [--dir dist] [--bundle=false]
//
// With --bundle=false the modules stay as they are (one request each) and are all preloaded.
// Build the offline file (internal/site/cmd/offline) before: it bundles the modules' sources.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/backfill-explainer/explainer/internal/site"
)

func main() {
	fs := flag.NewFlagSet("preload", flag.ContinueOnError)
	dir := fs.String("dir", "dist", "the built site; its index.html is rewritten in place")
	bundle := fs.Bool("bundle", true, "bundle the page's module scripts in place first")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "preload: unexpected argument %q\n", fs.Arg(0))
		os.Exit(2)
	}
	if *bundle {
		rep, err := site.BundlePage(*dir, "index.html")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("bundle: %v bundled, %d chunks, %d modules removed, %d kept for other scripts %v\n",
			rep.Entries, len(rep.Chunks), len(rep.Removed), len(rep.Kept), rep.Kept)
	}
	index := filepath.Join(*dir, "index.html")
	page, err := os.ReadFile(index)
	if err != nil {
		fmt.Fprintln(os.Stderr, "preload:", err)
		os.Exit(1)
	}
	out, err := site.AddModulePreloads(*dir, page, "index.html")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(index, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "preload:", err)
		os.Exit(1)
	}
	fmt.Printf("preload: %s lists %d more bytes of modulepreload links\n", index, len(out)-len(page))
}
