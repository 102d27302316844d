// Command precompress writes FILE.br (brotli, quality 11) and FILE.gz (gzip -9) beside each
// compressible file of the built site and prints each file's raw, gzip and brotli sizes:
//
//	go run ./internal/site/cmd/precompress [--dir dist] [--skip explainer-offline.html] [--cache DIR] [--quiet]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/backfill-explainer/explainer/internal/site/precompress"
)

type names []string

func (n *names) String() string     { return fmt.Sprint(*n) }
func (n *names) Set(s string) error { *n = append(*n, s); return nil }

func main() {
	fs := flag.NewFlagSet("precompress", flag.ContinueOnError)
	dir := fs.String("dir", "dist", "the built site")
	quiet := fs.Bool("quiet", false, "print only the totals")
	cache := fs.String("cache", "", "keep the encodings here by their input's hash, to copy them when a file did not change")
	var skip names
	fs.Var(&skip, "skip", "a file (relative to --dir) to leave as it is; repeatable")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	files, err := precompress.Dir(*dir, precompress.Options{Skip: skip, Workers: runtime.GOMAXPROCS(0), Cache: *cache})
	if err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
	var raw, gz, br int
	if !*quiet {
		fmt.Printf("%-44s %10s %10s %10s\n", "file", "raw", "gzip -9", "brotli 11")
	}
	for _, f := range files {
		raw, gz, br = raw+f.Raw, gz+f.Gzip, br+f.Brotli
		if !*quiet {
			fmt.Printf("%-44s %10d %10d %10d\n", f.Name, f.Raw, f.Gzip, f.Brotli)
		}
	}
	fmt.Printf("%-44s %10d %10d %10d\n", fmt.Sprintf("%d compressible files", len(files)), raw, gz, br)
}
