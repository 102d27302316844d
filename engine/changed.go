package engine

import (
	"slices"

	"github.com/backfill-explainer/explainer/internal/persist"
)

// PanelChanges is what a step changed in the panels made of the engine's private state (the
// view's `changed`, `changed_vnodes` and `added_rows` for them; package timeline compares the
// rest from the read-outs and puts them together). Each list of vnodes is in vnode order.
type PanelChanges struct {
	Buffer, Outputs                                          bool
	Builders, Progress, Snapshot, StateTable, ProgressTable  []int
	ProgressTableDurable                                     []int
	SnapshotChanged, StateTableChanged, ProgressTableChanged bool
	UpstreamAdded, DownstreamAdded                           []Row
	UpstreamChanged, DownstreamChanged                       bool
}

// Before is what the view's panels showed before a step: enough to tell, after it, what the
// step changed. It keeps shared copies of the per-vnode structures (copy-on-write: a copy costs
// a pointer per directory of vnodes), and a copy of the snapshot stream's cursor; rows are never
// copied.
type Before struct {
	step      int
	upstream  *rowset
	down      *rowset
	snap      *Snapshot // the stream (its identity)
	snapAt    Snapshot  // and its cursor, as it was
	buffer    int
	bufFirst  int
	bufLast   int
	builders  *persist.Vec[OwnedIndex, builder]
	progress  *persist.Vec[OwnedIndex, VnodeProgress]
	committed *persist.Vec[OwnedIndex, persist.Seq[Row]]
	pending   int
	lastWrite write
	stEpoch   int64
	durEpoch  int64
	progTab   *persist.Vec[OwnedIndex, *ProgressRow]
	durProg   *ProgressTable
	outputs   int
}

// Step is the step count the record was made at.
func (b *Before) Step() int { return b.step }

// Record notes what the panels show now, before a step is applied to e (Changes compares).
func (e *Engine) Record() *Before {
	b := &Before{
		step: e.step, upstream: e.world.upstream, down: e.world.down,
		snap: e.snap, buffer: len(e.buffer), committed: e.state.committed.Share(), pending: len(e.state.pending),
		stEpoch: e.state.epoch, durEpoch: e.dur.epoch, progTab: e.progTab.rows.Share(),
		durProg: e.dur.progress, outputs: len(e.outputs),
	}
	if e.progress != nil {
		b.progress = e.progress.Share()
	}
	if e.builders != nil {
		b.builders = e.builders.Share()
	}
	if e.snap != nil {
		b.snapAt = *e.snap
	}
	if n := len(e.buffer); n > 0 {
		b.bufFirst, b.bufLast = e.buffer[0].step, e.buffer[n-1].step
	}
	if n := len(e.state.pending); n > 0 {
		b.lastWrite = e.state.pending[n-1]
	}
	return b
}

// Changes compares the panels of the private state now with what b recorded before the step s
// was applied.
func (e *Engine) Changes(b *Before, s Step) PanelChanges {
	var c PanelChanges
	c.Outputs = len(e.outputs) != b.outputs
	c.Buffer = e.bufferChanged(b)
	c.Builders = changedAt(e, e.builders, b.builders, func(now, was builder) bool {
		// rows are only appended, or all emitted at once; a builder refilled after being
		// emitted in the same step ends on a later row
		return now.len() == was.len() && (was.len() == 0 || now.last().Equal(was.last()))
	})
	c.Progress = changedAt(e, e.progress, b.progress, sameProgress)
	c.SnapshotChanged, c.Snapshot = e.snapshotChanged(b)
	c.StateTableChanged, c.StateTable = e.stateTableChanged(b)
	c.ProgressTableChanged, c.ProgressTable, c.ProgressTableDurable = e.progressTableChanged(b)
	c.UpstreamAdded, c.UpstreamChanged = e.upstreamAdded(b, s)
	c.DownstreamAdded, c.DownstreamChanged = e.downstreamAdded(b)
	c.DownstreamChanged = c.DownstreamChanged || e.dur.epoch != b.durEpoch
	sortRows(c.UpstreamAdded)
	sortRows(c.DownstreamAdded)
	return c
}

// changedAt lists the vnodes whose element of now differs from was's by same (every vnode when
// one of now and was is nil and the other not).
func changedAt[T any](e *Engine, now, was *persist.Vec[OwnedIndex, T], same func(a, b T) bool) []int {
	var vs []int
	if (now == nil) != (was == nil) {
		return slices.Clone(e.owned)
	}
	persist.Changes(now, was, func(vi OwnedIndex) {
		if !same(now.At(vi), was.At(vi)) {
			vs = append(vs, e.owned[vi])
		}
	})
	return vs
}

// bufferChanged: the buffer only grows by one chunk or is emptied within a step.
func (e *Engine) bufferChanged(b *Before) bool {
	if len(e.buffer) != b.buffer {
		return true
	}
	return b.buffer > 0 && (e.buffer[0].step != b.bufFirst || e.buffer[len(e.buffer)-1].step != b.bufLast)
}

// snapshotChanged: a new stream, or lanes that moved or whose shown pos moved. A lane of a new
// stream changed when its rows, its cursor or its pos differ from the old stream's lane.
func (e *Engine) snapshotChanged(b *Before) (changed bool, vs []int) {
	switch {
	case e.snap != b.snap && (e.snap == nil || b.snap == nil):
		changed = true
		for _, st := range []*Snapshot{e.snap, &b.snapAt} {
			if st != nil && st.version != nil {
				for _, l := range st.laneStates() {
					vs = append(vs, e.owned[l.vi])
				}
			}
		}
		slices.Sort(vs)
		vs = slices.Compact(vs)
	case e.snap != nil:
		changed = e.snap != b.snap // a new stream: its epoch and the step it opened at differ
		// (both lists are in vnode order: walked side by side, a lane in one only changed)
		was, now := b.snapAt.laneStates(), e.snap.laneStates()
		for i, j := 0, 0; i < len(was) || j < len(now); {
			vi := OwnedIndex(-1)
			switch {
			case i == len(was) || j < len(now) && now[j].vi < was[i].vi:
				vi = now[j].vi
				j++
			case j == len(now) || was[i].vi < now[j].vi:
				vi = was[i].vi
				i++
			default:
				if !now[j].same(was[i]) || !sameLanePos(lanePos(e.progress, now[j].vi), lanePos(b.progress, now[j].vi)) {
					vi = now[j].vi
				}
				i, j = i+1, j+1
			}
			if vi >= 0 {
				changed = true
				vs = append(vs, e.owned[vi])
			}
		}
		slices.Sort(vs)
	}
	return changed, vs
}

// stateTableChanged: committed versions are replaced, never changed in place; pending writes
// are only appended within a step, or all committed.
func (e *Engine) stateTableChanged(b *Before) (bool, []int) {
	changed := e.state.epoch != b.stEpoch || e.dur.epoch != b.durEpoch || len(e.state.pending) != b.pending
	if !changed && b.pending > 0 {
		w := e.state.pending[len(e.state.pending)-1]
		changed = w.put != b.lastWrite.put || w.vi != b.lastWrite.vi || !w.row.Equal(b.lastWrite.row)
	}
	vs := changedAt(e, e.state.committed, b.committed, sameRows)
	return changed || len(vs) > 0, vs
}

// progressTableChanged: rows are replaced, never changed in place; the durable table is a copy
// made at a checkpoint.
func (e *Engine) progressTableChanged(b *Before) (changed bool, vs, durable []int) {
	vs = changedAt(e, e.progTab.rows, b.progTab, sameProgressRow)
	if e.dur.progress != b.durProg {
		durable = changedAt(e, e.dur.progress.rows, b.durProg.rows, sameProgressRow)
	}
	return e.dur.epoch != b.durEpoch || len(vs) > 0 || len(durable) > 0, vs, durable
}

// upstreamAdded: the upstream's content changes only by a chunk's visible rows or by a recovery.
func (e *Engine) upstreamAdded(b *Before, s Step) ([]Row, bool) {
	if e.world.upstream != b.upstream {
		added := addedRows(e.world.upstream, b.upstream)
		return added, len(added) > 0 || len(addedRows(b.upstream, e.world.upstream)) > 0
	}
	if s.Kind != EventChunk {
		return nil, false
	}
	var deltas rowDeltas
	for _, r := range s.Chunk {
		if r.Visible {
			deltas.add(e, r.Row, r.Op.IsInsert())
		}
	}
	return deltas.effect(e.world.upstream)
}

// downstreamAdded: downstream changes only by the visible rows this step emitted or by a recovery.
func (e *Engine) downstreamAdded(b *Before) ([]Row, bool) {
	if e.world.down != b.down {
		added := addedRows(e.world.down, b.down)
		return added, len(added) > 0 || len(addedRows(b.down, e.world.down)) > 0
	}
	var deltas rowDeltas
	for _, o := range e.outputs[b.outputs:] {
		for _, r := range o.Rows {
			if r.Visible {
				deltas.add(e, r.Row, r.Op.IsInsert())
			}
		}
	}
	return deltas.effect(e.world.down)
}

// lanePos is the pos a snapshot lane shows for owned index vi under progress (nil while not
// started, or when progress is nil or shorter).
func lanePos(progress *persist.Vec[OwnedIndex, VnodeProgress], vi OwnedIndex) Row {
	if progress != nil && int(vi) < progress.Len() && progress.At(vi).State != NotStarted {
		return progress.At(vi).Pos
	}
	return nil
}

func sameLanePos(a, b Row) bool { return (a == nil) == (b == nil) && a.Equal(b) }

func sameProgress(a, b VnodeProgress) bool {
	return a.State == b.State && a.Rows == b.Rows && (a.Pos == nil) == (b.Pos == nil) && a.Pos.Equal(b.Pos)
}

func sameProgressRow(a, b *ProgressRow) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.Vnode == b.Vnode && a.Finished == b.Finished && a.Rows == b.Rows && a.Pos.Equal(b.Pos)
}

// sameRows compares two committed versions of a vnode: the same tree, or equal rows.
func sameRows(a, b persist.Seq[Row]) bool {
	return a.Len() == b.Len() && (a.Len() == 0 || a.Same(b) || sameFrom(a, 0, b, 0))
}

// sameFrom reports whether a's rows from index i on equal b's from index j on (as many).
func sameFrom(a persist.Seq[Row], i int, b persist.Seq[Row], j int) bool {
	ca, cb := persist.NewCursor(a, a.Len()), persist.NewCursor(b, b.Len())
	for range i {
		ca.Next()
	}
	for range j {
		cb.Next()
	}
	for ; ca.Ok(); ca.Next() {
		if !ca.Cur().Equal(cb.Cur()) {
			return false
		}
		cb.Next()
	}
	return true
}

// rowDeltas adds up a step's changes to a row set, row by row.
type rowDeltas struct {
	vis   []OwnedIndex
	rows  []Row
	delta []int
}

func (d *rowDeltas) add(e *Engine, r Row, insert bool) {
	vi, _ := e.vnodeIndex(r)
	if vi < 0 {
		return
	}
	n := -1
	if insert {
		n = 1
	}
	for i := range d.rows {
		if d.vis[i] == vi && d.rows[i].Equal(r) {
			d.delta[i] += n
			return
		}
	}
	d.vis, d.rows, d.delta = append(d.vis, vi), append(d.rows, r), append(d.delta, n)
}

// effect reports, for a row set the deltas were applied to, the rows it now shows more often
// than before and whether what it shows changed at all (it shows rows with a positive count).
func (d *rowDeltas) effect(s *rowset) (added []Row, changed bool) {
	for i, r := range d.rows {
		if d.delta[i] == 0 {
			continue
		}
		now := s.count(d.vis[i], r)
		was := now - d.delta[i]
		if max(now, 0) != max(was, 0) {
			changed = true
		}
		for k := max(was, 0); k < now; k++ {
			added = append(added, r)
		}
	}
	return added, changed
}

// addedRows lists the rows a shows more often than b (both hold the same vnodes).
func addedRows(a, b *rowset) []Row {
	var out []Row
	persist.Changes(a.parts, b.parts, func(vi OwnedIndex) {
		pa, pb := a.part(vi), b.part(vi)
		if pa.Same(pb) {
			return // the same version of this vnode
		}
		cb := persist.NewCursor(pb, pb.Len())
		for ca := persist.NewCursor(pa, pa.Len()); ca.Ok(); ca.Next() {
			en := ca.Cur()
			for cb.Ok() && a.cmp(cb.Cur().row, en.row) < 0 {
				cb.Next()
			}
			n := 0
			if cb.Ok() && a.cmp(cb.Cur().row, en.row) == 0 {
				n = max(cb.Cur().count, 0)
			}
			for k := n; k < en.count; k++ {
				out = append(out, en.row)
			}
		}
	})
	return out
}

// laneState is what the view shows of one snapshot lane: its rows and its cursor.
type laneState struct{ lane }

// laneStates lists the lanes the view shows (one per vnode not Completed when the stream
// opened, in vnode order), each as the stream has it now: a lane it has reached, the lane it
// will read, or an empty one.
func (s *Snapshot) laneStates() []laneState {
	reached := s.lanes()
	out := make([]laneState, 0, len(reached))
	k := 0
	for vi := range OwnedIndex(len(s.owned)) {
		if s.progress.At(vi).State == Completed {
			continue
		}
		var l lane
		switch {
		case k < len(reached) && reached[k].vi == vi:
			l = reached[k]
			k++
		case vi > s.reached() && s.unread.Has(vi):
			l = s.laneAt(vi)
		default:
			l = lane{vi: vi, vnode: s.owned[vi]}
		}
		out = append(out, laneState{l})
	}
	return out
}

// same reports whether two states of a lane show the same rows and cursor.
func (l laneState) same(o laneState) bool {
	if l.total() != o.total() || l.next-l.first != o.next-o.first {
		return false
	}
	return l.total() == 0 || l.rows.Same(o.rows) && l.first == o.first || sameFrom(l.rows, l.first, o.rows, o.first)
}
