package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnEndedStreamIsNotHedged: that an ended input answers "ended" again when polled is proven
// (merge.rs's #[try_stream] generator, futures-async-stream's GenTryStream), so no trace of a
// built-in, under any release, says the explainer assumes it.
func TestAnEndedStreamIsNotHedged(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, hedge := range []string{"assumes an ended", "does not say what an ended stream does", "the explainer assumes so", "behave differently", "treats the stream as ended"} {
			assert.False(t, strings.Contains(string(b), hedge), "%s: %q", f, hedge)
		}
	}
}
