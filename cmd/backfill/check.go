package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// goldenTrace renders a built-in scenario's trace as its golden file holds it.
func goldenTrace(name string) ([]byte, error) {
	s, err := session.OpenBuiltin(name)
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

// goldenText renders a built-in scenario's readable trace (`backfill run NAME`): the narration
// the page teaches, locked like the JSON trace.
func goldenText(name string) ([]byte, error) {
	s, err := session.OpenBuiltin(name)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := writeText(s, &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// golden is one golden file of a built-in: its extension and how it is rendered.
type golden struct {
	ext    string
	render func(string) ([]byte, error)
}

var goldens = []golden{{".json", goldenTrace}, {".txt", goldenText}}

// firstDiff names the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n  golden: %s\n  now:    %s", i+1, wl, gl)
		}
	}
	return ""
}

func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "", stderr)
	update := fs.Bool("update", false, "rewrite the golden traces (JSON and text)")
	dir := fs.String("dir", filepath.Join("scenarios", "testdata", "golden"), "directory `D` of the golden traces")
	operands, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(operands) > 0 {
		return usageError(fs)
	}
	failed := 0
	names := scenarios.BuiltinNames()
	for _, n := range names {
		ok := true
		for _, g := range goldens {
			got, err := g.render(n)
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", n, err)
				ok = false
				break
			}
			path := filepath.Join(*dir, n+g.ext)
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
				ok = false
				continue
			}
			if !bytes.Equal(got, want) {
				fmt.Fprintf(stderr, "%s: the trace differs from %s (rerun with -update if the change is on purpose), first at %s\n", n, path, firstDiff(got, want))
				ok = false
			}
		}
		if *update {
			continue
		}
		if !ok {
			failed++
			continue
		}
		fmt.Fprintf(stdout, "ok   %s\n", n)
	}
	wn, wfailed := checkWorkloads(*dir, *update, stdout, stderr) // scale.go
	rn, rfailed := checkReleases(*dir, *update, stdout, stderr)  // check_release.go
	if *update {
		return 0
	}
	failed += wfailed + rfailed
	fmt.Fprintf(stdout, "%d passed, %d failed\n", len(names)+wn+rn-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
