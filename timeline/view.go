package timeline

import (
	"fmt"

	"github.com/backfill-explainer/explainer/codemap"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
	"github.com/backfill-explainer/explainer/view"
)

// View is the engine's view plus the script's: steps, the note, what comes next.
func (t *Timeline) View() view.View {
	var v view.View
	t.FillView(&v)
	return v
}

// FillView writes the view at the current step into v: the engine's part and the script's.
func (t *Timeline) FillView(v *view.View) {
	view.Fill(t.cur, v)
	r := t.cur.Release()
	v.CodeMap, v.CodeLit = codemap.Of(r), codemap.Lit(r, v.Explanations)
	v.Failure, v.Dropped = failure.Explain(t.cur), failure.Dropped(t.cur)
	v.Steps = len(t.script)
	if p := t.Pos(); p > 0 && p <= len(t.script) {
		v.Note, v.NoteCaveat = t.Note()
		v.Pause = t.script[p-1].Pause
	}
	v.NextNote = t.nextNote()
	for i := t.Pos(); i < len(t.script); i++ {
		s := t.script[i]
		if !s.Kind.IsUpstream() {
			continue
		}
		if len(v.Upstream.Next) == maxViewNext {
			v.Upstream.More++
			continue
		}
		v.Upstream.Next = append(v.Upstream.Next, view.Message(t.cur, s, i+1))
	}
	v.Actions = t.Actions()
	v.Marks = t.Marks()
	v.Branched = t.Branched
	v.Revision = t.rev
	v.Predict = t.prediction()
	v.Changed, v.ChangedVnodes, v.AddedRows = t.changed()
}

// noteCaveat explains that a note was written for another run than this one: "" when it was
// written for this run. At script step i (0-based) with the engine's last step skipped or not.
func (t *Timeline) noteCaveat(i int, skipped bool) string {
	if skipped {
		return "(The scenario's note for this step is left out: it describes this step happening, and in this run the step could not happen.)"
	}
	c := t.NoteCaveat
	if at := t.leftAtStep(i); at > 0 {
		c += fmt.Sprintf("(Written for the scripted run; this run left the script at step %d, so it may differ.) ", at)
	}
	return c
}

// Note returns the note of the step that led to the current position as this run shows it, and
// the caveat it begins with: "" when the note was written for this run; otherwise the note was
// written for another run (another bug mode, or the script before this run left it) and may not
// describe this one. The note of a step that could not happen in this run is left out: then
// the note is the caveat alone. Both are "" when the step has no note.
func (t *Timeline) Note() (note, caveat string) {
	p := t.Pos()
	if p == 0 || p > len(t.script) || t.script[p-1].Note == "" {
		return "", ""
	}
	text, hidden := t.noteForRun(t.script[p-1])
	if hidden != "" {
		return hidden, hidden
	}
	caveat = t.noteCaveat(p-1, t.cur.Skipped())
	if t.cur.Skipped() {
		return caveat, caveat
	}
	return caveat + text, caveat
}

// nextNote is the note of the next scripted step as the view will show it once that step is
// applied (with its caveat when it was written for another run), or "" when the next step has
// none, the script is at its end or the job was dropped. A speaker reads it ahead of the step
// (docs/view.md).
// A step this run cannot make is found out only when applied: its note is given as written.
func (t *Timeline) nextNote() string {
	p := t.Pos()
	// (a dropped job has no next step: the script's next note would tell what cannot happen)
	if p >= len(t.script) || t.script[p].Note == "" || t.cur.Phase() == engine.PhaseDropped {
		return ""
	}
	text, hidden := t.noteForRun(t.script[p]) // a note written for another release is hidden
	if text == "" {
		return hidden
	}
	return t.noteCaveat(p, false) + text
}

// PlayedStep is one step of the script as this run plays it.
type PlayedStep struct {
	Step    engine.Step // as it happened: a shortened snapshot delivery has the count it delivered
	Skipped string      // why the step could not happen in this run ("" when it did)
	Caveat  string      // the caveat its note carries in this run ("" when written for this run)
}

// Played replays the whole script as this run plays it (adapted, under a bug mode it was not
// written for), without narration, and returns its steps and the engine at the script's end.
func (t *Timeline) Played() ([]PlayedStep, *engine.Engine) {
	e := t.base.Clone()
	e.SetNarration(false)
	out := make([]PlayedStep, 0, len(t.script))
	for i, s := range t.script {
		p := PlayedStep{Step: s}
		if t.Adapt {
			p.Step, p.Skipped = e.Play(s)
		} else if e.Apply(s) != nil {
			break // the rest of the script cannot happen (a script is checked when it is made)
		}
		if s.Note != "" {
			p.Caveat = t.noteCaveat(i, p.Skipped != "")
		}
		out = append(out, p)
	}
	return out, e
}

// changed says what the step that led to the current position changed (nothing at step 0).
func (t *Timeline) changed() (view.Changed, view.ChangedVnodes, view.AddedRows) {
	p := t.Pos()
	if p == 0 || t.before == nil || t.before.Step() != p-1 {
		return view.NoChange()
	}
	s := t.script[p-1]
	c, cv, added := view.Changes(t.cur, t.before, s)
	if q := t.queue; q != nil { // the step branched: compare with the old script's queue
		c.UpstreamNext = c.UpstreamNext || !q.same(upstreamQueue(t.script, p))
	}
	prevNote := ""
	if p >= 2 {
		prevNote = t.script[p-2].Note
	}
	c.Note = s.Note != prevNote
	return c, cv, added
}

// Marks lists the timeline's points of interest over the whole script (barriers, errors,
// recoveries, the end), so a timeline can show what is still to come.
func (t *Timeline) Marks() []engine.Mark {
	if t.marks == nil {
		e := t.base.Clone()
		e.SetNarration(false)
		for _, s := range t.script {
			if t.Adapt {
				e.Play(s)
			} else if e.Apply(s) != nil {
				break // the rest of the script cannot happen
			}
		}
		t.marks = append([]engine.Mark{}, e.Marks()...)
	}
	return t.marks
}
