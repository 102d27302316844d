package engine

import "fmt"

// Work measures what running a scenario costs, in units: one per step, per chunk row, per
// snapshot item delivered, per vnode a completion writes, per vnode and row the invariant
// looks at again after a recovery or the snapshot's end, and per row it compares one by one.
// A few bytes of a scenario can ask for a lot (`snapshot: 40000` after each of many
// recoveries re-reads the same rows; a completion barrier writes every vnode's progress), so
// an engine may be given a limit: it then refuses, before doing it, the step that would take
// the run past the limit, and the cost of any accepted run is bounded by the limit.

// SetWorkLimit makes the engine refuse a step that would take its work past n units (0: no
// limit). Copies keep the limit and the work done so far.
func (e *Engine) SetWorkLimit(n int64) { e.cost.limit = n }

// Work returns the units of work done so far.
func (e *Engine) Work() int64 { return e.cost.work + int64(e.check.checkedRows) }

// stepWork is what a step will cost, at most (see Work).
func (e *Engine) stepWork(s Step) int64 {
	w := int64(1)
	switch s.Kind {
	case EventChunk:
		w += int64(len(s.Chunk))
	case EventSnapshot:
		w += int64(s.Count)
	case EventBarrier:
		if e.phase == PhaseCompleting {
			w += int64(len(e.owned)) // every vnode's progress is written
		}
		if e.phase == PhaseStarting || e.phase == PhaseCompleting || e.check.allDirty {
			// the invariant looks at every vnode that holds rows again
			w += int64(len(e.owned) + e.world.upstream.rows + e.world.down.rows)
		}
	}
	return w
}

// checkWork refuses a step that would take the work past the limit.
func (e *Engine) checkWork(s Step) *InputError {
	if e.cost.limit <= 0 {
		return nil
	}
	if w := e.stepWork(s); e.Work()+w > e.cost.limit {
		return inputErr(-1, "the run would do more than %s units of work (snapshot items delivered, chunk rows, vnodes completed, rows checked again after a recovery; a step counts one); the limit is %s", thousands(e.cost.limit), thousands(e.cost.limit))
	}
	return nil
}

// thousands writes n with a comma every three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	out := []byte{}
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// workCost is the cost of the run so far and its limit.
type workCost struct {
	work  int64 // units of work done (see Work), but for check.checkedRows
	limit int64 // refuse a step past this much work (0: no limit)
}
