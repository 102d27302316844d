package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/backfill-explainer/explainer/internal/golden"
	"github.com/backfill-explainer/explainer/internal/quote"
	"github.com/backfill-explainer/explainer/scenarios"
)

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
	if st, err := os.Stat(*dir); !*update && (err != nil || !st.IsDir()) {
		fmt.Fprintf(stderr, "backfill check: -dir %s: no such directory (the golden traces are in %s)\n",
			quote.Clip(*dir), filepath.Join("scenarios", "testdata", "golden"))
		return 2
	}
	names := scenarios.BuiltinNames()
	failed, err := golden.CheckBuiltins(*dir, *update, stdout, stderr)
	if err != nil {
		return 1
	}
	wn, wfailed := checkWorkloads(*dir, *update, nil, stdout, stderr)  // scale.go
	rn, rfailed := golden.CheckReleases(*dir, *update, stdout, stderr) // NAME.RELEASE.json, .txt
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
