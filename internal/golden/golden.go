// Package golden renders the built-in scenarios' golden traces and compares them with the
// files under scenarios/testdata/golden: per built-in, the JSON trace (`backfill run --json`)
// and the readable trace (`backfill run`), and the same under each older release whose trace
// differs (NAME.RELEASE.json, NAME.RELEASE.txt). `backfill check` and the engine's tests
// (engine/golden_test.go) both check with it.
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// open opens a built-in under a release ("" for the default).
func open(name, release string) (*session.Session, error) {
	s, err := session.OpenBuiltin(name)
	if err != nil {
		return nil, err
	}
	if release != "" {
		return s, s.SetRelease(release)
	}
	return s, nil
}

// Trace renders a built-in's JSON trace under a release ("" for the default) as its golden
// file holds it: the run to its end, indented by two spaces.
func Trace(name, release string) ([]byte, error) {
	s, err := open(name, release)
	if err != nil {
		return nil, err
	}
	if err := s.RunToEnd(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s.Trace()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Text renders a built-in's readable trace (`backfill run NAME`) under a release ("" for the
// default): the narration the page teaches, locked like the JSON trace.
func Text(name, release string) ([]byte, error) {
	s, err := open(name, release)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// kind is one golden file of a built-in: its extension and how it is rendered.
type kind struct {
	ext    string
	render func(name, release string) ([]byte, error)
}

var kinds = []kind{{".json", Trace}, {".txt", Text}}

// FirstDiff names the first line where got and want differ ("" when none does).
func FirstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n  golden: %s\n  now:    %s", i+1, wl, gl)
		}
	}
	return ""
}

// CheckBuiltins checks (with update: writes) every built-in's golden traces in dir, saying
// each result on stdout and each difference on stderr; it returns how many built-ins failed.
// An error is a file it could not write.
func CheckBuiltins(dir string, update bool, stdout, stderr io.Writer) (failed int, err error) {
	for _, n := range scenarios.BuiltinNames() {
		ok := true
		for _, g := range kinds {
			got, err := g.render(n, "")
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", n, err)
				ok = false
				break
			}
			path := filepath.Join(dir, n+g.ext)
			if update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					fmt.Fprintf(stderr, "%s: %v\n", n, err)
					return failed, err
				}
				fmt.Fprintf(stdout, "updated %s\n", path)
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				fmt.Fprintf(stderr, "%s: no golden trace (%v); run `backfill check -update` to write it\n", n, err)
				ok = false
				continue
			}
			if !bytes.Equal(got, want) {
				fmt.Fprintf(stderr, "%s: the trace differs from %s (rerun with -update if the change is on purpose), first at %s\n", n, path, FirstDiff(got, want))
				ok = false
			}
		}
		if update {
			continue
		}
		if !ok {
			failed++
			continue
		}
		fmt.Fprintf(stdout, "ok   %s\n", n)
	}
	return failed, nil
}

// differsFromDefault reports whether a release's JSON trace differs from the default release's
// (the `release` key aside).
func differsFromDefault(name string, js []byte) (bool, error) {
	def, err := Trace(name, "")
	if err != nil {
		return false, err
	}
	var a, b map[string]any
	if err := json.Unmarshal(def, &a); err != nil {
		return false, err
	}
	if err := json.Unmarshal(js, &b); err != nil {
		return false, err
	}
	delete(b, "release")
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return !bytes.Equal(x, y), nil
}

// CheckReleases checks (with update: writes) the per-release golden traces in dir: a built-in
// whose trace under an older release differs from the default release's has them
// (NAME.RELEASE.json and .txt), and one whose trace does not must not. It returns how many it
// checked and how many failed.
func CheckReleases(dir string, update bool, stdout, stderr io.Writer) (n, failed int) {
	for _, name := range scenarios.BuiltinNames() {
		for _, r := range engine.Releases {
			if r == engine.DefaultRelease {
				continue
			}
			js, err := Trace(name, r.Name)
			var text []byte
			if err == nil {
				text, err = Text(name, r.Name)
			}
			if err != nil {
				fmt.Fprintf(stderr, "%s --release %s: %v\n", name, r.Name, err)
				n, failed = n+1, failed+1
				continue
			}
			differs, err := differsFromDefault(name, js)
			if err != nil {
				fmt.Fprintf(stderr, "%s --release %s: %v\n", name, r.Name, err)
				n, failed = n+1, failed+1
				continue
			}
			base := filepath.Join(dir, name+"."+r.Name)
			if !differs {
				if _, err := os.Stat(base + ".json"); err == nil {
					fmt.Fprintf(stderr, "%s --release %s: the trace is the default release's now, but %s.json is there (remove it)\n", name, r.Name, base)
					n, failed = n+1, failed+1
				}
				continue
			}
			n++
			ok := true
			for _, g := range []struct {
				ext string
				got []byte
			}{{".json", js}, {".txt", text}} {
				path := base + g.ext
				if update {
					if err := os.WriteFile(path, g.got, 0o644); err != nil {
						fmt.Fprintf(stderr, "%s: %v\n", path, err)
						ok = false
					} else {
						fmt.Fprintf(stdout, "updated %s\n", path)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					fmt.Fprintf(stderr, "%s --release %s: its trace differs from the default release's and has no golden trace (%v); run `backfill check -update`\n", name, r.Name, err)
					ok = false
					continue
				}
				if !bytes.Equal(g.got, want) {
					fmt.Fprintf(stderr, "%s --release %s: the trace differs from %s (rerun with -update if the change is on purpose), first at %s\n", name, r.Name, path, FirstDiff(g.got, want))
					ok = false
				}
			}
			if !ok {
				failed++
			} else if !update {
				fmt.Fprintf(stdout, "ok   %s --release %s\n", name, r.Name)
			}
		}
	}
	return n, failed
}
