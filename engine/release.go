package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Release is a RisingWave release whose locality provider the engine runs: one value of the
// registry (Releases) that every surface reads — the CLI's list, the page's picker, diagnose,
// the schemas' enums, the docs' table, the sources `./build.sh sources` fetches. The rules are
// the same code in every release; a release only switches the few behaviours that differ and
// says where its own files have each cited line.
type Release struct {
	Name    string // "v3.0", as a scenario's `release:` writes it
	Tags    string // the patch tags it covers, e.g. "v3.0.0–v3.0.3"
	Ref     string // the git ref its citations read: its newest patch tag, or SourceCommit
	Summary string // one line: what sets it apart (for a picker and the CLI's help)
	Lines   string // where its cited lines come from, when patch tags differ
	Patches string // the patch releases diagnose's facts stand for, and how their lines differ

	// RescaleFails: the phases in which a barrier with a new vnode bitmap for this actor fails
	// (v3.1: all four); in the others the executor never looks at the bitmap and goes on with
	// the vnodes it had.
	RescaleFails Phases
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
	// SyncLogChecksRescale: the sync log store fails on a vnode bitmap update (diagnose: where
	// "updating vnode bitmap in place is not supported" comes from besides the executor).
	SyncLogChecksRescale bool
	// DropsCreatingForeground: the meta service's recovery drops every creating job created in
	// the foreground (clean_dirty_creating_jobs: a job still creating at a recovery is gone, its
	// CREATE fails); later releases keep creating jobs whose progress can be recovered.
	DropsCreatingForeground bool
	// SuspendLog: the compute node's log line that names the failed actor (diagnose).
	SuspendLog string
	// RescaleMeta: why its meta service sends no rescale barrier to a creating job (rescale_meta.go).
	RescaleMeta RescaleMeta
	// ProseOf: the release whose texts (a scenario's title, summary and notes) this one reads
	// where a text does not name it; a test checks that each built-in then runs the same under
	// both, step by step (else its file writes texts for this release). nil: a file must name it.
	ProseOf *Release

	// AtSource: the release's files are those at SourceCommit, where every site and citation is
	// written: a cited range is at its own lines (release_test.go checks its Ref). lines then
	// holds only the sites written without lines (oldSite) that the release says.
	AtSource bool
	// lines maps a cited range at SourceCommit ("file:A-B"), a site ("site:ID") or a fact of
	// diagnose to its lines here (release_lines.go); a key missing is code the release lacks.
	lines map[string][2]int
}

// Phases is a set of phases, for a switch that differs per phase.
type Phases uint8

// PhasesOf is the set of the given phases.
func PhasesOf(ps ...Phase) Phases {
	var s Phases
	for _, p := range ps {
		s |= 1 << p
	}
	return s
}

// Has reports whether p is in the set.
func (s Phases) Has(p Phase) bool { return s&(1<<p) != 0 }

// every phase a rescale can come in (after the first barrier).
var allPhases = PhasesOf(PhaseBuffering, PhaseBackfilling, PhaseCompleting, PhaseForwarding)

// The releases, oldest first. v3.1 is the release-3.1 branch at SourceCommit.
var (
	ReleaseV27 = &Release{Name: "v2.7", DropsCreatingForeground: true, Tags: "v2.7.0–v2.7.4", Ref: "v2.7.4", ReportsBuffered: true, SuspendLog: "suspend database on error", RescaleMeta: rescaleNoCreating,
		Summary: "rescale ignored; an upstream end while buffering or backfilling ends silently; the snapshot stream rebuilt at every barrier; progress reports count buffered rows; after a recovery the meta service never sends the start signal again",
		Lines:   "the files the same in every v2.7 tag",
		Patches: "v2.7.0 to v2.7.4 (the files cited are identical across them)",
		lines:   joinLines(linesLP27, linesFramework27, linesMeta27, linesDiagnose27)}
	ReleaseV28 = &Release{Name: "v2.8", DropsCreatingForeground: true, Tags: "v2.8.0–v2.8.5", Ref: "v2.8.5", ResendsStart: true, SuspendLog: "suspend partial graph on error", RescaleMeta: rescaleRebuild28,
		Summary: "rescale ignored; an upstream end while buffering or backfilling ends silently; the snapshot stream rebuilt at every barrier",
		Lines:   "executor/mod.rs at v2.8.5 (v2.8.0's lines differ); stream_graph/fragment.rs at v2.8.5 (at v2.8.0 to v2.8.2 its lines are one lower); the rest's cited lines the same in every v2.8 tag",
		Patches: "v2.8.0 to v2.8.5 (executor/mod.rs lines are those of v2.8.1 to v2.8.5; at v2.8.0 they are 19 lower)",
		lines:   joinLines(linesLP28, linesFramework28, linesMeta28, linesDiagnose28)}
	ReleaseV30 = &Release{Name: "v3.0", DropsCreatingForeground: true, Tags: "v3.0.0–v3.0.3", Ref: "v3.0.3", ResendsStart: true, SyncLogChecksRescale: true, SuspendLog: "suspend partial graph on error", RescaleMeta: rescaleRebuild30,
		Summary: "as v2.8 (the same rules and lines of locality_provider.rs)",
		Lines:   "executor/mod.rs at v3.0.3 (v3.0.0 and v3.0.1's lines differ); the rest's cited lines the same in every v3.0 tag",
		Patches: "v3.0.0 to v3.0.3 (executor/mod.rs lines are those of v3.0.2 and v3.0.3; at v3.0.0 and v3.0.1 they are 10 higher, and barrier/worker.rs's one higher)",
		lines:   joinLines(linesLP28, linesFramework30, linesMeta30, linesDiagnose30)}
	ReleaseV31 = &Release{Name: "v3.1", Tags: "release-3.1 branch", Ref: SourceCommit,
		RescaleFails: allPhases, EndFails: true, KeepsSnapshot: true, ResendsStart: true, SyncLogChecksRescale: true, SuspendLog: "suspend partial graph on error", RescaleMeta: rescaleRebuild30,
		Summary:  "the default: a rescale fails; an upstream end while buffering or backfilling fails; the snapshot stream kept unless a chunk was buffered",
		Patches:  "the release-3.1 branch at commit " + SourceCommit[:11],
		AtSource: true}

	// Releases lists every release, oldest first; DefaultRelease is the one a scenario without
	// `release:` runs.
	Releases       = []*Release{ReleaseV27, ReleaseV28, ReleaseV30, ReleaseV31}
	DefaultRelease = ReleaseV31
)

// NamesWhere names the releases for which has holds, oldest first, e.g. "v2.7, v2.8".
func NamesWhere(has func(*Release) bool) string {
	var n []string
	for _, r := range Releases {
		if has(r) {
			n = append(n, r.Name)
		}
	}
	return strings.Join(n, ", ")
}

// FirstWhere names the oldest release for which has holds ("" when none): prose asks it
// ("from the release where this changed") rather than name a release.
func FirstWhere(has func(*Release) bool) string {
	for _, r := range Releases {
		if has(r) {
			return r.Name
		}
	}
	return ""
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

// RangeKey names a range of a file as the line tables key it, and as a person reads it, e.g.
// "locality_provider.rs:599-604".
func RangeKey(file string, lines [2]int) string {
	if lines[0] == lines[1] {
		return fmt.Sprintf("%s:%d", shortFile(file), lines[0])
	}
	return fmt.Sprintf("%s:%d-%d", shortFile(file), lines[0], lines[1])
}

// At returns where this release's file has the lines cited at SourceCommit, and whether the
// release has them at all (the rescale checks and the upstream-ended error are v3.1's only).
func (r *Release) At(file string, lines [2]int) ([2]int, bool) {
	if l, ok := r.lines[RangeKey(file, lines)]; ok {
		return l, true
	}
	return lines, r.AtSource
}

// SiteLines returns a narration site's lines in this release, and whether the release says it:
// its own entry ("site:ID") first, else its range's.
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
	l, ok := r.At(c.File, c.Lines)
	if !ok { // (release_test.go: every release has every citation it says)
		return c
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
		x, after := leadingInt(text)
		if x < 0 || !strings.HasPrefix(after, "-") {
			continue
		}
		y, after := leadingInt(after[1:])
		if y < 0 {
			continue
		}
		if l, ok := r.At(file, [2]int{int(x), int(y)}); ok {
			b.WriteString(strconv.Itoa(l[0]) + "-" + strconv.Itoa(l[1]))
			text = after
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

// traceRelease is the trace's `release`: the release's name when it is not the default.
func (e *Engine) traceRelease() string {
	if r := e.rel(); r != DefaultRelease {
		return r.Name
	}
	return ""
}
