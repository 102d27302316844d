// Command preload prepares the built page's modules for loading: it bundles the page's module
// scripts (see site.BundlePage: one file for the page's static module graph in web/bundle/, a
// chunk per module the page imports with import(), shared chunks so that every module runs once)
// and points index.html at the bundle, then adds a <link rel="modulepreload"> for every module the
// page's module scripts import statically (the shared chunks; see site.AddModulePreloads), so
// that a browser fetches them at once instead of one level at a time:
//
//	go run ./internal/site/cmd/preload [--dir dist] [--bundle=false] [--minify=false]
//
// With --bundle=false the page keeps loading its modules one by one, all preloaded.
// Build the offline file (internal/site/cmd/offline) before: it bundles the modules itself.
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
	bundle := fs.Bool("bundle", true, "bundle the page's module scripts into web/bundle/ first")
	minify := fs.Bool("minify", true, "minify the bundles (whitespace and syntax; names are kept)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "preload: unexpected argument %q\n", fs.Arg(0))
		os.Exit(2)
	}
	index := filepath.Join(*dir, "index.html")
	page, err := os.ReadFile(index)
	if err != nil {
		fmt.Fprintln(os.Stderr, "preload:", err)
		os.Exit(1)
	}
	if *bundle {
		var rep site.BundleReport
		// uPlot (vendored, already minified) stays the file build.sh copies: the Scale panel's
		// charts import it from there.
		page, rep, err = site.BundlePage(site.BundleOptions{Dir: *dir, Minify: *minify, External: []string{"web/uPlot.js"}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("bundle: %v, %d chunks, %d bytes\n", rep.Entries, len(rep.Chunks), rep.Bytes)
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
