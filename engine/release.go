package engine

import (
	"fmt"
	"strings"
)

// Release is a RisingWave release whose locality provider the engine runs. The rules are the
// same code in every release; a release only switches the few behaviours that differ and
// says where its own file has each cited line.
type Release struct {
	Name    string // "v3.0", as a scenario's `release:` writes it
	Tags    string // the patch tags it covers, e.g. "v3.0.0–v3.0.3"
	Ref     string // the git ref its citations read: its newest patch tag, or SourceCommit
	Summary string // one line: what sets it apart (for a picker and the CLI's help)
	Lines   string // where its cited lines come from, when patch tags differ

	// RescaleFails: a barrier with a new vnode bitmap for this actor fails (v3.1); before,
	// the executor never looks at the bitmap and goes on with the vnodes it had.
	RescaleFails bool
	// EndFails: an end of the upstream while buffering or backfilling fails (v3.1); before, the
	// snapshot is read alone to its end and the executor's stream ends (a silent end).
	EndFails bool
	// KeepsSnapshot: the snapshot stream is kept across a barrier that found no buffered chunk
	// (v3.1); before, it is rebuilt at every barrier (the same rows: narration only).
	KeepsSnapshot bool
	// ReportsBuffered: progress reports count the rows buffered before the start signal, also
	// while buffering, and an executor that starts Completed reports nothing (v2.7; narration).
	ReportsBuffered bool
	// ResendsStart: after a recovery the meta service rebuilds the job's backfill order and sends
	// the start signal again (v2.8 on); v2.7's recovers the job with an empty order and never
	// sends it for this fragment again (a start signal after a recover is refused, or adapted).
	ResendsStart bool

	lines map[string][2]int // cited range at SourceCommit (or "site:ID") → its lines here; nil: v3.1
}

// The releases, oldest first. v3.1 is the release-3.1 branch at SourceCommit.
var (
	ReleaseV27 = &Release{Name: "v2.7", Tags: "v2.7.0–v2.7.4", Ref: "v2.7.4", ReportsBuffered: true,
		Summary: "rescale ignored; an upstream end while buffering or backfilling ends silently; the snapshot stream rebuilt at every barrier; progress reports count buffered rows; after a recovery the meta service never sends the start signal again",
		lines:   joinLines(linesLP27, linesFramework27, linesMeta27)}
	ReleaseV28 = &Release{Name: "v2.8", Tags: "v2.8.0–v2.8.5", Ref: "v2.8.5", ResendsStart: true,
		Summary: "rescale ignored; an upstream end while buffering or backfilling ends silently; the snapshot stream rebuilt at every barrier",
		Lines:   "executor/mod.rs at v2.8.5 (v2.8.0's lines differ); stream_graph/fragment.rs at v2.8.5 (at v2.8.0 to v2.8.2 its lines are one lower); the rest's cited lines the same in every v2.8 tag",
		lines:   joinLines(linesLP28, linesFramework28, linesMeta28)}
	ReleaseV30 = &Release{Name: "v3.0", Tags: "v3.0.0–v3.0.3", Ref: "v3.0.3", ResendsStart: true,
		Summary: "as v2.8 (the same rules and lines of locality_provider.rs)",
		Lines:   "executor/mod.rs at v3.0.3 (v3.0.0 and v3.0.1's lines differ); the rest's cited lines the same in every v3.0 tag",
		lines:   joinLines(linesLP28, linesFramework30, linesMeta30)}
	ReleaseV31 = &Release{Name: "v3.1", Tags: "release-3.1 branch", Ref: SourceCommit,
		RescaleFails: true, EndFails: true, KeepsSnapshot: true, ResendsStart: true,
		Summary: "the default: a rescale fails; an upstream end while buffering or backfilling fails; the snapshot stream kept unless a chunk was buffered"}

	// Releases lists every release, oldest first; DefaultRelease is the one a scenario without
	// `release:` runs.
	Releases       = []*Release{ReleaseV27, ReleaseV28, ReleaseV30, ReleaseV31}
	DefaultRelease = ReleaseV31
)

// NewerMain is what the model leaves out of RisingWave's main branch after v3.1.
const NewerMain = "Newer main: PR #27020 (2026-09-10) applies the backfill rate limit to the drain; not modelled (its source is not read here)."

// ReleaseNamed returns the release a scenario names, or an error that says what to write.
func ReleaseNamed(name string) (*Release, error) {
	for _, r := range Releases {
		if r.Name == name {
			return r, nil
		}
	}
	for _, r := range Releases {
		if "v"+name == r.Name || strings.HasPrefix(name, r.Name+".") || strings.HasPrefix("v"+name, r.Name+".") {
			return nil, fmt.Errorf("unknown release %q: write %s (one of %s)", name, r.Name, ReleaseNames())
		}
	}
	return nil, fmt.Errorf("unknown release %q: expected one of %s", name, ReleaseNames())
}

// ReleaseNames lists the release names, e.g. "v2.7, v2.8, v3.0, v3.1".
func ReleaseNames() string {
	n := make([]string, len(Releases))
	for i, r := range Releases {
		n[i] = r.Name
	}
	return strings.Join(n, ", ")
}

func (r *Release) String() string { return r.Name }

// RunRelease is the release the configuration runs (the default when none is set).
func (c *Config) RunRelease() *Release { return c.release() }

// release is the configuration's release (the default when none is set).
func (c *Config) release() *Release {
	if c.Release == nil {
		return DefaultRelease
	}
	return c.Release
}

// rangeKey names a range of a file as the line tables key it, e.g. "locality_provider.rs:599-604".
func rangeKey(file string, lines [2]int) string {
	if lines[0] == lines[1] {
		return fmt.Sprintf("%s:%d", shortFile(file), lines[0])
	}
	return fmt.Sprintf("%s:%d-%d", shortFile(file), lines[0], lines[1])
}

// At returns where this release's file has the lines cited at SourceCommit, and whether the
// release has them at all (the rescale checks and the upstream-ended error are v3.1's only).
func (r *Release) At(file string, lines [2]int) ([2]int, bool) {
	if r.lines == nil {
		return lines, true
	}
	if l, ok := sameAtEveryRef[rangeKey(file, lines)]; ok {
		return l, true
	}
	l, ok := r.lines[rangeKey(file, lines)]
	return l, ok
}

// SiteLines returns a narration site's lines in this release, and whether the release says it.
func (r *Release) SiteLines(s *Site) ([2]int, bool) {
	if s.File == "" {
		return s.Lines, true
	}
	if l, ok := r.lines["site:"+s.ID]; ok || s.Lines == [2]int{} {
		return l, ok // a site of the older releases only, or one whose lines there differ in kind
	}
	return r.At(s.File, s.Lines)
}

// URL links lines of a RisingWave file at this release's ref.
func (r *Release) URL(file string, lines [2]int) string {
	return fmt.Sprintf("https://github.com/risingwavelabs/risingwave/blob/%s/%s#L%d-L%d", r.Ref, file, lines[0], lines[1])
}

// Cite moves a citation written at SourceCommit to this release's lines and ref; a "lines A-B"
// inside its text moves too.
func (r *Release) Cite(c Citation) Citation {
	if r.lines == nil {
		return c
	}
	l, ok := r.At(c.File, c.Lines)
	if !ok {
		panic(fmt.Sprintf("internal error: %s has no lines for %s", r.Name, rangeKey(c.File, c.Lines)))
	}
	c.Lines, c.URL, c.Text = l, r.URL(c.File, l), r.moveLines(c.File, c.Text)
	return c
}

// moveLines rewrites each "lines A-B" of a text about file to this release's lines.
func (r *Release) moveLines(file, text string) string {
	const word = "lines "
	var b strings.Builder
	for {
		i := strings.Index(text, word)
		if i < 0 {
			return b.String() + text
		}
		i += len(word)
		b.WriteString(text[:i])
		text = text[i:]
		var x, y int
		if n, _ := fmt.Sscanf(text, "%d-%d", &x, &y); n == 2 {
			if l, ok := r.At(file, [2]int{x, y}); ok {
				old := fmt.Sprintf("%d-%d", x, y)
				b.WriteString(fmt.Sprintf("%d-%d", l[0], l[1]))
				text = text[len(old):]
			}
		}
	}
}

func joinLines(ms ...map[string][2]int) map[string][2]int {
	out := map[string][2]int{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// ReleaseInfo is a release as the view and the CLI list it.
type ReleaseInfo struct {
	Name    string `json:"name"`
	Tags    string `json:"tags"`
	Ref     string `json:"ref"`
	Summary string `json:"summary"`
	Default bool   `json:"default,omitempty"`
}

// ReleaseList lists every release for a picker, oldest first.
func ReleaseList() []ReleaseInfo {
	out := make([]ReleaseInfo, len(Releases))
	for i, r := range Releases {
		out[i] = ReleaseInfo{Name: r.Name, Tags: r.Tags, Ref: r.Ref, Summary: r.Summary, Default: r == DefaultRelease}
	}
	return out
}

var releaseList = ReleaseList()

// traceRelease is the trace's `release`: the release's name when it is not the default.
func (e *Engine) traceRelease() string {
	if r := e.rel(); r != DefaultRelease {
		return r.Name
	}
	return ""
}
