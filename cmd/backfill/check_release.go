package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// A built-in whose trace differs under an older release has golden traces of that release too:
// NAME.RELEASE.json and NAME.RELEASE.txt (e.g. fatal-upstream-end.v3.0.json).

// releaseGolden renders a built-in under a release: its JSON trace and its readable trace.
func releaseGolden(name, release string) (js, text []byte, err error) {
	open := func() (*session.Session, error) {
		s, err := session.OpenBuiltin(name)
		if err != nil {
			return nil, err
		}
		return s, s.SetRelease(release)
	}
	s, err := open()
	if err != nil {
		return nil, nil, err
	}
	var b, t bytes.Buffer
	if err := writeText(s, &t); err != nil {
		return nil, nil, err
	}
	if s, err = open(); err != nil {
		return nil, nil, err
	}
	if err := s.RunToEnd(); err != nil {
		return nil, nil, err
	}
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s.Trace()); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), t.Bytes(), nil
}

// differsFromDefault reports whether a release's JSON trace differs from the default release's
// (the `release` key aside).
func differsFromDefault(name string, js []byte) (bool, error) {
	def, err := goldenTrace(name)
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

// checkReleases checks (or with update writes) the per-release golden traces; it returns how
// many it checked and how many failed.
func checkReleases(dir string, update bool, stdout, stderr io.Writer) (n, failed int) {
	for _, name := range scenarios.BuiltinNames() {
		for _, r := range engine.Releases {
			if r == engine.DefaultRelease {
				continue
			}
			js, text, err := releaseGolden(name, r.Name)
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
					fmt.Fprintf(stderr, "%s --release %s: the trace differs from %s (rerun with -update if the change is on purpose), first at %s\n", name, r.Name, path, firstDiff(g.got, want))
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
