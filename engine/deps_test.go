package engine

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The model stands alone: of this module it imports only its persistent structures
// (internal/persist, which import nothing of the module) and the JSON writer
// internal/jsonw; none of the machinery built on it (workload, explore, wire, glossary,
// session, scenarios, diagnose, lessons). This names the import that breaks that.
func TestModelImportsNoMachinery(t *testing.T) {
	t.Parallel() // (go list: it waits on another process, beside the package's other tests)
	// (a package's tests run in its folder)
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	const module = "github.com/backfill-explainer/explainer"
	// one go list for every package checked (each go list loads the module anew: ~0.3 s of CPU):
	// each package's path and then its dependencies, a line each
	pkgs := []string{"./engine", "./view", "./failure", "./codemap", "./timeline", "./internal/persist"}
	cmd := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}"}, pkgs...)...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, len(pkgs), string(out))
	// deps(pkg): the module's packages pkg is or depends on, as go list -deps names them
	deps := func(pkg string) []string {
		i := slices.Index(pkgs, pkg)
		require.GreaterOrEqual(t, i, 0, pkg)
		var own []string
		for _, p := range strings.Fields(lines[i]) {
			if p == module || strings.HasPrefix(p, module+"/") {
				own = append(own, strings.TrimPrefix(p, module+"/"))
			}
		}
		return own
	}
	for _, p := range deps("./engine") {
		if !slices.Contains([]string{"engine", "internal/persist", "internal/jsonw", "internal/quote"}, p) {
			t.Errorf("the model (engine) depends on %s", p)
		}
	}
	// what reads the model for the page sits just above it: the failure's explanation over the
	// engine alone, the view over it (it carries the failure's explanation), the code map over
	// the view, the timeline over them all
	model := []string{"engine", "internal/persist", "internal/jsonw", "internal/quote"}
	for pkg, may := range map[string][]string{"view": {"view", "failure"}, "failure": {"failure"}, "codemap": {"codemap", "view", "failure"}, "timeline": {"timeline", "codemap", "failure", "view"}} {
		for _, p := range deps("./" + pkg) {
			if !slices.Contains(model, p) && !slices.Contains(may, p) {
				t.Errorf("%s depends on %s", pkg, p)
			}
		}
	}
	require.Equal(t, []string{"internal/persist"}, deps("./internal/persist"),
		"internal/persist imports nothing of the module")
}
