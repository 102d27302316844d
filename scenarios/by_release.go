package scenarios

import (
	"slices"

	"github.com/backfill-explainer/explainer/engine"
)

// Which release a file's texts are written for (note_release.go reads them).

// Written reports whether a text the file writes for all its releases (not per release) is
// written for release run: run is one of `written_for:`.
func (sc *Scenario) Written(run string) bool {
	return slices.Contains(sc.WrittenFor, run) || len(sc.WrittenFor) == 0 && run == sc.Config.RunRelease().Name
}

// WrittenNames names the releases of `written_for:`, e.g. "v3.1" or "v2.8, v3.1".
func (sc *Scenario) WrittenNames() string {
	return engine.NamesWhere(func(r *engine.Release) bool { return sc.Written(r.Name) })
}

// TitleFor returns the title for release run, and whether it was written for run; a title not
// written for run is the file's release's.
func (sc *Scenario) TitleFor(run, own string) (string, bool) { return sc.textFor(sc.TitleBy, run, own) }

// SummaryFor is TitleFor for the summary.
func (sc *Scenario) SummaryFor(run, own string) (string, bool) {
	return sc.textFor(sc.SummaryBy, run, own)
}

// textFor: by[run] when written per release, else own (the file's release's text).
func (sc *Scenario) textFor(by map[string]string, run, own string) (string, bool) {
	if by == nil {
		return own, sc.Written(run)
	}
	if t, ok := by[run]; ok {
		return t, true
	}
	return own, false
}

// NoteWritten reports whether a step's note is written for release run.
func (sc *Scenario) NoteWritten(st engine.Step, run string) bool {
	if st.NoteBy != nil {
		_, ok := st.NoteBy[run]
		return ok
	}
	return sc.Written(run)
}
