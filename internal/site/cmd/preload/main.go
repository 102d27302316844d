// Command preload adds to the built index.html a <link rel="modulepreload"> for every module
// its module scripts import statically, so that a browser fetches the page's whole module graph
// at once instead of one level at a time (see site.AddModulePreloads):
//
//	go run ./internal/site/cmd/preload [--dir dist]
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
