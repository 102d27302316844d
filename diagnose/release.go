package diagnose

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
)

// Release is one line of RisingWave releases the diagnosis knows, and the source it was read at.
type Release struct {
	Name    string // "v3.0"
	Ref     string // the tag (or commit) every line number of this release is read at
	Patches string // the patch releases it stands for
}

// patches says, per release of the engine, which patch releases its facts stand for (the
// diagnosis's own text); the names and refs are the engine's (engine.Releases).
var patches = map[string]string{
	"v2.7": "v2.7.0 to v2.7.4 (the files cited are identical across them)",
	"v2.8": "v2.8.0 to v2.8.5 (executor/mod.rs lines are those of v2.8.1 to v2.8.5; at v2.8.0 they are 19 lower)",
	"v3.0": "v3.0.0 to v3.0.3 (executor/mod.rs lines are those of v3.0.2 and v3.0.3; at v3.0.0 and v3.0.1 they are 10 higher, and barrier/worker.rs's one higher)",
	"v3.1": "the release-3.1 branch at commit " + engine.SourceCommit[:11],
}

// Releases are the release lines, oldest first: the engine's, each with its patch releases.
// The facts are kept per release in that order (perRelease); a release of the engine without
// facts here stops the program at start rather than answer wrongly.
var Releases = func() []Release {
	if len(engine.Releases) != len(perRelease[int]{}) {
		panic(fmt.Sprintf("diagnose: the engine has %d releases, the facts are for %d", len(engine.Releases), len(perRelease[int]{})))
	}
	out := make([]Release, len(engine.Releases))
	for i, r := range engine.Releases {
		p, ok := patches[r.Name]
		if !ok {
			panic("diagnose: no facts for release " + r.Name)
		}
		out[i] = Release{Name: r.Name, Ref: r.Ref, Patches: p}
	}
	return out
}()

// ReleaseNames lists the names of Releases, oldest first.
func ReleaseNames() []string {
	names := make([]string, len(Releases))
	for i, r := range Releases {
		names[i] = r.Name
	}
	return names
}

// findRelease returns the release of that name.
func findRelease(name string) (Release, bool) {
	for _, r := range Releases {
		if r.Name == name {
			return r, true
		}
	}
	return Release{}, false
}

// SetReleases checks that a release table lists exactly the releases this package has facts
// for, in the same order (Releases are the engine's, so the engine's names always match).
func SetReleases(names []string) error {
	if len(names) != len(Releases) {
		return fmt.Errorf("diagnose: %d releases given, facts are known for %d (%v)", len(names), len(Releases), ReleaseNames())
	}
	for i, n := range names {
		if n != Releases[i].Name {
			return fmt.Errorf("diagnose: release %d is %q, facts are known for %q", i, n, Releases[i].Name)
		}
	}
	return nil
}

// Cite is a sentence the cited lines prove, at one release's source.
type Cite struct {
	Text  string `json:"text"`
	File  string `json:"file"`
	Lines [2]int `json:"lines"`
	Ref   string `json:"ref"`
	URL   string `json:"url"`
}

// at cites lines of a file at a release's ref.
func at(release, file string, lines [2]int, text string) Cite {
	r, ok := findRelease(release)
	if !ok {
		panic("diagnose: unknown release " + release)
	}
	return Cite{Text: text, File: file, Lines: lines, Ref: r.Ref,
		URL: fmt.Sprintf("https://github.com/risingwavelabs/risingwave/blob/%s/%s#L%d-L%d", r.Ref, file, lines[0], lines[1])}
}

// fromEngine takes a citation of the engine's failure table (at SourceCommit, that is v3.1).
func fromEngine(c engine.Citation) Cite {
	return Cite{Text: c.Text, File: c.File, Lines: c.Lines, Ref: engine.SourceCommit, URL: c.URL}
}
