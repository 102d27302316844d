package engine

import "math/bits"

// bitset is a set of owned-vnode indices in a copy-on-write pvec of 64-bit words; next skips a
// page of 8192 absent vnodes in one step.
type bitset struct{ words *pvec[uint64] }

func newBitset(n int) bitset { return bitset{newPvec[uint64]((n + 63) / 64)} }

func (b bitset) share() bitset { return bitset{b.words.share()} }

func (b bitset) has(i int) bool { return b.words.at(i>>6)&(1<<(i&63)) != 0 }

func (b bitset) put(i int, on bool) {
	w := b.words.at(i >> 6)
	nw := w &^ (1 << (i & 63))
	if on {
		nw |= 1 << (i & 63)
	}
	if nw != w {
		b.words.set(i>>6, nw)
	}
}

// next returns the smallest member ≥ from, or -1.
func (b bitset) next(from int) int {
	for w := from >> 6; w < b.words.len(); {
		if !b.words.hasPage(w >> pageBits) {
			w = (w>>pageBits + 1) << pageBits
			continue
		}
		x := b.words.at(w)
		if w == from>>6 {
			x &= ^uint64(0) << (from & 63)
		}
		if x != 0 {
			return w<<6 + bits.TrailingZeros64(x)
		}
		w++
	}
	return -1
}

// What the snapshot has left to read is kept up to date as the state table and the progress
// change, so that opening (or refreshing) a snapshot stream costs nothing per vnode: unread
// holds the vnodes not Completed with committed rows past their pos, unreadRows counts those
// rows. Both are kept only while the progress is loaded.

// unreadOf counts a vnode's committed rows past its pos (0 for a Completed vnode).
func (e *Engine) unreadOf(vi int) int {
	p := e.progress.at(vi)
	rows := e.state.rows(vi)
	switch p.State {
	case Completed:
		return 0
	case InProgress:
		_, first := e.state.rowsAfter(vi, p.Pos)
		return rows.len() - first
	}
	return rows.len()
}

// countUnread computes unread and unreadRows from the state table and the progress.
func (e *Engine) countUnread() {
	e.unread, e.unreadRows = newBitset(len(e.owned)), 0
	for vi, rows := range e.state.committed.present() {
		if rows.len() == 0 {
			continue
		}
		if n := e.unreadOf(vi); n > 0 {
			e.unread.put(vi, true)
			e.unreadRows += n
		}
	}
}

// noteCommitted is told of each committed write: d is +1 for a new row, -1 for a deleted one,
// 0 for a row replaced.
func (e *Engine) noteCommitted(vi int, row Row, d int) {
	if e.progress == nil || d == 0 {
		return
	}
	switch p := e.progress.at(vi); {
	case p.State == Completed:
		return
	case p.State == InProgress && comparePK(row, p.Pos, e.pk) <= 0:
		return
	}
	e.unreadRows += d
	if d > 0 {
		e.unread.put(vi, true) // the new row is past pos: unread
		return
	}
	e.unread.put(vi, e.unreadOf(vi) > 0)
}

// commitState commits the state table's pending writes, keeping the unread counts.
func (e *Engine) commitState(epoch int64) { e.state.commit(epoch, e.noteCommitted) }
