package timeline

import (
	"strings"

	"github.com/backfill-explainer/explainer/engine"
)

// A note is written for one release. Under another release it is not the room's text: the
// view's note is then a short sentence, in the caveat's small type, saying that it is hidden
// and why, unless the step writes a note for the run's release (`note: {v3.1: …, v3.0: …}`).

// noteForRun returns a step's note for the run's release, or, when it was written for another
// release only, "" and the sentence that says it is hidden.
func (t *Timeline) noteForRun(s engine.Step) (text, hidden string) {
	run := t.cur.Release().Name
	if s.NoteBy != nil { // written per release: its own releases only
		if n, ok := s.NoteBy[run]; ok {
			return strings.TrimSpace(n), ""
		}
		return "", NoteHiddenText(engine.NamesWhere(func(r *engine.Release) bool { _, ok := s.NoteBy[r.Name]; return ok }), run)
	}
	if t.NoteFor == "" || t.NoteFor == run {
		return strings.TrimSpace(s.Note), ""
	}
	return "", NoteHiddenText(t.NoteFor, run)
}

// NoteHiddenText says that a note written for release for_ (or several: "v3.0, v3.1") is hidden under run.
func NoteHiddenText(for_, run string) string {
	return "(This step's note was written for " + for_ + " and is hidden under " + run + ": it may not hold here. The narration below is " + run + "'s.)"
}
