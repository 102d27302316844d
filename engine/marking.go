package engine

import "fmt"

// mark sets each row's visibility by its vnode's progress (LP:370-403): Completed → visible,
// NotStarted → hidden, InProgress → visible iff pk ≤ pos. Ops and rows are never changed.
func (e *Engine) mark(rows []RowOp) []OutRow {
	out := make([]OutRow, len(rows))
	for i, r := range rows {
		vi, v := e.vnodeIndex(r.Row)
		p := e.progress.at(vi)
		pk := r.Row.Project(e.pk)
		o := OutRow{Op: r.Op, Row: r.Row, Vnode: v}
		name := r.Op.String() + r.Row.String()
		switch p.State {
		case Completed:
			o.Visible = true
			o.Why = fmt.Sprintf("%s visible: vnode %d is completed, so downstream sees every change to it", name, v)
		case NotStarted:
			o.Why = fmt.Sprintf("%s hidden: vnode %d has not started; %s", name, v, laterSnapshot(r.Op))
		default:
			if CompareRows(pk, p.Pos) <= 0 {
				o.Visible = true
				o.Why = fmt.Sprintf("%s visible: vnode %d is in progress at %s and %s ≤ %s: the snapshot has passed this key, so downstream must see the change now", name, v, p.Pos, pk, p.Pos)
			} else if e.cfg.Bug == BugEmitBeyondPos {
				o.Visible = true
				o.Why = fmt.Sprintf("%s visible [bug mode emit-beyond-pos]: vnode %d is in progress at %s and %s > %s, yet the row is emitted now; the refreshed snapshot will emit it again", name, v, p.Pos, pk, p.Pos)
			} else {
				later := laterSnapshot(r.Op)
				if last, ok := e.builderLast(vi); e.cfg.Bug == BugMarkBeforeDrain && ok {
					later = "but its builder still holds rows up to " + last.Project(e.pk).String() +
						" [bug mode mark-before-drain]: the drain moves pos past them, and a key in between is never emitted"
				}
				o.Why = fmt.Sprintf("%s hidden: vnode %d is in progress at %s and %s > %s; %s", name, v, p.Pos, pk, p.Pos, later)
			}
		}
		out[i] = o
	}
	return out
}

// laterSnapshot says what becomes of a hidden change: the snapshot reads the state table.
func laterSnapshot(op Op) string {
	if op.IsInsert() {
		return "the refreshed snapshot will emit it"
	}
	return "the state table has the delete, so the refreshed snapshot never reads the old row"
}
