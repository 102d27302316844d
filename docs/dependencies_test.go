package docs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var requireRE = regexp.MustCompile(`(?m)^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+/[^\s]+)\s+(v[^\s]+)(\s*// indirect)?\s*$`)

// shortName is how the README's short dependency paragraph names a module.
func shortName(module string) string {
	if rest, ok := strings.CutPrefix(module, "golang.org/x/"); ok {
		return "x/" + rest
	}
	parts := strings.Split(module, "/")
	last := parts[len(parts)-1]
	if regexp.MustCompile(`^v\d+$`).MatchString(last) && len(parts) > 1 {
		last = parts[len(parts)-2]
	}
	return last
}

// TestDependenciesAreExplained: every module of go.mod and every package of package.json is in
// docs/dependencies.md at the version the build uses, and README's dependency paragraph names
// every direct one.
func TestDependenciesAreExplained(t *testing.T) {
	deps := readDoc(t, "docs/dependencies.md")
	readme := readDoc(t, "README.md")
	i := strings.Index(readme, "## Dependencies")
	require.GreaterOrEqual(t, i, 0, "README has a Dependencies section")
	para := readme[i:]

	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	mods := requireRE.FindAllStringSubmatch(string(gomod), -1)
	require.GreaterOrEqual(t, len(mods), 4)
	for _, m := range mods {
		module, version, indirect := m[1], m[2], m[3] != ""
		line := lineWith(deps, "`"+module+"`")
		if line == "" {
			line = lineWith(deps, "`"+module+"/") // a package of the module, e.g. golang.org/x/net/html
		}
		if !assert.NotEmpty(t, line, "docs/dependencies.md does not explain %s", module) {
			continue
		}
		if indirect {
			continue
		}
		assert.Contains(t, line, version, "docs/dependencies.md gives another version of %s than go.mod", module)
		assert.Contains(t, para, shortName(module), "README's dependency paragraph does not name %s", module)
	}

	var pkg struct{ DevDependencies, Dependencies map[string]string }
	b, err := os.ReadFile(filepath.Join(root, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &pkg))
	// The page's own npm dependencies (vendored into dist/ by build.sh) are pinned exactly.
	assert.Equal(t, map[string]string{"uplot": "1.6.32"}, pkg.Dependencies, "the page's one npm dependency, uPlot, pinned")
	require.NotEmpty(t, pkg.DevDependencies)
	all := map[string]string{}
	for name, version := range pkg.DevDependencies {
		all[name] = version
	}
	for name, version := range pkg.Dependencies {
		all[name] = version
	}
	for name, version := range all {
		line := lineWith(deps, "`"+name+"`")
		if assert.NotEmpty(t, line, "docs/dependencies.md does not explain %s", name) {
			assert.Contains(t, line, strings.TrimLeft(version, "^~"), "docs/dependencies.md gives another version of %s than package.json", name)
		}
		assert.Contains(t, para, name, "README's dependency paragraph does not name %s", name)
	}
}

// lineWith returns the first table row or line of text that contains s.
func lineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

func TestShortName(t *testing.T) {
	assert.Equal(t, "safejs", shortName("github.com/hack-pad/safejs"))
	assert.Equal(t, "yaml", shortName("go.yaml.in/yaml/v3"))
	assert.Equal(t, "x/net", shortName("golang.org/x/net"))
}
