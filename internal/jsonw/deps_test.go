package jsonw

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The wasm leaves out what it no longer needs: encoding/json (this package writes and reads
// its JSON), crypto (the explorer's state key is the engine's own digest) and regexp (the YAML
// library's two were replaced by hand matchers, third_party/yaml: 526 KB raw, 122 KB gzip). A change that
// brings either back grows the download and the start-up; this says which import did.
func TestWasmLeavesOutEncodingJSONCryptoAndRegexp(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	require.NoError(t, err)
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", "./wasm")
	cmd.Dir = root
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		for _, imp := range strings.Fields(imports) {
			if imp == "encoding/json" || imp == "crypto" || strings.HasPrefix(imp, "crypto/") ||
				imp == "regexp" || strings.HasPrefix(imp, "regexp/") {
				t.Errorf("%s imports %s into the wasm", pkg, imp)
			}
		}
	}
}
