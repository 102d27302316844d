package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/codemap"
	"github.com/backfill-explainer/explainer/diagnose"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/releasedoc"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/wire"
)

// withFictionalRelease adds to the registry, for the test, a copy of the default release named
// v9.9, newest of all.
func withFictionalRelease(t *testing.T) *engine.Release {
	t.Helper()
	r := *engine.DefaultRelease
	r.Name, r.Summary, r.ProseOf = "v9.9", "a fictional release, a copy of the default", engine.DefaultRelease
	saved := engine.Releases
	engine.Releases = append(append([]*engine.Release(nil), saved...), &r)
	t.Cleanup(func() { engine.Releases = saved })
	return &r
}

// TestAFictionalReleaseReachesEverySurface: a release added to the registry, and nothing else,
// is one the command line lists, a scenario runs with the texts it borrows, the page's picker
// offers (the view the bridge returns), diagnose answers for, the code map maps, and the schemas, the docs' table and the
// sources' refs are found not to list yet.
func TestAFictionalReleaseReachesEverySurface(t *testing.T) {
	r := withFictionalRelease(t)

	// the command line: `backfill releases`, --release's help, run --release
	var out, errs bytes.Buffer
	require.Equal(t, 0, releasesCmd(&out))
	assert.Contains(t, out.String(), "v9.9: ")
	assert.Contains(t, releaseHelp(), "v9.9")
	s, err := session.OpenBuiltin("fatal-upstream-end")
	require.NoError(t, err)
	require.Equal(t, 0, setRelease(s, "v9.9", &errs), errs.String())
	require.NoError(t, s.RunToEnd())
	for i := 1; i <= s.Steps(); i++ { // the built-in's texts, borrowed from the default's
		require.NoError(t, s.Goto(i))
		assert.NotContains(t, s.View().Note, "hidden under", "step %d", i)
	}

	// the page's picker: the view as the bridge writes it lists it, and this run plays it
	var view struct {
		Release  string `json:"release"`
		Releases []struct {
			Name string `json:"name"`
		} `json:"releases"`
		CodeMap []struct {
			ID string `json:"id"`
		} `json:"code_map"`
	}
	require.NoError(t, json.Unmarshal(wire.AppendView(nil, s.View()), &view))
	assert.Equal(t, "v9.9", view.Release)
	require.NotEmpty(t, view.Releases)
	assert.Equal(t, "v9.9", view.Releases[len(view.Releases)-1].Name)

	// the code map: the same lines as the release it copies
	require.NotEmpty(t, codemap.Of(r))
	assert.Len(t, codemap.Of(r), len(codemap.Of(engine.DefaultRelease)))
	assert.Len(t, view.CodeMap, len(codemap.Of(r)))

	// diagnose: a release it answers for, with the facts of the release it copies
	assert.Contains(t, diagnose.ReleaseNames(), "v9.9")
	a, err := diagnose.Diagnose("ERROR: "+engine.ErrUpstreamEnded, "v9.9")
	require.NoError(t, err)
	require.True(t, a.Recognised)
	m := a.Matches[0]
	assert.True(t, m.Produces)
	assert.Equal(t, "v9.9", m.Release)
	assert.Contains(t, m.ProducedBy, "v9.9")
	assert.NotEmpty(t, m.Proven)
	a, err = diagnose.Diagnose("ERROR: "+engine.ErrUpstreamEnded, "")
	require.NoError(t, err)
	assert.Equal(t, "v9.9", a.Matches[0].Release, "no release given: the newest that produces it")
	assert.Contains(t, a.Matches[0].Statement, "No release given: this answer is for v9.9")

	// the schemas' enums, the docs' table, the sources' refs: their check finds v9.9 missing
	for _, f := range releasedoc.Files {
		b, err := os.ReadFile(filepath.Join("..", "..", f.Path))
		require.NoError(t, err)
		want, err := f.Fix(b)
		require.NoError(t, err, f.Path)
		if f.Path == "internal/rwsource/refs.txt" {
			assert.Equal(t, string(b), string(want), "the copy reads the same ref")
			continue
		}
		assert.NotEqual(t, string(b), string(want), "%s: the check would fail", f.Path)
		assert.True(t, strings.Contains(string(want), "v9.9"), "%s: written with v9.9", f.Path)
	}
}
