package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// heldoutDir holds the held-out cases (scenarios/heldout_test.go checks them against their rules).
const heldoutDir = "../../scenarios/testdata/heldout"

// TestHeldoutThroughTheCommandLine: `backfill run --json --release R FILE` prints exactly the
// held-out case's NAME.R.json, the command that file's docs say it holds.
func TestHeldoutThroughTheCommandLine(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(heldoutDir, "*.yaml"))
	require.NotEmpty(t, files)
	for _, f := range files {
		for _, r := range engine.Releases {
			var stdout, stderr bytes.Buffer
			code := run([]string{"run", "--json", "--release", r.Name, f}, &stdout, &stderr)
			require.Equal(t, 0, code, "%s --release %s: %s", f, r.Name, stderr.String())
			want, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + "." + r.Name + ".json")
			require.NoError(t, err)
			assert.Equal(t, string(want), stdout.String(), "backfill run --json --release %s %s", r.Name, f)
		}
	}
}
