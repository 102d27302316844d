package timeline

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/view"
)

// predictAhead bounds how far a prediction looks ahead in the script for the next barrier that
// marks the upstream buffer.
const predictAhead = checkpointEvery

// predict runs a copy of e along script from pos to the first barrier that marks a buffer
// holding rows, and returns what that barrier does with them (docs/view.md `predict`: the real
// run is untouched); until is the first position the answer no longer holds for.
func predict(e *engine.Engine, script []engine.Step, pos int) (p *view.Prediction, until int) {
	if e.Phase() != engine.PhaseBuffering && e.Phase() != engine.PhaseBackfilling {
		return nil, pos + 1
	}
	c := e.Clone()
	c.SetNarration(false)
	end := min(len(script), pos+predictAhead)
	for i := pos; i < end; i++ {
		s := script[i]
		if c.Phase() != engine.PhaseBuffering && c.Phase() != engine.PhaseBackfilling {
			return nil, i + 1
		}
		if c.Phase() == engine.PhaseBackfilling && s.Kind == engine.EventBarrier && c.Sizes().BufferedRows > 0 {
			return predictBarrier(c, s, i+1), i + 1
		}
		if c.Apply(s) != nil {
			return nil, i + 1
		}
	}
	return nil, max(end, pos+1)
}

// predictBarrier applies barrier step s (script step number step) to e, a copy, and reads what
// it did with each buffered row: the marked chunks it emitted are the buffered chunks in order,
// row for row; when it emitted none, no vnode was in progress and every row was held back.
func predictBarrier(e *engine.Engine, s engine.Step, step int) *view.Prediction {
	buffer := view.Buffer(e)
	first := len(e.Outputs())
	if e.Apply(s) != nil {
		return nil
	}
	var marked []engine.Output
	for _, o := range e.Outputs()[first:] {
		if o.Type == engine.OutChunk && o.Source == "marked" {
			marked = append(marked, o)
		}
	}
	p := &view.Prediction{Step: step, Epoch: s.Barrier.Epoch, Held: len(marked) == 0, Rows: []view.PredictRow{}}
	if !p.Held && len(marked) != len(buffer) {
		return nil // not the shape markBuffered emits: no prediction rather than a wrong one
	}
	held := 0
	for ci, bc := range buffer {
		if !p.Held && len(marked[ci].Rows) != len(bc.Rows) {
			return nil
		}
		for ri, r := range bc.Rows {
			row := view.PredictRow{ArrivedStep: bc.ArrivedStep, Op: r.Op, Values: r.Values, Vnode: r.Vnode}
			if p.Held {
				row.Why = heldWhy(e, r.Op, r.Values, held)
				held++
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
func heldWhy(e *engine.Engine, op string, row engine.Row, i int) string {
	why := fmt.Sprintf("%s%s hidden, held back: no vnode is in progress at this barrier, so it emits none of the buffered chunks", op, row)
	if fates := e.HeldFates(); i < len(fates) {
		return why + "; " + fates[i]
	}
	return why
}
