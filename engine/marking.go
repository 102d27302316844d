package engine

import "fmt"

// mark sets each row's visibility by its vnode's progress (LP:370-403): Completed → visible,
// NotStarted → hidden, InProgress → visible iff pk ≤ pos. Ops and rows are never changed. Each
// row's Why starts with the reason for its visibility; explainMarked adds, at the barrier, what
// then really becomes of it. onArrival words the reason for bug mode mark-on-arrival, which
// marks a chunk when it arrives.
func (e *Engine) mark(rows []RowOp, onArrival bool) []OutRow {
	out := make([]OutRow, len(rows))
	is, has, at := "is", "has", "vnode"
	if onArrival {
		is, has, at = "was", "had", "on arrival, vnode"
	}
	for i, r := range rows {
		vi, v := e.vnodeIndex(r.Row)
		p := e.progress.At(vi)
		o := OutRow{Op: r.Op, Row: r.Row, Vnode: v}
		if !e.explains() {
			o.Visible = p.State == Completed || p.State == InProgress &&
				(comparePK(r.Row, p.Pos, e.pk) <= 0 || e.cfg.Bug == BugEmitBeyondPos)
			out[i] = o
			continue
		}
		pk := r.Row.Project(e.pk)
		name := r.Op.String() + r.Row.String()
		switch p.State {
		case Completed:
			o.Visible = true
			o.Why = fmt.Sprintf("%s visible: %s %d %s completed, so downstream sees every change to it", name, at, v, is)
		case NotStarted:
			o.Why = fmt.Sprintf("%s hidden: %s %d %s not started", name, at, v, has)
		default:
			switch {
			case CompareRows(pk, p.Pos) <= 0:
				o.Visible = true
				o.Why = fmt.Sprintf("%s visible: %s %d %s in progress at %s and %s ≤ %s: the snapshot %s passed this key, so downstream must see the change now", name, at, v, is, p.Pos, pk, p.Pos, has)
			case e.cfg.Bug == BugEmitBeyondPos:
				o.Visible = true
				o.Why = fmt.Sprintf("%s visible [bug mode emit-beyond-pos]: vnode %d is in progress at %s and %s > %s, yet the row is emitted now, before the snapshot has reached this key", name, v, p.Pos, pk, p.Pos)
			default:
				o.Why = fmt.Sprintf("%s hidden: %s %d %s in progress at %s and %s > %s", name, at, v, is, p.Pos, pk, p.Pos)
			}
		}
		out[i] = o
	}
	return out
}

// explainMarked adds to each marked row's reason what really becomes of it in this run: a
// hidden row's fate, and a row the bug mode emit-beyond-pos emits early.
func (e *Engine) explainMarked(out []OutRow, written bool) {
	if !e.explains() {
		return
	}
	if e.tally.pendingIdx == nil {
		e.tally.pendingIdx = e.state.pendingIndex()
	}
	for i := range out {
		o := &out[i]
		r := RowOp{Op: o.Op, Row: o.Row, Visible: true}
		switch {
		case !o.Visible:
			o.Why += "; " + e.hiddenFate(r, written)
		case e.cfg.Bug == BugEmitBeyondPos && e.beyondPos(r):
			o.Why += "; " + e.earlyFate(r)
		}
	}
}

// beyondPos reports whether a row lies past its in-progress vnode's pos.
func (e *Engine) beyondPos(r RowOp) bool {
	vi, _ := e.vnodeIndex(r.Row)
	p := e.progress.At(vi)
	return p.State == InProgress && CompareRows(r.Row.Project(e.pk), p.Pos) > 0
}

// posAfterDrain is a vnode's progress once the builders are drained: the drain moves an
// in-progress (or not started) vnode with rows in its builder to the builder's last row. It
// differs from the progress now only while the builders still hold rows (bug mode
// mark-before-drain marks before the drain).
func (e *Engine) posAfterDrain(vi OwnedIndex) (ProgressState, Row) {
	if last, ok := e.builderLast(vi); ok {
		return InProgress, last.Project(e.pk)
	}
	p := e.progress.At(vi)
	return p.State, p.Pos
}

// hiddenFate says what really becomes of a buffered change that is not emitted visible at this
// barrier, given whether the chunk is written to the state table (not in bug mode
// no-state-write).
func (e *Engine) hiddenFate(r RowOp, written bool) string {
	vi, v := e.vnodeIndex(r.Row)
	pk := r.Row.Project(e.pk)
	st, pos := e.posAfterDrain(vi)
	switch {
	case st == Completed:
		return fmt.Sprintf("vnode %d is completed, and the snapshot never reads a completed vnode again, so this change never reaches downstream", v)
	case st == InProgress && CompareRows(pk, pos) <= 0:
		// the marking judged this row against a pos older than the end of the epoch
		if e.cfg.Bug == BugMarkBeforeDrain {
			return fmt.Sprintf("but vnode %d's builder still holds rows up to %s [bug mode mark-before-drain]: the drain moves pos to %s, past this key, and the refreshed snapshot starts after it, so this change is never emitted", v, pos, pos)
		}
		return fmt.Sprintf("but by the barrier the snapshot has passed this key [bug mode %s]: vnode %d's pos is now %s, and the refreshed snapshot starts after it, so this change is never emitted", e.cfg.Bug, v, pos)
	}
	return e.snapshotFate(vi, r, written)
}

// snapshotFate says what becomes of a change whose key the snapshot has not reached yet: it is
// left to the refreshed snapshot, which reads the key's version in the state table once this
// barrier's writes are committed.
func (e *Engine) snapshotFate(vi OwnedIndex, r RowOp, written bool) string {
	if e.barrierFails {
		if !written {
			return "[bug mode no-state-write] the chunk is not written to the state table, and this barrier fails before anything commits (it carries a rescale): no refreshed snapshot follows"
		}
		return "the chunk is written to the state table, but this barrier fails before the state table commits (it carries a rescale), so no refreshed snapshot reads it"
	}
	latest, ok := e.latestVersion(vi, r.Row)
	if written {
		switch {
		case r.Op.IsInsert() && ok && latest.Equal(r.Row):
			return "the chunk is written to the state table, so this row is left to the refreshed snapshot, which reads it from there"
		case r.Op.IsInsert() && ok:
			return fmt.Sprintf("the chunk is written to the state table, where a later change of this epoch replaces this row: the refreshed snapshot reads the key's latest version, %s", latest)
		case r.Op.IsInsert():
			return "the chunk is written to the state table, where a later change of this epoch deletes the key: the refreshed snapshot finds nothing for it"
		case !ok:
			return "the delete is written to the state table, so the refreshed snapshot no longer finds the row"
		case latest.Equal(r.Row):
			return "the state table takes the delete and then this row again (a later change of this epoch), so the refreshed snapshot reads it"
		}
		return fmt.Sprintf("the change is written to the state table, where the key's latest version is %s: the refreshed snapshot reads that instead", latest)
	}
	lead := "[bug mode no-state-write] the chunk is not written to the state table"
	switch {
	case !ok && r.Op.IsInsert():
		return lead + ", which holds nothing for this key, so no snapshot reads this row: this change never reaches downstream"
	case !ok:
		return lead + ", which holds nothing for this key either, so the snapshot has nothing to read for it"
	case latest.Equal(r.Row) && r.Op.IsInsert():
		return lead + ", which already holds this row, so the refreshed snapshot reads it from there"
	case latest.Equal(r.Row):
		return lead + ", which still holds this row, so the refreshed snapshot reads it although the upstream deleted it"
	case r.Op.IsInsert():
		return fmt.Sprintf("%s, which still holds %s for this key, so the refreshed snapshot reads that old version: this change never reaches downstream", lead, latest)
	}
	return fmt.Sprintf("%s, which holds %s for this key, so the refreshed snapshot reads that", lead, latest)
}

// earlyFate says what becomes of a row that bug mode emit-beyond-pos emits although it lies past
// its vnode's pos (the chunk is written to the state table as usual).
func (e *Engine) earlyFate(r RowOp) string {
	if e.barrierFails {
		return "this barrier then fails before the state table commits (it carries a rescale)"
	}
	vi, _ := e.vnodeIndex(r.Row)
	latest, ok := e.latestVersion(vi, r.Row)
	switch {
	case r.Op.IsInsert() && ok && latest.Equal(r.Row):
		return "the chunk is also written to the state table, where the refreshed snapshot reads this row again, to emit it a second time"
	case r.Op.IsInsert() && ok:
		return fmt.Sprintf("the chunk is also written to the state table, where the refreshed snapshot reads the key's latest version, %s, to emit it as well", latest)
	case r.Op.IsInsert():
		return "a later change of this epoch deletes the key in the state table, so the refreshed snapshot finds nothing for it"
	case !ok:
		return "downstream never received this row from the snapshot, which had not reached it, and the refreshed snapshot no longer finds it"
	}
	return fmt.Sprintf("downstream never received this row from the snapshot, which had not reached it, and the refreshed snapshot reads the key's latest version, %s", latest)
}

// latestVersion is the row the state table will hold for r's pk once this barrier's writes are
// committed.
func (e *Engine) latestVersion(vi OwnedIndex, r Row) (Row, bool) {
	if e.tally.pendingIdx == nil {
		e.tally.pendingIdx = e.state.pendingIndex()
	}
	return e.state.latest(e.tally.pendingIdx, vi, r.Project(e.pk))
}

// explains reports whether emitted rows carry their reasons (Why). In scale mode the outputs
// are counted, not kept, and nothing reads a reason: marking then only sets the visibility.
func (e *Engine) explains() bool { return e.scale.counter == nil || e.narration.on }
