// Command preload prepares the built page's modules for loading: it bundles the page's module
// scripts (see site.BundlePage: one file for the page's static module graph in web/bundle/, a
// chunk per module the page imports with import(), shared chunks so that every module runs once)
// and points index.html at the bundle, then adds a <link rel="modulepreload"> for every module the
// page's module scripts import statically (the shared chunks; see site.AddModulePreloads), so
// that a browser fetches them at once instead of one level at a time. It bundles each module
// worker the bundles name in place (one file with the modules it imports; web/wasm_exec.js stays
// an import of its own). With --prune FOLDER it then removes every file under FOLDER that nothing
// loads: all but what index.html names, the bundles and chunks, the workers, the files they import
// as they are (web/uPlot.js, web/wasm_exec.js), the stylesheets they name (web/ui/sheet.js) and the
// files --keep names:
//
//	go run ./internal/site/cmd/preload [--dir dist] [--bundle=false] [--minify=false] [--workers=false]
//	    [--prune web --keep web/element.js --keep …]
//
// With --bundle=false the page keeps loading its modules one by one, all preloaded (and --prune
// is refused). Build the offline file (internal/site/cmd/offline) before: it bundles the modules
// itself, from the sources that --prune removes.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/backfill-explainer/explainer/internal/site"
)

func main() {
	fs := flag.NewFlagSet("preload", flag.ContinueOnError)
	dir := fs.String("dir", "dist", "the built site; its index.html is rewritten in place")
	bundle := fs.Bool("bundle", true, "bundle the page's module scripts into web/bundle/ first")
	minify := fs.Bool("minify", true, "minify the bundles (whitespace and syntax; names are kept)")
	workers := fs.Bool("workers", true, "bundle, in place, each module worker the bundles name")
	prune := fs.String("prune", "", "remove every file under this folder of the site that nothing loads (e.g. web)")
	var keep list
	fs.Var(&keep, "keep", "a file to keep when pruning, a slash path under --dir (repeatable)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "preload: unexpected argument %q\n", fs.Arg(0))
		os.Exit(2)
	}
	if *prune != "" && !*bundle {
		fmt.Fprintln(os.Stderr, "preload: --prune needs the bundle (the page would load the modules it removes)")
		os.Exit(2)
	}
	index := filepath.Join(*dir, "index.html")
	page, err := os.ReadFile(index)
	if err != nil {
		fmt.Fprintln(os.Stderr, "preload:", err)
		os.Exit(1)
	}
	var rep site.BundleReport
	// uPlot (vendored, already minified) stays the file build.sh copies: the Scale panel's charts
	// import it from there. wasm_exec.js (Go's, with its licence header) is the page's classic
	// script; a worker imports that same file.
	opt := site.BundleOptions{Dir: *dir, Minify: *minify, External: []string{"web/uPlot.js"},
		Workers: *workers, WorkerExternal: []string{"web/wasm_exec.js"}}
	if *bundle {
		page, rep, err = site.BundlePage(opt)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("bundle: %v, %d chunks, workers %v, %d bytes\n", rep.Entries, len(rep.Chunks), rep.Workers, rep.Bytes)
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
	if *prune == "" {
		return
	}
	// What something loads: what the page names, the bundles and chunks (every chunk may be
	// imported), the workers, the files those import as they are, and what --keep names.
	var files []string
	files = append(files, site.PageFiles(out, "index.html")...)
	for _, b := range rep.Entries {
		files = append(files, b)
	}
	files = append(files, rep.Chunks...)
	files = append(files, rep.Workers...)
	files = append(files, rep.Sheets...)
	files = append(files, opt.External...)
	if len(rep.Workers) > 0 {
		files = append(files, opt.WorkerExternal...)
	}
	files = append(files, keep...)
	var under []string // the kept files under --prune
	for _, f := range files {
		if f == *prune || strings.HasPrefix(f, strings.TrimSuffix(*prune, "/")+"/") {
			under = append(under, f)
		}
	}
	removed, err := site.Prune(*dir, *prune, under)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("prune: removed %d files nothing loads from %s/\n", len(removed), *prune)
}

// list is a repeatable flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }
