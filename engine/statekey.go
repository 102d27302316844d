package engine

import (
	"strconv"

	"github.com/backfill-explainer/explainer/internal/persist"
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

// digest writes a sum of digests (see persist.Digest).
func (k *keyWriter) digest(d persist.Digest) { *k = d.Append(append(*k, '#')) }

// rowDigest and entryDigest hash a row and a row set's entry; heldDigest hashes only entries
// held (a positive count), for what downstream holds in an outcome.
var (
	rowDigest   = persist.ItemDigest[Row]{Slot: 0, Sum: sumRows}
	entryDigest = persist.ItemDigest[rsEntry]{Slot: 0, Sum: sumEntries}
	heldDigest  = persist.ItemDigest[rsEntry]{Slot: 1, Sum: sumHeld}
)

// digestRow hashes a row's values (and a count) a word at a time: equal rows have equal
// digests, and it allocates nothing.
func digestRow(r Row, count int) persist.Digest {
	h := persist.NewHasher()
	for _, v := range r {
		h.Word(uint64(v.Kind) + 0x9e3779b97f4a7c15)
		switch v.Kind {
		case KindInt:
			h.Word(uint64(v.I))
		case KindStr:
			h.Word(uint64(len(v.S)))
			s := v.S
			for len(s) >= 8 {
				h.Word(uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
					uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56)
				s = s[8:]
			}
			var w uint64
			for i := 0; i < len(s); i++ {
				w |= uint64(s[i]) << (8 * i)
			}
			h.Word(w)
		}
	}
	h.Word(uint64(int64(count)))
	return h.Sum()
}

func sumRows(rs []Row) persist.Digest {
	var d persist.Digest
	for _, r := range rs {
		d = d.Add(digestRow(r, 0))
	}
	return d
}

func sumEntries(es []rsEntry) persist.Digest {
	var d persist.Digest
	for i := range es {
		d = d.Add(digestRow(es[i].row, es[i].count))
	}
	return d
}

func sumHeld(es []rsEntry) persist.Digest {
	var d persist.Digest
	for i := range es {
		if es[i].count > 0 {
			d = d.Add(digestRow(es[i].row, es[i].count))
		}
	}
	return d
}

// seq writes the rows of s from index from on: their number and the sum of their digests (the
// rows are in pk order, so the sum tells which rows they are).
func (k *keyWriter) seq(s persist.Seq[Row], from int) {
	k.int(int64(s.Len() - from))
	k.digest(s.SumFrom(from, rowDigest))
}
func (k *keyWriter) rowset(s *rowset) {
	for vi, p := range s.parts.Present() {
		if p.Len() == 0 {
			continue
		}
		k.int(int64(vi))
		k.int(int64(p.Len()))
		k.digest(p.SumFrom(0, entryDigest))
	}
	k.int(-1)
}
func (k *keyWriter) committed(v *persist.Vec[OwnedIndex, persist.Seq[Row]]) {
	for vi, p := range v.Present() {
		if p.Len() > 0 {
			k.int(int64(vi))
			k.seq(p, 0)
		}
	}
	k.int(-1)
}
func (k *keyWriter) progressTable(t *ProgressTable) {
	t.Each(func(vi OwnedIndex, r *ProgressRow) bool {
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
	k.str(e.check.result.Status)
	k.bool(e.progress != nil)
	e.startedVnodes(func(vi OwnedIndex, p VnodeProgress) bool {
		k.int(int64(vi))
		k.int(int64(p.State))
		k.row(p.Pos)
		k.int(p.Rows)
		return true
	})
	k.int(-1)
	k.bool(e.builders != nil)
	e.nonEmptyBuilders(func(vi OwnedIndex, b builder) {
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
		if l := s.cur; s.reached() >= 0 && l.next < l.rows.Len() {
			k.int(int64(l.vnode))
			k.seq(l.rows, l.next)
		}
		for vi := s.unread.Next(s.reached() + 1); vi >= 0; vi = s.unread.Next(vi + 1) {
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
	k.rowset(e.world.down)
	k.rowset(e.world.upstream)
}
