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

// releases are the release lines, oldest first: the engine's registry (engine.Releases), each
// with the patch releases its facts stand for. Read at every call: a release added to the
// registry is one diagnose answers for.
func releases() []Release {
	out := make([]Release, len(engine.Releases))
	for i, r := range engine.Releases {
		out[i] = Release{Name: r.Name, Ref: r.Ref, Patches: r.Patches}
	}
	return out
}

// ReleaseNames lists the names of the releases, oldest first.
func ReleaseNames() []string {
	names := make([]string, len(engine.Releases))
	for i, r := range engine.Releases {
		names[i] = r.Name
	}
	return names
}

// findRelease returns the release of that name.
func findRelease(name string) (Release, bool) {
	for _, r := range releases() {
		if r.Name == name {
			return r, true
		}
	}
	return Release{}, false
}

// rel returns the engine's release of that name (one of ReleaseNames: the catalogue is built
// over them).
func rel(name string) *engine.Release {
	for _, r := range engine.Releases {
		if r.Name == name {
			return r
		}
	}
	return &engine.Release{Name: name} // (never: a release without lines cites nothing)
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
	r, _ := findRelease(release)
	return Cite{Text: text, File: file, Lines: lines, Ref: r.Ref,
		URL: fmt.Sprintf("https://github.com/risingwavelabs/risingwave/blob/%s/%s#L%d-L%d", r.Ref, file, lines[0], lines[1])}
}

// fromEngine takes a citation of the engine's failure table (at SourceCommit, that is v3.1).
func fromEngine(c engine.Citation) Cite {
	return Cite{Text: c.Text, File: c.File, Lines: c.Lines, Ref: engine.SourceCommit, URL: c.URL}
}
