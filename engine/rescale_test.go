package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOneRescaleCheck: every phase a rescale can reach has its words in rescaleByPhase, and
// the check itself (a new bitmap that fails in this phase) is written once, in rescale.go.
func TestOneRescaleCheck(t *testing.T) {
	for p := range PhaseDropped + 1 {
		var w rescaleWords
		if int(p) < len(rescaleByPhase) {
			w = rescaleByPhase[p]
		}
		ok := w.check != nil
		if !allPhases.Has(p) {
			assert.False(t, ok, "%s: no rescale reaches it", p)
			continue
		}
		require.True(t, ok, "%s has no rescale words", p)
		assert.True(t, w.check != nil && w.fail != nil && w.ignored != nil && w.fails != "" && w.ignores != "", "%s", p)
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		n := strings.Count(string(b), "Rescale && ")
		if f == "rescale.go" {
			assert.Equal(t, 1, n, f)
		} else {
			assert.Zero(t, n, "%s checks a rescale itself: ask checkRescale or rescaleFails", f)
		}
	}
}
