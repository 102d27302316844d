package glossary

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLegendIsThePages: every legend("key") the page looks up is in Legend, and every key of
// Legend is looked up somewhere.
func TestLegendIsThePages(t *testing.T) {
	files, err := filepath.Glob("../web/*.js") // element.js
	require.NoError(t, err)
	// the page's modules, in their folders (web/boot/, web/stage/, …), not the tests' or the benchmark's
	inFolders, err := filepath.Glob("../web/*/*.js")
	require.NoError(t, err)
	require.NotEmpty(t, inFolders)
	for _, f := range inFolders {
		if dir := filepath.Base(filepath.Dir(f)); dir != "test" && dir != "bench" {
			files = append(files, f)
		}
	}
	var used, prefixes []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range regexp.MustCompile(`legendOf\("([a-z_]+)"`).FindAllStringSubmatch(string(b), -1) {
			prefixes = append(prefixes, m[1]+".")
		}
		for _, m := range regexp.MustCompile(`legend\("([a-z_.]+)"\)`).FindAllStringSubmatch(string(b), -1) {
			used = append(used, m[1])
			assert.Contains(t, Legend, m[1], "%s looks up a legend key the engine does not have", f)
		}
	}
	for k, v := range Legend {
		byPrefix := slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) })
		assert.True(t, byPrefix || slices.Contains(used, k), "legend key %q is never shown", k)
		assert.NotEmpty(t, v)
	}
}
