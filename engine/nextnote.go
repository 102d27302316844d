package engine

// nextNote is the note of the next scripted step as the view will show it once that step is
// applied (with its caveat when it was written for another run), or "" when the next step has
// none or the script is at its end. A speaker reads it ahead of the step (docs/view.md).
// A step this run cannot make is found out only when applied: its note is given as written.
func (t *Timeline) nextNote() string {
	p := t.Pos()
	if p >= len(t.script) || t.script[p].Note == "" {
		return ""
	}
	text, hidden := t.noteForRun(t.script[p]) // a note written for another release is hidden
	if text == "" {
		return hidden
	}
	return t.noteCaveat(p, false) + text
}
