package engine

import "fmt"

// PredictAhead bounds how far a prediction looks ahead in its script for the next barrier that
// marks the upstream buffer.
const PredictAhead = 64

// Prediction is what the next scripted barrier that marks the upstream buffer will do with each
// buffered row (docs/view.md `predict`), worked out by running a copy of the engine to it: the
// real run is untouched. It is the answer predict mode checks a learner's guesses against.
type Prediction struct {
	Step  int          `json:"step"`  // the script step (1-based) of that barrier
	Epoch int64        `json:"epoch"` // the barrier's epoch
	Next  bool         `json:"next"`  // it is the next scripted step
	Held  bool         `json:"held"`  // no vnode is in progress then: no buffered chunk is emitted
	Rows  []PredictRow `json:"rows"`  // every row buffered when it comes, in buffer order
}

// PredictRow is one buffered row and what the barrier does with it.
type PredictRow struct {
	ArrivedStep int    `json:"arrived_step"` // the step that delivered its chunk
	Op          string `json:"op"`
	Values      Row    `json:"values"`
	Vnode       int    `json:"vnode"`
	Visible     bool   `json:"visible"` // emitted visible at that barrier (false: hidden or held back)
	Why         string `json:"why"`
}

// Predict runs a copy of e along script from pos to the first barrier that marks a buffer
// holding rows, and returns what that barrier does with them; until is the first position the
// answer no longer holds for.
func (e *Engine) Predict(script []Step, pos int) (p *Prediction, until int) {
	if e.phase != PhaseBuffering && e.phase != PhaseBackfilling {
		return nil, pos + 1
	}
	c := e.Clone()
	c.SetNarration(false)
	end := min(len(script), pos+PredictAhead)
	for i := pos; i < end; i++ {
		s := script[i]
		if c.phase != PhaseBuffering && c.phase != PhaseBackfilling {
			return nil, i + 1
		}
		if c.phase == PhaseBackfilling && s.Kind == EventBarrier && bufferedRows(c) > 0 {
			return c.predictBarrier(s, i+1), i + 1
		}
		if c.Apply(s) != nil {
			return nil, i + 1
		}
	}
	return nil, max(end, pos+1)
}

func bufferedRows(e *Engine) int {
	n := 0
	for _, b := range e.buffer {
		n += len(b.rows)
	}
	return n
}

// predictBarrier applies barrier step s (script step number step) to e, a copy, and reads what
// it did with each buffered row: the marked chunks it emitted are the buffered chunks in order,
// row for row; when it emitted none, no vnode was in progress and every row was held back.
func (e *Engine) predictBarrier(s Step, step int) *Prediction {
	buffer := append([]bufferedChunk(nil), e.buffer...)
	first := len(e.outputs)
	if e.Apply(s) != nil {
		return nil
	}
	var marked []Output
	for _, o := range e.outputs[first:] {
		if o.Type == OutChunk && o.Source == "marked" {
			marked = append(marked, o)
		}
	}
	p := &Prediction{Step: step, Epoch: s.Barrier.Epoch, Held: len(marked) == 0, Rows: []PredictRow{}}
	if !p.Held && len(marked) != len(buffer) {
		return nil // not the shape markBuffered emits: no prediction rather than a wrong one
	}
	heldIndex := 0
	for ci, bc := range buffer {
		if !p.Held && len(marked[ci].Rows) != len(bc.rows) {
			return nil
		}
		for ri, r := range bc.rows {
			_, vn := e.vnodeIndex(r.Row)
			held := heldIndex
			row := PredictRow{ArrivedStep: bc.step, Op: r.Op.String(), Values: r.Row, Vnode: vn}
			if p.Held {
				row.Why = e.heldWhy(r, held)
				heldIndex++
			} else {
				m := marked[ci].Rows[ri]
				row.Visible, row.Why = m.Visible, m.Why
			}
			p.Rows = append(p.Rows, row)
		}
	}
	return p
}

// heldWhy says why a row the barrier held back (no vnode in progress) is hidden and what becomes
// of it; e is the engine just after that barrier and i the row's index in the buffer. The fate is
// the one the barrier itself worked out (explainGate), so predict and narration say the same.
func (e *Engine) heldWhy(r RowOp, i int) string {
	why := fmt.Sprintf("%s%s hidden, held back: no vnode is in progress at this barrier, so it emits none of the buffered chunks", r.Op, r.Row)
	if i < len(e.narration.heldFates) {
		return why + "; " + e.narration.heldFates[i]
	}
	return why
}
