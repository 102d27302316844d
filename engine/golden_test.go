package engine_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/internal/golden"
)

// TestBuiltinsMatchTheirGoldenTraces: every built-in's JSON trace and readable trace, under the
// default release and under every older release whose trace differs, are what
// scenarios/testdata/golden holds (`backfill check` compares the same files; `backfill check
// -update` rewrites them). A rule of the executor changed shows here, naming the built-in, the
// file and the first line that differs.
func TestBuiltinsMatchTheirGoldenTraces(t *testing.T) {
	dir := filepath.Join("..", "scenarios", "testdata", "golden")
	var stdout, stderr bytes.Buffer
	failed, err := golden.CheckBuiltins(dir, false, &stdout, &stderr)
	require.NoError(t, err)
	n, releaseFailed := golden.CheckReleases(dir, false, &stdout, &stderr)
	assert.Zero(t, failed+releaseFailed, "%s", stderr.String())
	assert.Positive(t, n, "some built-ins differ under an older release")
}
