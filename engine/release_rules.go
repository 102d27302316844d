package engine

import (
	"fmt"
)

// The few places where the releases differ (docs/scenario-format.md, Releases). Each phase's
// code asks its release's switch here; every other rule is the same code for every release.

// Sites only v2.7–v3.0 say (their lines: release_lines.go, "site:ID").
var (
	siteBufRescaleIgnored  = oldSite("buffering.rescale-ignored", "note", FileLocalityProvider)
	siteBufReport          = oldSite("buffering.report", "report", FileLocalityProvider)
	siteBufEndSilent       = oldSite("buffering.end-silent", "phase", FileLocalityProvider)
	siteOpenAsWritten      = oldSite("backfill.open-as-written", "snapshot", FileLocalityProvider)
	siteBackEndSilent      = oldSite("backfill.end-silent", "phase", FileLocalityProvider)
	siteRebuild            = oldSite("barrier.rebuild", "snapshot", FileLocalityProvider)
	siteBarRescaleIgnored  = oldSite("barrier.rescale-ignored", "note", FileLocalityProvider)
	siteCompRescaleIgnored = oldSite("completion.rescale-ignored", "note", FileLocalityProvider)
	siteFwdRescaleIgnored  = oldSite("forwarding.rescale-ignored", "note", FileLocalityProvider)
	siteRowEnded           = oldSite("backfill.row-ended", "snapshot", FileLocalityProvider)
)

// oldSite declares a site only the releases before v3.1 say: its lines are in their tables.
//
//go:noinline
func oldSite(id, kind, file string) *Site { return newSite(id, kind, file, 0, 0, "") }

func (e *Engine) rel() *Release { return e.cfg.release() }

// Release returns the release the engine runs.
func (e *Engine) Release() *Release { return e.rel() }

// siteLines returns a site's lines and link in the engine's release (none when the release
// does not say it: release_test.go fails first).
func (e *Engine) siteLines(s *Site) ([2]int, string) {
	r := e.rel()
	l, ok := r.SiteLines(s)
	if !ok {
		return [2]int{}, ""
	}
	return l, r.URL(s.File, l)
}

func resendsStart(r *Release) bool { return r.ResendsStart }

func not(has func(*Release) bool) func(*Release) bool {
	return func(r *Release) bool { return !has(r) }
}

// ignoresMutations says, for a barrier after buffering, what the release looks at in its mutation.
func (e *Engine) ignoresMutations(where, place string) string {
	if e.rel().RescaleFails.Has(e.phase) {
		return where + " it looks at the mutation only for a new vnode bitmap"
	}
	return fmt.Sprintf("%s does not look at the mutation %s at all", e.rel().Name, place)
}

// silentEnd is an upstream end while buffering or backfilling in a release before v3.1: the
// backfill polls the upstream and the snapshot together, upstream first; with the upstream
// gone only the snapshot answers, so everything happens at this step: the rest of the snapshot
// goes into the builders (a full one emitted at once), its end drains them and flushes the
// upstream buffer, and completion and forwarding find the upstream ended again.
func (e *Engine) silentEnd() {
	site := siteBackEndSilent
	if e.phase == PhaseBuffering {
		site = siteBufEndSilent
		e.enterBackfillAsWritten()
	}
	e.explain(site, "%s reads the upstream and the snapshot stream together, the upstream first; the ended upstream has nothing more, so only the snapshot answers and nothing can interleave: the rest of the backfill happens at this step.", e.rel().Name)
	if n := e.snap.Remaining(); n > 0 {
		e.deliverSnapshot(n)
	}
	e.completionEnds("asks the ended upstream for a message, and it ends again")
}

// enterBackfillAsWritten starts the backfill after buffering ended without a start signal: the
// snapshot reads the state table as written so far (the state table reads its own uncommitted
// writes), while those writes stay uncommitted.
func (e *Engine) enterBackfillAsWritten() {
	kept, unread, unreadRows := e.state, e.tally.unread.Share(), e.tally.unreadRows
	e.state = kept.clone()
	pending := len(e.state.pending)
	e.commitState(e.state.epoch)
	saved := e.narration.on
	e.narration.on = false
	e.enterBackfill()
	e.narration.on = saved
	e.state, e.tally.unread, e.tally.unreadRows = kept, unread, unreadRows
	e.explain(siteOpenAsWritten, "The backfill starts without a start signal: empty builders, and a snapshot stream of every owned vnode over the state table as written so far (e%d and the %s since, which the state table reads though they are not committed): %s to read.", e.state.epoch, Plural(pending, "write"), Plural(e.snap.left, "row"))
}

// countBuffered adds a buffered chunk's rows (its cardinality: visible rows) to what v2.7
// reports as buffered.
func (e *Engine) countBuffered(rows []RowOp) {
	if !e.rel().ReportsBuffered {
		return
	}
	for _, r := range rows {
		if r.Visible {
			e.bufferedRows++
		}
	}
}

// reportBuffering is v2.7's report at every barrier while buffering.
func (e *Engine) reportBuffering(b Barrier) {
	if !e.rel().ReportsBuffered {
		return
	}
	e.reportWith(ReportUpdate, b.Epoch, 0, e.bufferedRows)
	e.explain(siteBufReport, "Progress reported to the meta service: 0 snapshot rows and %s buffered so far.", Plural(int(e.bufferedRows), "row"))
}

// bufferedInReport is what a backfill report carries as buffered rows: v2.7 the rows buffered
// before the start signal, later releases 0 while backfilling and the snapshot rows at the finish.
func (e *Engine) bufferedInReport(kind ReportKind, rows int64) int64 {
	switch {
	case e.rel().ReportsBuffered:
		return e.bufferedRows
	case kind == ReportFinish:
		return rows
	}
	return 0
}

// finishAfterRestart says whether an executor that starts Completed reports finished.
func (e *Engine) finishAfterRestart() string {
	if e.rel().ReportsBuffered {
		return e.rel().Name + " reports nothing to the meta service from here: it reports finished only at a completion barrier."
	}
	return "It will report to the meta service that it has finished at the first barrier it forwards."
}

// linesText names a site's lines in the engine's release, e.g. "812-819".
func (e *Engine) linesText(s *Site) string {
	l, _ := e.siteLines(s)
	return span(l)
}

// LoadLines names the lines that load the progress, e.g. "314-368".
func (e *Engine) LoadLines() string {
	l, _ := e.rel().At(FileLocalityProvider, LinesLoad)
	return span(l)
}

// raceLines names the lines where the backfill loop races the upstream against the snapshot,
// the upstream first, e.g. "577-586".
func (e *Engine) raceLines() string {
	l, _ := e.rel().At(FileLocalityProvider, linesRace)
	return span(l)
}

// bufferedText adds v2.7's buffered rows to a report's sentence.
func (e *Engine) bufferedText() string {
	if !e.rel().ReportsBuffered {
		return ""
	}
	return fmt.Sprintf(", and %s buffered before the start signal", Plural(int(e.bufferedRows), "row"))
}
