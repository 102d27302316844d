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

// Releases are the release lines, oldest first. The engine will hold its own release table
// (the `release:` key); until then this list is the diagnosis's own data. Seam: SetReleases
// replaces the names (same order, same count) once the engine's table exists, so both agree.
var Releases = []Release{
	{Name: "v2.7", Ref: "v2.7.4", Patches: "v2.7.0 to v2.7.4 (the files cited are identical across them)"},
	{Name: "v2.8", Ref: "v2.8.5", Patches: "v2.8.0 to v2.8.5 (executor/mod.rs lines are those of v2.8.1 to v2.8.5; at v2.8.0 they are 19 lower)"},
	{Name: "v3.0", Ref: "v3.0.3", Patches: "v3.0.0 to v3.0.3 (executor/mod.rs lines are those of v3.0.2 and v3.0.3; at v3.0.0 and v3.0.1 they are 10 higher)"},
	{Name: "v3.1", Ref: engine.SourceCommit, Patches: "the release-3.1 branch at commit " + engine.SourceCommit[:11]},
}

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
// for, in the same order (the seam for the engine's table: its names must match these).
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
