package engine

import (
	"fmt"
	"strings"
)

// OutputType is the kind of an emitted message.
type OutputType uint8

const (
	OutBarrier OutputType = iota
	OutChunk
	OutWatermark
	OutRecovery
)

// OutRow is one row of an emitted chunk.
type OutRow struct {
	Op      Op
	Row     Row
	Visible bool
	Vnode   int
	Why     string // for marked rows: why visible or hidden
}

// Output is one message the executor emitted (or a recovery entry).
type Output struct {
	Type       OutputType
	Epoch      int64 // barrier, recovery
	Checkpoint bool  // barrier
	Rows       []OutRow
	Column     string // watermark
	Value      Value  // watermark
	Step       int
	Source     string // chunk: builder | marked | flushed | forwarded
}

// OutRowView is a row of a chunk as the view shows it (a message to come, a buffered chunk, an
// output): its op, values, visibility, vnode and, for a marked row, why.
type OutRowView = outRowJSON

type outRowJSON struct {
	Op      string `json:"op"`
	Values  Row    `json:"values"`
	Visible bool   `json:"visible"`
	Vnode   int    `json:"vnode"`
	Why     string `json:"why,omitempty"`
}

// String renders an output for people, e.g. "chunk +(1,100)✓ +(2,101)✓".
func (o Output) String() string {
	switch o.Type {
	case OutBarrier:
		if !o.Checkpoint {
			return fmt.Sprintf("B e%d (not a checkpoint)", o.Epoch)
		}
		return fmt.Sprintf("B e%d", o.Epoch)
	case OutChunk:
		s := "chunk"
		if len(o.Rows) == 0 {
			s += " (empty)"
		}
		for _, r := range o.Rows {
			mark := "✓"
			if !r.Visible {
				mark = "✗"
			}
			s += " " + r.Op.String() + r.Row.String() + mark
		}
		return s
	case OutWatermark:
		return fmt.Sprintf("W %s=%s", o.Column, o.Value)
	}
	return fmt.Sprintf("recovery to e%d", o.Epoch)
}

// emitChunk emits a chunk and applies its visible rows to downstream's view. Downstream never
// holds a row fewer than zero times: a visible delete (- or U-) of a row it does not hold changes
// nothing there, and the narration names it as an inconsistency.
func (e *Engine) emitChunk(rows []OutRow, source string) { e.emitChunkOf(-1, rows, source) }

// emitChunkOf is emitChunk for a chunk whose rows are all on owned vnode index at (-1: any).
func (e *Engine) emitChunkOf(at OwnedIndex, rows []OutRow, source string) {
	var absent []string
	for _, r := range rows {
		if !r.Visible {
			continue
		}
		vi := at
		if vi < 0 {
			vi, _ = e.vnodeIndex(r.Row)
		}
		if r.Op.IsInsert() {
			e.world.down.add(vi, r.Row, 1)
		} else if !e.world.down.remove(vi, r.Row) && e.narration.on {
			absent = append(absent, r.Op.String()+r.Row.String())
		}
		e.touch(vi, r.Row)
	}
	if e.scale.counter != nil {
		e.scale.counter.Chunk(rows, source)
		return
	}
	e.outputs = append(e.outputs, Output{Type: OutChunk, Rows: rows, Step: e.step, Source: source})
	if len(absent) > 0 {
		it := "it"
		if len(absent) > 1 {
			it = "them"
		}
		e.explain(siteInconsistent, "Inconsistency: this chunk deletes %s, but downstream does not hold %s, so the delete changes nothing there (in the explainer's model of downstream; what a real downstream operator does with it is outside this file). Downstream is now out of step with the upstream, and the invariant shows how.", strings.Join(absent, " "), it)
	}
}

// emitBarrier emits a barrier; a checkpoint barrier makes everything committed so far durable.
func (e *Engine) emitBarrier(b Barrier) {
	e.epoch = b.Epoch
	e.trackMutation(b)
	if e.scale.counter != nil {
		e.scale.counter.Barrier()
	} else {
		e.outputs = append(e.outputs, Output{Type: OutBarrier, Epoch: b.Epoch, Checkpoint: b.Checkpoint, Step: e.step})
		e.narration.marks = append(e.narration.marks, Mark{Step: e.step, Kind: "barrier", Label: fmt.Sprintf("e%d", b.Epoch)})
	}
	if b.Checkpoint {
		e.tally.progMoved = false // what progress was persisted is durable now
		// the loaded progress equals the persisted one at a checkpoint; before the first barrier
		// loads it (the only barrier without it), the tables are still the last checkpoint's
		loaded := e.loaded()
		if loaded == nil {
			loaded = e.dur.loaded
		}
		e.dur = durable{epoch: b.Epoch, state: e.state.version(), progress: e.progTab.clone(), down: e.world.down.share(), upstream: e.world.upstream.share(), outputs: len(e.outputs), loaded: loaded}
	}
}

// forwardRows turns a chunk's rows into output rows unchanged (visibility kept).
func (e *Engine) forwardRows(rows []RowOp) []OutRow {
	out := make([]OutRow, len(rows))
	for i, r := range rows {
		_, v := e.vnodeIndex(r.Row)
		out[i] = OutRow{Op: r.Op, Row: r.Row, Visible: r.Visible, Vnode: v}
	}
	return out
}

// Mark is a point of interest on the timeline. Its kind's glyph and meaning are the legend's
// ("mark.KIND", glossary/legend.go), the one place they are named.
type Mark struct {
	Step  int    `json:"step"`
	Kind  string `json:"kind"`  // barrier | error | recovery | end | invariant
	Label string `json:"label"` // what the kind's glyph does not say: a barrier's epoch ("e4"), an end's "stop" or "end"; else ""
}
