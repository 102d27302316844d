package codemap_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/backfill-explainer/explainer/codemap"
	"github.com/backfill-explainer/explainer/engine"
)

// TestCodeMapLinesDoNotMergeFarSites: a code-map line's sites lie close together in every
// release (within 60 lines of each other), so its link is one place in the file, not two sites
// merged into one long span ("open the snapshot stream" once spanned 231-579).
func TestCodeMapLinesDoNotMergeFarSites(t *testing.T) {
	for _, r := range engine.Releases {
		for _, id := range codemap.LineIDs() {
			var spans [][2]int
			for _, s := range codemap.LineSites(id) {
				if l, ok := r.SiteLines(s); ok && s.File != "" {
					spans = append(spans, l)
				}
			}
			for i := range spans {
				for j := range spans {
					gap := spans[j][0] - spans[i][1]
					assert.LessOrEqual(t, gap, 60, "%s: code-map line %s merges %v and %v", r.Name, id, spans[i], spans[j])
				}
			}
		}
	}
}
