package codemap_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/codemap"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/view"
)

// TestEverySiteIsOnOneCodeLine: every narration site is on exactly one line of the code map, and
// a line's cited sites are in one file.
func TestEverySiteIsOnOneCodeLine(t *testing.T) {
	on := map[string][]string{}
	ids := map[string]bool{}
	for _, id := range codemap.LineIDs() {
		require.False(t, ids[id], "line %s twice", id)
		ids[id] = true
		sites := codemap.LineSites(id)
		require.NotEmpty(t, sites, "line %s covers no site", id)
		file := ""
		for _, s := range sites {
			on[s.ID] = append(on[s.ID], id)
			if s.File == "" {
				continue
			}
			if file == "" {
				file = s.File
			}
			assert.Equal(t, file, s.File, "line %s cites two files", id)
		}
	}
	assert.Empty(t, codemap.Unnamed(), "the code map names sites that do not exist")
	for _, s := range engine.Sites() {
		assert.Len(t, on[s.ID], 1, "site %s should be on exactly one code-map line, is on %v", s.ID, on[s.ID])
		assert.Equal(t, firstOr(on[s.ID]), codemap.LineOf(s.ID), s.ID)
	}
}

func firstOr(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}

// TestCodeMapPerRelease: a release's map has exactly the lines one of whose sites it says, each
// cited line with its lines in that release, spanning every site's lines there, linked at its ref.
func TestCodeMapPerRelease(t *testing.T) {
	for _, r := range engine.Releases {
		byID := map[string]view.CodeLine{}
		for _, l := range codemap.Of(r) {
			byID[l.ID] = l
		}
		for _, id := range codemap.LineIDs() {
			l, has := byID[id]
			says, cites := false, false
			for _, s := range codemap.LineSites(id) {
				sl, ok := r.SiteLines(s)
				if !ok {
					continue
				}
				says = true
				if s.File == "" {
					continue
				}
				cites = true
				require.True(t, has, "%s: line %s", r.Name, id)
				assert.Equal(t, s.File, l.File, "%s %s", r.Name, id)
				assert.True(t, l.Lines[0] <= sl[0] && sl[1] <= l.Lines[1], "%s: line %s %v should span %s %v", r.Name, id, l.Lines, s.ID, sl)
			}
			assert.Equal(t, says, has, "%s: line %s is in the map exactly when the release says one of its sites", r.Name, id)
			if has && cites {
				assert.NotZero(t, l.Lines[0], "%s %s", r.Name, id)
				assert.Equal(t, r.URL(l.File, l.Lines), l.URL, "%s %s", r.Name, id)
			}
			if has && !cites {
				assert.Equal(t, [2]int{}, l.Lines, "%s %s", r.Name, id)
				assert.Empty(t, l.URL, "%s %s", r.Name, id)
			}
		}
	}
	has := func(r *engine.Release, id string) bool {
		for _, l := range codemap.Of(r) {
			if l.ID == id {
				return true
			}
		}
		return false
	}
	assert.True(t, has(engine.ReleaseV31, "back-end"))
	assert.False(t, has(engine.ReleaseV31, "back-end-silent"))
	for _, r := range []*engine.Release{engine.ReleaseV27, engine.ReleaseV28, engine.ReleaseV30} {
		assert.False(t, has(r, "back-end"), r.Name)
		assert.True(t, has(r, "back-end-silent"), r.Name)
		assert.False(t, has(r, "bar-refresh"), r.Name)
		assert.True(t, has(r, "reopen"), r.Name)
	}
}
