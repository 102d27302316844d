// Package rwsource reads RisingWave's source for the tests that check citations against it: from
// the git directory or checkout that RISINGWAVE_GIT names (git -C $RISINGWAVE_GIT show REF:FILE),
// or from the cache that RISINGWAVE_SRC names (REF/FILE under it; `./build.sh sources` fills
// .cache/risingwave). Nothing here is built into the explainer.
package rwsource

import (
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Enable says how to make the source available, for a test that skips without it.
const Enable = "set RISINGWAVE_GIT to a RisingWave git directory or checkout, or run `./build.sh sources` and set RISINGWAVE_SRC=.cache/risingwave"

// Read returns the lines of file at ref, and whether the source was found.
func Read(ref, file string) ([]string, bool) {
	if dir := os.Getenv("RISINGWAVE_SRC"); dir != "" {
		if b, err := os.ReadFile(filepath.Join(dir, ref, file)); err == nil {
			return strings.Split(string(b), "\n"), true
		}
	}
	if git := os.Getenv("RISINGWAVE_GIT"); git != "" {
		if out, err := exec.Command("git", "-C", git, "show", ref+":"+file).Output(); err == nil {
			return strings.Split(string(out), "\n"), true
		}
	}
	return nil, false
}

// Lines is Read for a test: it skips the test, saying how to enable it, when the file is not there.
func Lines(t testing.TB, ref, file string) []string {
	t.Helper()
	lines, ok := Read(ref, file)
	if !ok {
		t.Skipf("RisingWave's %s at %s is not available: %s", file, ref, Enable)
	}
	return lines
}

// Refs are the git refs the citations read, one per release (refs.txt, which `./build.sh
// sources` reads; internal/releasedoc writes it from the registry).
//
//go:embed refs.txt
var refsTxt string

// Refs returns the listed refs.
func Refs() []string { return strings.Fields(refsTxt) }

// Files lists every RisingWave file a citation reads (files.txt, which `./build.sh sources`
// fetches); a test of each citing package checks that its files are listed.
//
//go:embed files.txt
var filesTxt string

// Files returns the listed files.
func Files() []string { return strings.Fields(filesTxt) }
