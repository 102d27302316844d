package timeline

import (
	"reflect"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/view"
)

// Apply makes s happen next. If s is the scripted next step the script is followed; otherwise
// the timeline branches: s becomes the next step, the upstream messages still to come stay
// queued in order (the one s delivers, if it is the first of them, is taken out), and the
// scheduled snapshot deliveries and recoveries after it are dropped, as is any later step that
// can no longer happen.
func (t *Timeline) Apply(s engine.Step) error {
	pos := t.Pos()
	if pos < len(t.script) && sameStep(t.script[pos], s) {
		return t.Step()
	}
	next := t.cur.Clone()
	b := view.Record(next)
	q := upstreamQueue(t.script, pos)
	if err := next.Apply(s); err != nil {
		return err
	}
	var future []engine.Step
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
	script := append(append(append([]engine.Step{}, t.script[:pos]...), s), future...)
	leftAt := make([]int, 0, len(script))
	for i := 0; i < pos; i++ {
		leftAt = append(leftAt, t.leftAtStep(i))
	}
	leftAt = append(append(leftAt, sLeft), futureLeft[:len(future)]...)
	t.script = script
	t.leftAt = leftAt
	t.marks = nil
	t.rev = revisions.Add(1)
	t.before, t.queue = b, q
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

func sameStep(a, b engine.Step) bool {
	a.Note, b.Note = "", ""
	a.Pause, b.Pause = false, false
	return reflect.DeepEqual(a, b)
}

func stripNote(s engine.Step) engine.Step { s.Note, s.Pause = "", false; return s }

// queue is what the view's upstream `next` shows of a script from a position on.
type queue struct {
	steps []int
	msgs  []engine.Step
	more  int
}

func upstreamQueue(script []engine.Step, from int) *queue {
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

// leftAtStep is leftAt of script step i (0-based).
func (t *Timeline) leftAtStep(i int) int {
	if i < len(t.leftAt) {
		return t.leftAt[i]
	}
	return 0
}
