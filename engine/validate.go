package engine

import (
	"fmt"
	"math"
	"strings"
)

// checkRow checks a row's width, its values' types and that this actor owns its vnode.
func (e *Engine) checkRow(r Row) *InputError { return e.checkRowOwned(r, true) }

// checkRowOwned is checkRow; an invisible chunk row may belong to another actor's vnode
// (RisingWave's hash dispatcher sends one chunk to every actor, masking the others' rows).
func (e *Engine) checkRowOwned(r Row, mustOwn bool) *InputError {
	if len(r) != len(e.cfg.Columns) {
		return inputErr(-1, "row %s has %d values, the table has %d columns", r.brief(), len(r), len(e.cfg.Columns))
	}
	for i, v := range r {
		if err := e.checkValue(i, v); err != nil {
			return err
		}
	}
	vi, v := e.vnodeIndex(r)
	if v < 0 {
		return inputErr(-1, "row %s cannot be placed: rule %s cannot place a NULL key", r.brief(), e.cfg.Rule)
	}
	if vi < 0 && mustOwn {
		return inputErr(-1, "row %s belongs to vnode %d, which actor %d does not own (owned: %s); the upstream dispatcher never routes it here", r.brief(), v, e.cfg.Actor, e.ownedBrief())
	}
	return nil
}

// checkValue checks a value against its column's type.
func (e *Engine) checkValue(col int, v Value) *InputError {
	c := e.cfg.Columns[col]
	switch {
	case v.Kind == KindNull:
	case c.Type == TypeVarchar && v.Kind != KindStr:
		return inputErr(-1, "column %s is varchar, %s is not a string", c.Name, Row{v}.brief())
	case c.Type != TypeVarchar && v.Kind != KindInt:
		return inputErr(-1, "column %s is %s, %s is not an integer", c.Name, c.Type, Row{v}.brief())
	case c.Type == TypeInt && (v.I < math.MinInt32 || v.I > math.MaxInt32):
		return inputErr(-1, "%d overflows column %s of type int (4 bytes)", v.I, c.Name)
	}
	return nil
}

// validate refuses a step that the scenario cannot contain here. It changes nothing.
func (e *Engine) validate(s Step) error {
	if e.phase == PhaseDropped {
		return e.droppedError()
	}
	if s.Kind != EventRecover {
		switch e.phase {
		case PhaseFailed:
			return inputErr(-1, "the executor has failed (%q); only `recover` can follow", Row{Str(e.failure.Message)}.brief())
		case PhaseEnded:
			if e.stopEpoch > 0 {
				return inputErr(-1, "the actor stopped at the Stop barrier e%d; only `recover` can follow", e.stopEpoch)
			}
			return inputErr(-1, "the executor's stream has ended; only `recover` can follow")
		}
	}
	switch s.Kind {
	case EventBarrier:
		if s.Barrier.Epoch <= e.lastEpoch {
			return inputErr(-1, "epoch %d does not increase: the last barrier carried epoch %d", s.Barrier.Epoch, e.lastEpoch)
		}
		if e.startRefused(s.Barrier) {
			return inputErr(-1, "%s: leave start_backfill out, or run the scenario under %s or later", e.startRefusedText(), FirstWhere(resendsStart))
		}
		if len(s.Barrier.mutationNames()) > 1 {
			return inputErr(-1, "a barrier carries one mutation: %s together", strings.Join(s.Barrier.mutationNames(), " and "))
		}
		if s.Barrier.Mutation > MutationStop {
			return inputErr(-1, "unknown barrier mutation %d", s.Barrier.Mutation)
		}
		if s.Barrier.Mutation == MutationThrottle && (s.Barrier.Throttle < 0 || s.Barrier.Throttle > MaxThrottle) {
			return inputErr(-1, "a throttle's rate limit is 0 to %d, found %d", MaxThrottle, s.Barrier.Throttle)
		}
	case EventChunk:
		return e.validateChunk(s.Chunk)
	case EventWatermark:
		if s.Watermark.Column < 0 || s.Watermark.Column >= len(e.cfg.Columns) {
			return inputErr(-1, "watermark on an unknown column")
		}
		if err := e.checkValue(s.Watermark.Column, s.Watermark.Value); err != nil {
			return err
		}
	case EventSnapshotError:
		if e.phase != PhaseBackfilling || e.snap == nil {
			return inputErr(-1, "no snapshot is being read: the executor is %s, and the snapshot can fail only while it backfills", e.phase)
		}
	case EventSnapshot:
		if s.Count < 1 {
			return inputErr(-1, "a snapshot step delivers at least 1 item")
		}
		if e.phase != PhaseBackfilling || e.snap == nil {
			return inputErr(-1, "no snapshot is being read: the executor is %s, and the snapshot delivers only while it backfills", e.phase)
		}
		if r := e.snap.Remaining(); s.Count > r {
			return inputErr(-1, "the snapshot has only %s left (its rows and its end); this step asks for %d", Plural(r, "item"), s.Count)
		}
	}
	return nil
}

// validateChunk checks a chunk against the upstream's content: the real upstream never inserts
// a pk it holds, deletes one it does not, or splits an update pair.
func (e *Engine) validateChunk(rows []RowOp) error {
	if len(rows) == 0 {
		return inputErr(-1, "a chunk needs at least one row")
	}
	overlay := make(map[string]*Row) // pk → row (nil: deleted) for changes earlier in this chunk
	lookup := func(r Row) (Row, bool) {
		if o, ok := overlay[r.Project(e.pk).key()]; ok {
			if o == nil {
				return nil, false
			}
			return *o, true
		}
		vi, _ := e.vnodeIndex(r)
		return e.world.upstream.getPK(vi, r)
	}
	for i, ro := range rows {
		if err := e.checkRowOwned(ro.Row, ro.Visible); err != nil {
			err.Row = i
			return err
		}
		if ro.Op == OpUpdateDelete {
			if i+1 >= len(rows) || rows[i+1].Op != OpUpdateInsert || CompareRows(rows[i+1].Row.Project(e.pk), ro.Row.Project(e.pk)) != 0 || rows[i+1].Visible != ro.Visible {
				return inputErr(i, "U-%s must be followed by U+ of the same key %s with the same visibility", ro.Row.brief(), ro.Row.Project(e.pk).brief())
			}
		}
		if ro.Op == OpUpdateInsert && (i == 0 || rows[i-1].Op != OpUpdateDelete) {
			return inputErr(i, "U+%s must follow a U- of the same key", ro.Row.brief())
		}
		if !ro.Visible {
			continue // an invisible row is not part of the change
		}
		k := ro.Row.Project(e.pk).key()
		cur, exists := lookup(ro.Row)
		switch {
		case ro.Op.IsInsert() && exists && ro.Op == OpInsert:
			return inputErr(i, "inserts pk %s, which the upstream already holds as %s", ro.Row.Project(e.pk).brief(), cur.brief())
		case ro.Op.IsInsert():
			r := ro.Row
			overlay[k] = &r
		case !exists:
			return inputErr(i, "deletes %s, which the upstream does not hold", ro.Row.brief())
		case !cur.Equal(ro.Row):
			return inputErr(i, "deletes %s, but the upstream holds %s", ro.Row.brief(), cur.brief())
		default:
			overlay[k] = nil
		}
	}
	return nil
}

// placeChunk places each row of a chunk being delivered once, for applyToUpstream and the
// phase that handles the chunk (e.placed[i], -1 for a row on a vnode not owned).
func (e *Engine) placeChunk(rows []RowOp) {
	if e.scale.preplaced {
		return
	}
	e.scale.placed = e.scale.placed[:0]
	for _, ro := range rows {
		vi, _ := e.vnodeIndex(ro.Row)
		e.scale.placed = append(e.scale.placed, vi)
	}
}

// applyToUpstream records a delivered chunk's visible changes in the upstream's content.
func (e *Engine) applyToUpstream(rows []RowOp) {
	// while no vnode has started (and the snapshot has not ended), no row is passed
	passing := e.snapshotFinished || e.progress != nil && e.tally.byState[NotStarted] < len(e.owned)
	for i, ro := range rows {
		if !ro.Visible {
			continue
		}
		vi := e.scale.placed[i]
		if ro.Op.IsInsert() {
			e.world.upstream.putPK(vi, ro.Row)
		} else {
			e.world.upstream.deletePK(vi, ro.Row)
		}
		if passing && e.passedIn(vi, ro.Row) { // a change past pos changes neither side of the vnode's check
			e.touch(vi, ro.Row)
		}
	}
}

// ownedBrief lists the owned vnodes, or counts them when there are many.
func (e *Engine) ownedBrief() string {
	if len(e.owned) > 16 {
		return fmt.Sprintf("%d of %d vnodes", len(e.owned), e.cfg.VnodeCount)
	}
	return fmt.Sprint(e.owned)
}
