package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/backfill-explainer/explainer/scenarios"
)

// goldenTrace renders a built-in scenario's trace as its golden file holds it.
func goldenTrace(name string) ([]byte, error) {
	s, err := scenarios.OpenBuiltin(name)
	if err != nil {
		return nil, err
	}
	if err := s.RunToEnd(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s.Trace()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	update := fs.Bool("update", false, "rewrite the golden traces")
	dir := fs.String("dir", filepath.Join("scenarios", "testdata", "golden"), "directory of the golden traces")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	failed := 0
	names := scenarios.BuiltinNames()
	for _, n := range names {
		got, err := goldenTrace(n)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", n, err)
			failed++
			continue
		}
		path := filepath.Join(*dir, n+".json")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", n, err)
				return 1
			}
			fmt.Fprintf(stdout, "updated %s\n", path)
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "%s: no golden trace (%v); run `backfill check -update` to write it\n", n, err)
			failed++
			continue
		}
		if !bytes.Equal(got, want) {
			fmt.Fprintf(stderr, "%s: the trace differs from %s (rerun with -update if the change is on purpose)\n", n, path)
			failed++
			continue
		}
		fmt.Fprintf(stdout, "ok   %s\n", n)
	}
	wn, wfailed := checkWorkloads(*dir, *update, stdout, stderr) // scale.go
	if *update {
		return 0
	}
	failed += wfailed
	fmt.Fprintf(stdout, "%d passed, %d failed\n", len(names)+wn-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
