package engine

import (
	"encoding/binary"
	"strconv"
)

// keyWriter builds a canonical encoding of an engine's state for the explorer's de-duplication.
type keyWriter []byte

func (k *keyWriter) int(n int64)  { *k = strconv.AppendInt(append(*k, '|'), n, 36) }
func (k *keyWriter) str(s string) { k.int(int64(len(s))); *k = append(append(*k, ':'), s...) }
func (k *keyWriter) bool(b bool) {
	if b {
		k.int(1)
	} else {
		k.int(0)
	}
}
func (k *keyWriter) row(r Row) { k.str(r.key()) }
func (k *keyWriter) rows(rs []Row) {
	k.int(int64(len(rs)))
	for _, r := range rs {
		k.row(r)
	}
}

// digest writes a sum of digests (see pseq's digest).
func (k *keyWriter) digest(d digest) {
	*k = append(*k, '#')
	*k = binary.LittleEndian.AppendUint64(*k, d.lo)
	*k = binary.LittleEndian.AppendUint64(*k, d.hi)
}

// rowDigest and entryDigest hash a row and a row set's entry; heldDigest hashes only entries
// held (a positive count), for what downstream holds in an outcome.
var (
	rowDigest   = itemDigest[Row]{0, sumRows}
	entryDigest = itemDigest[rsEntry]{0, sumEntries}
	heldDigest  = itemDigest[rsEntry]{1, sumHeld}
)

func sumRows(rs []Row) digest {
	var d digest
	for _, r := range rs {
		d = d.add(digestRow(r, 0))
	}
	return d
}

func sumEntries(es []rsEntry) digest {
	var d digest
	for i := range es {
		d = d.add(digestRow(es[i].row, es[i].count))
	}
	return d
}

func sumHeld(es []rsEntry) digest {
	var d digest
	for i := range es {
		if es[i].count > 0 {
			d = d.add(digestRow(es[i].row, es[i].count))
		}
	}
	return d
}

// seq writes the rows of s from index from on: their number and the sum of their digests (the
// rows are in pk order, so the sum tells which rows they are).
func (k *keyWriter) seq(s pseq[Row], from int) {
	k.int(int64(s.len() - from))
	k.digest(s.sumFrom(from, rowDigest))
}
func (k *keyWriter) rowset(s *rowset) {
	for vi, p := range s.parts.present() {
		if p.len() == 0 {
			continue
		}
		k.int(int64(vi))
		k.int(int64(p.len()))
		k.digest(p.sumFrom(0, entryDigest))
	}
	k.int(-1)
}
func (k *keyWriter) committed(v *pvec[pseq[Row]]) {
	for vi, p := range v.present() {
		if p.len() > 0 {
			k.int(int64(vi))
			k.seq(p, 0)
		}
	}
	k.int(-1)
}
func (k *keyWriter) progressTable(t *ProgressTable) {
	t.each(func(vi int, r *ProgressRow) bool {
		k.int(int64(vi))
		k.row(r.Pos)
		k.bool(r.Finished)
		k.int(r.Rows)
		return true
	})
	k.int(-1)
}

// appendStateKey encodes everything that decides what the engine does and shows from here on, but
// not its history (outputs, narration): two paths to an equal key have equal futures.
func (e *Engine) appendStateKey(k *keyWriter) {
	k.int(int64(e.phase))
	k.int(e.lastEpoch)
	k.int(e.epoch)
	k.bool(e.upEnded)
	k.bool(e.snapshotFinished)
	if e.failure != nil {
		k.str(e.failure.Message)
	}
	k.str(e.inv.Status)
	k.bool(e.progress != nil)
	e.startedVnodes(func(vi int, p VnodeProgress) bool {
		k.int(int64(vi))
		k.int(int64(p.State))
		k.row(p.Pos)
		k.int(p.Rows)
		return true
	})
	k.int(-1)
	k.bool(e.builders != nil)
	e.nonEmptyBuilders(func(vi int, b builder) {
		k.int(int64(vi))
		k.int(int64(b.len()))
		k.digest(b.sum())
	})
	k.int(-1)
	k.int(int64(len(e.buffer)))
	for _, c := range e.buffer {
		k.int(int64(len(c.rows)))
		for _, r := range c.rows {
			k.int(int64(r.Op))
			k.row(r.Row)
		}
		k.int(int64(len(c.marked)))
		for _, o := range c.marked {
			k.bool(o.Visible)
		}
	}
	if e.snap != nil {
		k.int(e.snap.epoch)
		k.bool(e.snap.ended)
		// every row still to read, lane by lane: the lanes before the current one are read to
		// their end; the current one's rest; then each vnode after it with rows to read
		s := e.snap
		if l := s.cur; s.reached() >= 0 && l.next < l.rows.len() {
			k.int(int64(l.vnode))
			k.seq(l.rows, l.next)
		}
		for vi := s.unread.next(s.reached() + 1); vi >= 0; vi = s.unread.next(vi + 1) {
			l := s.laneAt(vi)
			k.int(int64(l.vnode))
			k.seq(l.rows, l.next)
		}
	} else {
		k.int(-1)
	}
	k.int(e.state.epoch)
	k.committed(e.state.committed)
	for _, w := range e.state.pending {
		k.bool(w.put)
		k.row(w.row)
	}
	k.progressTable(e.progTab)
	k.int(e.dur.epoch)
	k.committed(e.dur.state)
	k.progressTable(e.dur.progress)
	k.rowset(e.dur.down)
	k.rowset(e.dur.upstream)
	k.rowset(e.down)
	k.rowset(e.upstream)
}
