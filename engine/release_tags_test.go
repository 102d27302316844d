package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/backfill-explainer/explainer/engine"
)

// TestPatchTagsAsTheReleaseTableSays: the buffer order's cited range of fragment.rs is where
// v2.8's table says at every v2.8 tag (one line lower at v2.8.0 to v2.8.2), and the same at
// every v3.0 tag.
func TestPatchTagsAsTheReleaseTableSays(t *testing.T) {
	at := func(ref string) int {
		for i, l := range releaseSource(t, ref, engine.FileMetaFragment) {
			if strings.Contains(l, "2. Add dependencies: all backfill fragments should run before LocalityProvider fragments") {
				return i + 1
			}
		}
		return 0
	}
	l28, _ := engine.ReleaseV28.At(engine.FileMetaFragment, engine.LinesMetaOrder)
	for _, tag := range []string{"v2.8.0", "v2.8.1", "v2.8.2"} {
		assert.Equal(t, l28[0]-1, at(tag), tag)
	}
	for _, tag := range []string{"v2.8.3", "v2.8.4", "v2.8.5"} {
		assert.Equal(t, l28[0], at(tag), tag)
	}
	assert.Contains(t, engine.ReleaseV28.Lines, "at v2.8.0 to v2.8.2 its lines are one lower")
	l30, _ := engine.ReleaseV30.At(engine.FileMetaFragment, engine.LinesMetaOrder)
	for _, tag := range []string{"v3.0.0", "v3.0.1", "v3.0.2", "v3.0.3"} {
		assert.Equal(t, l30[0], at(tag), tag)
	}
}
