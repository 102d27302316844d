package engine

import (
	"fmt"
	"reflect"
	"sync/atomic"
)

// checkpointEvery is how many steps apart the timeline keeps engine copies, so that going to any
// step replays at most that many steps.
const checkpointEvery = 64

// maxViewNext bounds the upstream messages the view lists as still to come.
const maxViewNext = 12

// Action is something that can happen next (docs/view.md).
type Action struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Step     string `json:"step"`
	Kind     string `json:"kind"`
	Scripted bool   `json:"scripted"`
}

// StepError is a script step the engine refused: Index is its 0-based position in the script.
type StepError struct {
	Index int
	Err   *InputError
}

func (e *StepError) Error() string { return fmt.Sprintf("step %d: %s", e.Index+1, e.Err) }

// Timeline steps an engine through a script: forward, back, to any step, and branching.
type Timeline struct {
	script []Step
	base   *Engine
	cur    *Engine
	saved  map[int]*Engine // engine after k steps, for k a multiple of checkpointEvery
	format func(Step) string
	marks  []Mark        // the whole script's timeline marks; nil until computed
	rev    int64         // the script's revision (see Revision)
	before *before       // the panels before the step that led to cur (nil at step 0)
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
	// written for another release is hidden (notes_release.go), unless the step writes one for
	// the run's release. "" when the notes were written for the run's release.
	NoteFor string
}

// NewTimeline makes a timeline at step 0. format renders a step in the scenario format.
func NewTimeline(base *Engine, script []Step, format func(Step) string) *Timeline {
	return &Timeline{script: script, base: base.Clone(), cur: base.Clone(), saved: map[int]*Engine{}, format: format, rev: revisions.Add(1)}
}

// revisions numbers script revisions across every timeline of the process, so that a revision
// never repeats, even from one timeline (a load, a bug mode, a release) to the next.
var revisions atomic.Int64

// Validate runs the whole script on a copy and reports the first step the engine refuses.
func Validate(base *Engine, script []Step) error {
	e := base.Clone()
	e.SetNarration(false)
	for i, s := range script {
		if err := e.Apply(s); err != nil {
			return &StepError{Index: i, Err: err.(*InputError)}
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
func (t *Timeline) Pos() int { return t.cur.step }

// Len is the number of steps in the script.
func (t *Timeline) Len() int { return len(t.script) }

// Script returns the script (read-only).
func (t *Timeline) Script() []Step { return t.script }

// Engine returns the engine at the current step (read-only).
func (t *Timeline) Engine() *Engine { return t.cur }

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
	var b *before
	if record {
		b = t.cur.record()
	}
	if t.Adapt {
		t.cur.Play(t.script[pos])
	} else if err := t.cur.Apply(t.script[pos]); err != nil {
		return &StepError{Index: pos, Err: err.(*InputError)}
	}
	t.before = b
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
			t.cur.SetNarration(t.base.narration.on)
		}
		t.before = nil
	}
	for t.Pos() < n {
		if err := t.step(t.Pos() == n-1); err != nil {
			return err
		}
	}
	return nil
}

// Apply makes s happen next. If s is the scripted next step the script is followed; otherwise
// the timeline branches: s becomes the next step, the upstream messages still to come stay
// queued in order (the one s delivers, if it is the first of them, is taken out), and the
// scheduled snapshot deliveries and recoveries after it are dropped, as is any later step that
// can no longer happen.
func (t *Timeline) Apply(s Step) error {
	pos := t.Pos()
	if pos < len(t.script) && sameStep(t.script[pos], s) {
		return t.Step()
	}
	next := t.cur.Clone()
	b := next.record()
	b.queue = upstreamQueue(t.script, pos)
	if err := next.Apply(s); err != nil {
		return err
	}
	var future []Step
	var futureLeft []int
	first := true
	sLeft := 0
	for i, f := range t.script[pos:] {
		if !f.Kind.IsUpstream() {
			continue
		}
		left := t.leftAtStep(pos + i)
		if left == 0 {
			left = pos + 1
		}
		if first && s.Kind.IsUpstream() && sameStep(f, s) {
			first = false
			// s is the next queued message, delivered early: it keeps its note, written for
			// the scripted run, where it came later
			if s.Note == "" && f.Note != "" {
				s.Note, sLeft = f.Note, left
			}
			continue
		}
		first = false
		future = append(future, f)
		futureLeft = append(futureLeft, left)
	}
	// keep the future only as far as it can still happen
	probe := next.Clone()
	probe.SetNarration(false)
	for i, f := range future {
		if probe.Apply(f) != nil {
			future = future[:i]
			break
		}
	}
	script := append(append(append([]Step{}, t.script[:pos]...), s), future...)
	leftAt := make([]int, 0, len(script))
	for i := 0; i < pos; i++ {
		leftAt = append(leftAt, t.leftAtStep(i))
	}
	leftAt = append(append(leftAt, sLeft), futureLeft[:len(future)]...)
	t.script = script
	t.leftAt = leftAt
	t.marks = nil
	t.rev = revisions.Add(1)
	t.before = b
	t.Branched = true
	for k := range t.saved {
		if k > pos {
			delete(t.saved, k)
		}
	}
	t.cur = next
	if t.Pos()%checkpointEvery == 0 {
		t.saved[t.Pos()] = t.cur.Clone()
	}
	return nil
}

func sameStep(a, b Step) bool {
	a.Note, b.Note = "", ""
	a.Pause, b.Pause = false, false
	return reflect.DeepEqual(a, b)
}

// queue is what the view's upstream `next` shows of a script from a position on.
type queue struct {
	steps []int
	msgs  []Step
	more  int
}

func upstreamQueue(script []Step, from int) *queue {
	q := &queue{}
	for i := from; i < len(script); i++ {
		if !script[i].Kind.IsUpstream() {
			continue
		}
		if len(q.steps) == maxViewNext {
			q.more++
			continue
		}
		q.steps, q.msgs = append(q.steps, i+1), append(q.msgs, stripNote(script[i]))
	}
	return q
}

func (q *queue) same(o *queue) bool {
	if q.more != o.more || len(q.steps) != len(o.steps) {
		return false
	}
	for i := range q.steps {
		if q.steps[i] != o.steps[i] || !sameStep(q.msgs[i], o.msgs[i]) {
			return false
		}
	}
	return true
}

// nextUpstream returns the index of the next upstream message in the script, or -1.
func (t *Timeline) nextUpstream() int {
	for i := t.Pos(); i < len(t.script); i++ {
		if t.script[i].Kind.IsUpstream() {
			return i
		}
	}
	return -1
}

// Actions lists what can happen next: the scripted step first, then the alternatives.
func (t *Timeline) Actions() []Action {
	e := t.cur
	acts := []Action{}
	if e.phase == PhaseDropped {
		return acts // nothing can follow
	}
	pos := t.Pos()
	scripted := pos < len(t.script)
	if scripted {
		s := t.script[pos]
		acts = append(acts, Action{ID: "next", Label: t.label(s), Step: t.format(stripNote(s)), Kind: kindName(s.Kind), Scripted: true})
	}
	if e.phase == PhaseFailed || e.phase == PhaseEnded {
		if !scripted || t.script[pos].Kind != EventRecover {
			acts = append(acts, Action{ID: "recover", Label: e.recoverLabel(), Step: t.format(Step{Kind: EventRecover}), Kind: "recover"})
		}
		return acts
	}
	if e.SnapshotRemaining() > 0 && (!scripted || t.script[pos].Kind != EventSnapshot) {
		s := Step{Kind: EventSnapshot, Count: 1}
		acts = append(acts, Action{ID: "snapshot", Label: t.label(s), Step: t.format(s), Kind: "snapshot"})
	}
	j := t.nextUpstream()
	if scripted && !t.script[pos].Kind.IsUpstream() && j >= 0 {
		s := stripNote(t.script[j])
		acts = append(acts, Action{ID: "upstream", Label: "first, " + t.label(s), Step: t.format(s), Kind: kindName(s.Kind)})
	}
	// The run can always go on: when the script has no upstream message left, or the executor
	// has restarted and the next one is not the first barrier it waits for, the next barrier is
	// offered (with the start signal too while the executor buffers, which only that ends).
	if j < 0 || e.phase == PhaseStarting && t.script[j].Kind != EventBarrier {
		n := e.NextEpoch()
		if e.phase == PhaseBuffering {
			s := Step{Kind: EventBarrier, Barrier: Barrier{Epoch: n, Checkpoint: true, StartBackfill: []int64{e.cfg.Fragment}}}
			acts = append(acts, Action{ID: "start", Label: t.label(s), Step: t.format(s), Kind: "upstream"})
		}
		s := Step{Kind: EventBarrier, Barrier: Barrier{Epoch: n, Checkpoint: true}}
		acts = append(acts, Action{ID: "barrier", Label: t.label(s), Step: t.format(s), Kind: "upstream"})
	}
	return acts
}

func stripNote(s Step) Step { s.Note, s.Pause = "", false; return s }

func kindName(k EventKind) string { return k.Info().By }

// label says in words what a step would do now.
func (t *Timeline) label(s Step) string {
	e := t.cur
	switch s.Kind {
	case EventSnapshot:
		if e.SnapshotRemaining() == 0 {
			return s.Describe(e.cfg.Columns)
		}
		if s.Count == 1 {
			return "snapshot delivers " + e.peekSnapshot()
		}
		return fmt.Sprintf("snapshot delivers %d items, starting with %s", s.Count, e.peekSnapshot())
	case EventRecover:
		return e.recoverLabel()
	}
	if l := s.Kind.Info().Label; l != "" {
		return s.words(l)
	}
	return "upstream delivers " + s.Describe(e.cfg.Columns)
}

// peekSnapshot names the snapshot's next item, e.g. "(v0,(3,102))" or "its end".
func (e *Engine) peekSnapshot() string {
	vi, row, ok := e.snap.peek()
	if !ok {
		return "its end"
	}
	return fmt.Sprintf("(v%d,%s)", e.owned[vi], row.Project(e.pk))
}

// View is the engine's view plus the script's: steps, the note, what comes next.
func (t *Timeline) View() View {
	var v View
	t.FillView(&v)
	return v
}

// FillView writes the view at the current step into v: the engine's part and the script's.
func (t *Timeline) FillView(v *View) {
	t.cur.fillView(v)
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
		v.Upstream.Next = append(v.Upstream.Next, t.cur.messageView(s, i+1))
	}
	v.Actions = t.Actions()
	v.Marks = t.Marks()
	v.Branched = t.Branched
	v.Revision = t.rev
	v.Predict = t.prediction()
	v.Changed, v.ChangedVnodes, v.AddedRows = t.changed()
}

// leftAtStep is leftAt of script step i (0-based).
func (t *Timeline) leftAtStep(i int) int {
	if i < len(t.leftAt) {
		return t.leftAt[i]
	}
	return 0
}

// NoteCaveat explains that a note was written for another run than this one: "" when it was
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

// PlayedStep is one step of the script as this run plays it.
type PlayedStep struct {
	Step    Step   // as it happened: a shortened snapshot delivery has the count it delivered
	Skipped string // why the step could not happen in this run ("" when it did)
	Caveat  string // the caveat its note carries in this run ("" when written for this run)
}

// Played replays the whole script as this run plays it (adapted, under a bug mode it was not
// written for), without narration, and returns its steps and the engine at the script's end.
func (t *Timeline) Played() ([]PlayedStep, *Engine) {
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
func (t *Timeline) changed() (Changed, ChangedVnodes, AddedRows) {
	p := t.Pos()
	if p == 0 || t.before == nil || t.before.step != p-1 {
		return Changed{}, ChangedVnodes{}.nonNil(), AddedRows{}.nonNil()
	}
	s := t.script[p-1]
	c, cv, added := t.cur.changes(t.before, s)
	c.UpstreamNext = s.Kind.IsUpstream() || t.cur.upEnded != t.before.upEnded
	if q := t.before.queue; q != nil { // the step branched: compare with the old script's queue
		c.UpstreamNext = c.UpstreamNext || !q.same(upstreamQueue(t.script, p))
	}
	prevNote := ""
	if p >= 2 {
		prevNote = t.script[p-2].Note
	}
	c.Note = s.Note != prevNote
	return c, cv.nonNil(), added.nonNil()
}

// Marks lists the timeline's points of interest over the whole script (barriers, errors,
// recoveries, the end), so a timeline can show what is still to come.
func (t *Timeline) Marks() []Mark {
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
		t.marks = append([]Mark{}, e.narration.marks...)
	}
	return t.marks
}

func (e *Engine) messageView(s Step, step int) MessageView {
	m := MessageView{Step: step, Type: s.Kind.Info().Key}
	if s.Kind.Info().Takes == TakesText {
		m.Message = s.Message
	}
	switch s.Kind {
	case EventBarrier:
		m.Epoch, m.Checkpoint, m.StartBackfill, m.Rescale = s.Barrier.Epoch, s.Barrier.Checkpoint, s.Barrier.StartBackfill, s.Barrier.Rescale
		if s.Barrier.Mutation != MutationNone {
			m.Mutation = s.Barrier.Mutation.String()
		}
		if s.Barrier.Mutation == MutationThrottle {
			t := s.Barrier.Throttle
			m.Throttle = &t
		}
	case EventChunk:
		for _, r := range s.Chunk {
			_, vn := e.vnodeIndex(r.Row)
			m.Rows = append(m.Rows, outRowJSON{Op: r.Op.String(), Values: r.Row, Visible: r.Visible, Vnode: vn})
		}
	case EventWatermark:
		val := s.Watermark.Value
		m.Column, m.Value = e.cfg.Columns[s.Watermark.Column].Name, &val
	}
	return m
}
