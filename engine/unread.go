package engine

import "github.com/backfill-explainer/explainer/internal/persist"

// What the snapshot has left to read is kept up to date as the state table and the progress
// change, so that opening (or refreshing) a snapshot stream costs nothing per vnode: unread
// holds the vnodes not Completed with committed rows past their pos, unreadRows counts those
// rows. Both are kept only while the progress is loaded.

// unreadOf counts a vnode's committed rows past its pos (0 for a Completed vnode).
func (e *Engine) unreadOf(vi OwnedIndex) int {
	p := e.progress.At(vi)
	rows := e.state.rows(vi)
	switch p.State {
	case Completed:
		return 0
	case InProgress:
		_, first := e.state.rowsAfter(vi, p.Pos)
		return rows.Len() - first
	}
	return rows.Len()
}

// countUnread computes unread and unreadRows from the state table and the progress.
func (e *Engine) countUnread() {
	e.tally.unread, e.tally.unreadRows = persist.NewBitset[OwnedIndex](len(e.owned)), 0
	for vi, rows := range e.state.committed.Present() {
		if rows.Len() == 0 {
			continue
		}
		if n := e.unreadOf(vi); n > 0 {
			e.tally.unread.Put(vi, true)
			e.tally.unreadRows += n
		}
	}
}

// noteCommitted is told of each committed write: d is +1 for a new row, -1 for a deleted one,
// 0 for a row replaced.
func (e *Engine) noteCommitted(vi OwnedIndex, row Row, d int) {
	if e.progress == nil || d == 0 {
		return
	}
	switch p := e.progress.At(vi); {
	case p.State == Completed:
		return
	case p.State == InProgress && comparePK(row, p.Pos, e.pk) <= 0:
		return
	}
	e.tally.unreadRows += d
	if d > 0 {
		e.tally.unread.Put(vi, true) // the new row is past pos: unread
		return
	}
	e.tally.unread.Put(vi, e.unreadOf(vi) > 0)
}

// commitState commits the state table's pending writes, keeping the unread counts.
func (e *Engine) commitState(epoch int64) { e.state.commit(epoch, e.noteCommitted) }
