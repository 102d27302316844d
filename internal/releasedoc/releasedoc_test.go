package releasedoc

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "write the files' lists of releases from the registry")

// TestFilesListTheRegistrysReleases: the schemas' enums, the docs' table and the refs `./build.sh
// sources` fetches are the registry's (rerun with -update after a change to engine.Releases).
func TestFilesListTheRegistrysReleases(t *testing.T) {
	for _, f := range Files {
		path := filepath.Join("..", "..", f.Path)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		want, err := f.Fix(b)
		require.NoError(t, err, f.Path)
		if *update {
			require.NoError(t, os.WriteFile(path, want, 0o644))
			continue
		}
		if string(want) != string(b) {
			t.Errorf("%s does not list the registry's releases (%s): run go test ./internal/releasedoc -update", f.Path, firstDiff(string(b), string(want)))
		}
	}
}

// firstDiff says the first line where have and want differ.
func firstDiff(have, want string) string {
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := range min(len(h), len(w)) {
		if h[i] != w[i] {
			return fmt.Sprintf("line %d is %.120q, want %.120q", i+1, h[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(h), len(w))
}
