package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// TestReleaseRegistry: the registry's releases have distinct names, the default is one
// of them, and a release that reads its lines as written (AtSource) is read at SourceCommit,
// where the sites and citations are written; the others carry their own line table.
func TestReleaseRegistry(t *testing.T) {
	names := map[string]bool{}
	hasDefault := false
	for _, r := range engine.Releases {
		assert.False(t, names[r.Name], "two releases named %s", r.Name)
		names[r.Name] = true
		hasDefault = hasDefault || r == engine.DefaultRelease
		assert.Regexp(t, `^v\d+\.\d+$`, r.Name)
		assert.NotEmpty(t, r.Tags, r.Name)
		assert.NotEmpty(t, r.Summary, r.Name)
		assert.NotEmpty(t, r.Patches, r.Name)
		assert.NotEmpty(t, r.SuspendLog, r.Name)
		if r.AtSource {
			assert.Equal(t, engine.SourceCommit, r.Ref, "%s reads its lines as written at SourceCommit", r.Name)
		} else {
			_, ok := r.At(engine.FileLocalityProvider, engine.LinesLoad)
			assert.True(t, ok, "%s has no line table", r.Name)
		}
	}
	assert.True(t, hasDefault, "the default release is one of Releases")
}

// proseDirs are the packages whose string literals are prose a reader sees.
var proseDirs = []string{"../engine", "../diagnose", "../glossary", "../session", "../lessons", "../scenarios", "../cmd/backfill", "../wasm"}

// registryFiles are the files that may name a release: the registry and its line tables.
var registryFiles = map[string]bool{"../engine/release.go": true, "../engine/release_lines.go": true}

// TestProseNamesNoRelease: no sentence names a release (a release's own name comes from the
// registry, "from the release where this changed" asks it): a release added or a behaviour that
// moves would leave such a sentence stale. Test files and the registry may name them.
func TestProseNamesNoRelease(t *testing.T) {
	var alts []string
	for _, r := range engine.Releases {
		alts = append(alts, regexp.QuoteMeta(r.Name))
	}
	named := regexp.MustCompile(`\b(` + strings.Join(alts, "|") + `)\b`)
	for _, dir := range proseDirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || registryFiles[filepath.ToSlash(f)] {
				continue
			}
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, src, 0)
			require.NoError(t, err)
			ast.Inspect(file, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				text, err := strconv.Unquote(lit.Value)
				if err == nil && named.MatchString(text) {
					t.Errorf("%s: names release %s: %.80q (ask the registry)", fset.Position(lit.Pos()), named.FindString(text), text)
				}
				return true
			})
		}
	}
}
