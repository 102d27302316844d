package engine

import "github.com/backfill-explainer/explainer/internal/persist"

// write is one uncommitted change to the state table.
type write struct {
	put bool // + / U+ put the row; - / U- delete it by pk
	vi  OwnedIndex
	row Row
}

// StateTable models the locality provider's state table: all input columns, pk = locality ++
// stream key, rows of each owned vnode kept in pk order. Committed versions are copy-on-write
// (a persist.Vec of vnodes, each a persist.Seq of rows): a commit never changes what an earlier
// version, or a snapshot stream opened at it, reads, and it copies only the leaves and pages it
// touches.
type StateTable struct {
	pk        []int
	committed *persist.Vec[OwnedIndex, persist.Seq[Row]] // each vnode's rows sorted by pk
	pending   []write
	epoch     int64 // epoch of the last commit
}

func newStateTable(pk []int, owned int) *StateTable {
	return &StateTable{pk: pk, committed: persist.NewVec[OwnedIndex, persist.Seq[Row]](owned)}
}

func (t *StateTable) clone() *StateTable {
	c := *t
	c.committed = t.committed.Share()
	c.pending = append([]write(nil), t.pending...)
	return &c
}

// version returns the committed rows (shared, read-only).
func (t *StateTable) version() *persist.Vec[OwnedIndex, persist.Seq[Row]] { return t.committed.Share() }

// restore replaces the committed rows by an earlier version and drops pending writes.
func (t *StateTable) restore(v *persist.Vec[OwnedIndex, persist.Seq[Row]], epoch int64) {
	t.committed = v.Share()
	t.pending = nil
	t.epoch = epoch
}

// rows returns a vnode's committed rows, to read now (to keep them, freeze first).
func (t *StateTable) rows(vi OwnedIndex) persist.Seq[Row] { return t.committed.At(vi) }

// freeze makes the committed rows read-only: what a caller holds of them now (a snapshot
// stream's lanes) no later commit changes.
func (t *StateTable) freeze() { t.committed.Freeze() }

func (t *StateTable) write(put bool, vi OwnedIndex, row Row) {
	t.pending = append(t.pending, write{put: put, vi: vi, row: row})
}

// search finds the index of the first row in rows whose pk is ≥ key.
func (t *StateTable) search(rows persist.Seq[Row], key Row) (int, bool) {
	i := rows.Search(func(r Row) bool { return comparePK(r, key, t.pk) >= 0 })
	return i, i < rows.Len() && comparePK(rows.At(i), key, t.pk) == 0
}

// comparePK compares a full row's pk with a pk tuple.
func comparePK(row Row, key Row, pk []int) int {
	for i, c := range pk {
		if r := Compare(row[c], key[i]); r != 0 {
			return r
		}
	}
	return 0
}

// commit applies the pending writes, copying only the pages and leaves they touch. note (if not
// nil) is told of each write that changed a vnode: d is +1 for a new row, -1 for a deleted
// one, 0 for a replaced one.
func (t *StateTable) commit(epoch int64, note func(vi OwnedIndex, row Row, d int)) {
	t.epoch = epoch
	for ws := t.pending; len(ws) > 0; {
		k := min(len(ws), commitSlice)
		t.applyAll(ws[:k], note)
		ws = ws[k:]
	}
	clear(t.pending)
	t.pending = t.pending[:0]
}

// commitSlice is how many writes one call of applyAll commits. A commit of a buffering epoch
// may hold hundreds of thousands: one call over all of them would run them unoptimized under
// WebAssembly, where V8 has no on-stack replacement (a call runs the code it started with to
// its end; the optimized code made for a hot function serves only later calls).
const commitSlice = 1024

// applyAll commits writes in their order.
//
//go:noinline
func (t *StateTable) applyAll(ws []write, note func(vi OwnedIndex, row Row, d int)) {
	for i := range ws {
		t.apply(&ws[i], note)
	}
}

// apply commits one write. Writes come in any order of vnodes, and each vnode's in pk order
// more often than not: an insert after every row is appended.
func (t *StateTable) apply(w *write, note func(vi OwnedIndex, row Row, d int)) {
	tag := t.committed.Tag()
	rows := t.committed.At(w.vi)
	if tail, ok := rows.Tail(tag); w.put && ok && pkBefore(tail.Last(), w.row, t.pk) {
		// the usual insert, past the vnode's last row (the last of its last leaf), where that leaf
		// has room: append in place
		tail.Append(w.row)
		if note != nil {
			note(w.vi, w.row, 1)
		}
		return
	}
	if w.put && (rows.Len() == 0 || compareRowsPK(rows.Last(), w.row, t.pk) < 0) {
		// a root changed in place is already stored (see rowset.setPart)
		if now := rows.Push(tag, w.row); !now.Same(rows) {
			t.committed.Set(w.vi, now)
		}
		if note != nil {
			note(w.vi, w.row, 1)
		}
		return
	}
	i := rows.Search(func(r Row) bool { return compareRowsPK(r, w.row, t.pk) >= 0 })
	found := i < rows.Len() && compareRowsPK(rows.At(i), w.row, t.pk) == 0
	var d int
	switch {
	case w.put && found:
		rows = rows.Set(tag, i, w.row)
	case w.put:
		rows, d = rows.Insert(tag, i, w.row), 1
	case found:
		rows, d = rows.Remove(tag, i), -1
	default:
		return
	}
	t.committed.Set(w.vi, rows)
	if note != nil {
		note(w.vi, w.row, d)
	}
}

// compareRowsPK compares two full rows by their pk columns.
func compareRowsPK(a, b Row, pk []int) int {
	for _, c := range pk {
		x, y := &a[c], &b[c]
		if x.Kind == KindInt && y.Kind == KindInt { // the usual case, without a call
			if x.I != y.I {
				if x.I < y.I {
					return -1
				}
				return 1
			}
			continue
		}
		if r := Compare(*x, *y); r != 0 {
			return r
		}
	}
	return 0
}

// rowsAfter returns the committed rows of a vnode and the index of the first one whose pk is
// > pos (0 when pos is nil). Freeze first to keep them.
func (t *StateTable) rowsAfter(vi OwnedIndex, pos Row) (persist.Seq[Row], int) {
	rows := t.rows(vi)
	if pos == nil {
		return rows, 0
	}
	return rows, rows.Search(func(r Row) bool { return comparePK(r, pos, t.pk) > 0 })
}

// latestIndex maps each pk the pending writes touch to the row it will hold once they are
// committed (nil: deleted). Marking a barrier's buffer looks keys up in it.
type latestIndex map[string]Row

// pendingIndex indexes the pending writes (the last write of a pk wins).
func (t *StateTable) pendingIndex() latestIndex {
	idx := make(latestIndex, len(t.pending))
	for _, w := range t.pending {
		var r Row
		if w.put {
			r = w.row
		}
		idx[w.row.Project(t.pk).key()] = r
	}
	return idx
}

// latest returns the row the state table holds for a pk once its pending writes (indexed in
// idx) are committed.
func (t *StateTable) latest(idx latestIndex, vi OwnedIndex, key Row) (Row, bool) {
	if r, ok := idx[key.key()]; ok {
		return r, r != nil
	}
	rows := t.rows(vi)
	if i, found := t.search(rows, key); found {
		return rows.At(i), true
	}
	return nil, false
}
