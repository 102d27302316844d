// Package timeline steps an engine through a script (forward, back, to any step, branching)
// and adds to the engine's view what the script knows: the steps, the note, what comes next,
// the actions, the marks, what changed since the step before and the prediction. The engine
// (package engine) is the model; a Timeline keeps copies of it along the script, so that
// Step, Back, Goto and Apply (a step of one's own, which branches) cost a few steps.
package timeline

import (
	"fmt"
	"sync/atomic"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/view"
)

// checkpointEvery is how many steps apart the timeline keeps engine copies, so that going to any
// step replays at most that many steps.
const checkpointEvery = 64

// maxViewNext bounds the upstream messages the view lists as still to come.
const maxViewNext = 12

// StepError is a script step the engine refused: Index is its 0-based position in the script.
type StepError struct {
	Index int
	Err   *engine.InputError
}

func (e *StepError) Error() string { return fmt.Sprintf("step %d: %s", e.Index+1, e.Err) }

// Timeline steps an engine through a script: forward, back, to any step, and branching.
type Timeline struct {
	script []engine.Step
	base   *engine.Engine
	cur    *engine.Engine
	saved  map[int]*engine.Engine // engine after k steps, for k a multiple of checkpointEvery
	format func(engine.Step) string
	marks  []engine.Mark // the whole script's timeline marks; nil until computed
	rev    int64         // the script's revision (see Revision)
	before *view.Before  // the panels before the step that led to cur (nil at step 0)
	queue  *queue        // set when that step branched: the old script's upstream queue
	pred   *predictCache // the last prediction
	// leftAt, per script step, is the step (1-based) at which the run first left the script
	// before this step, when this step was kept from the script across that branch: its note was
	// written for the scripted run. 0 for a step of the run as scripted (or nil: all 0).
	leftAt []int
	// Branched is true once the script differs from the one the timeline was made with (an
	// injected event or a choice other than the scripted step).
	Branched bool
	// Adapt plays the script with Engine.Play instead of Apply: it was written for another run
	// (another bug mode), so a step that no longer fits is adapted, never refused or dropped.
	Adapt bool
	// NoteCaveat precedes every step's note when the script's notes were written for another run
	// than this one (another bug mode): they may not describe this run.
	NoteCaveat string
	// NoteFor is the release the script's notes were written for when it is not the run's: a note
	// written for another release is hidden (notes.go), unless the step writes one for the run's
	// release. "" when the notes were written for the run's release.
	NoteFor string
}

// New makes a timeline at step 0. format renders a step in the scenario format.
func New(base *engine.Engine, script []engine.Step, format func(engine.Step) string) *Timeline {
	return &Timeline{script: script, base: base.Clone(), cur: base.Clone(), saved: map[int]*engine.Engine{}, format: format, rev: revisions.Add(1)}
}

// revisions numbers script revisions across every timeline of the process, so that a revision
// never repeats, even from one timeline (a load, a bug mode, a release) to the next.
var revisions atomic.Int64

// Validate runs the whole script on a copy and reports the first step the engine refuses.
func Validate(base *engine.Engine, script []engine.Step) error {
	e := base.Clone()
	e.SetNarration(false)
	for i, s := range script {
		if err := e.Apply(s); err != nil {
			return &StepError{Index: i, Err: err.(*engine.InputError)}
		}
	}
	return nil
}

// Prepare runs the whole script once without narration, keeping a copy every checkpointEvery
// steps, and goes back to step 0: it checks the script (the first step the engine refuses is a
// *StepError) and makes going to any step later cost at most checkpointEvery steps.
func (t *Timeline) Prepare() error {
	t.cur = t.base.Clone()
	t.cur.SetNarration(false)
	defer func() { t.cur = t.base.Clone() }()
	for t.Pos() < len(t.script) {
		if err := t.step(false); err != nil {
			return err
		}
	}
	return nil
}

// Pos is the number of steps applied; Len the script's length.
func (t *Timeline) Pos() int { return t.cur.StepCount() }

// Len is the number of steps in the script.
func (t *Timeline) Len() int { return len(t.script) }

// Script returns the script (read-only).
func (t *Timeline) Script() []engine.Step { return t.script }

// Engine returns the engine at the current step (read-only).
func (t *Timeline) Engine() *engine.Engine { return t.cur }

// Revision names the script: it changes when a step branches from the script, never when the
// timeline moves along it, and is unique in the process (a new timeline has a new one).
func (t *Timeline) Revision() int64 { return t.rev }

// Step applies the next scripted step.
func (t *Timeline) Step() error { return t.step(true) }

// step applies the next scripted step; record keeps what the panels showed before it, for
// the view's `changed` (only the step a person lands on needs it).
func (t *Timeline) step(record bool) error {
	pos := t.Pos()
	if pos >= len(t.script) {
		return fmt.Errorf("already at the last step (%d)", pos)
	}
	var b *view.Before
	if record {
		b = view.Record(t.cur)
	}
	if t.Adapt {
		t.cur.Play(t.script[pos])
	} else if err := t.cur.Apply(t.script[pos]); err != nil {
		return &StepError{Index: pos, Err: err.(*engine.InputError)}
	}
	t.before, t.queue = b, nil
	if t.Pos()%checkpointEvery == 0 && t.saved[t.Pos()] == nil {
		t.saved[t.Pos()] = t.cur.Clone()
	}
	return nil
}

// Back goes one step back.
func (t *Timeline) Back() error {
	if t.Pos() == 0 {
		return fmt.Errorf("already at the first step")
	}
	return t.Goto(t.Pos() - 1)
}

// Goto goes to the state after n steps, replaying from the nearest kept copy.
func (t *Timeline) Goto(n int) error {
	if n < 0 || n > len(t.script) {
		return fmt.Errorf("step %d is outside 0..%d", n, len(t.script))
	}
	if n == t.Pos() {
		return nil
	}
	if n < t.Pos() || n-t.Pos() > checkpointEvery {
		// start from the nearest kept copy strictly before n, so that at least the last step is
		// replayed with narration (kept copies may have been made quietly, by Prepare)
		k := (n - 1) / checkpointEvery * checkpointEvery
		for k > 0 && t.saved[k] == nil {
			k -= checkpointEvery
		}
		if k == 0 {
			t.cur = t.base.Clone()
		} else {
			t.cur = t.saved[k].Clone()
			t.cur.SetNarration(t.base.Narrating())
		}
		t.before, t.queue = nil, nil
	}
	for t.Pos() < n {
		if err := t.step(t.Pos() == n-1); err != nil {
			return err
		}
	}
	return nil
}
