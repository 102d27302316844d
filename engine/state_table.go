package engine

import (
	"slices"
	"sort"
)

// write is one uncommitted change to the state table.
type write struct {
	put bool // + / U+ put the row; - / U- delete it by pk
	vi  int  // owned-vnode index
	row Row
}

// StateTable models the locality provider's state table: all input columns, pk = locality ++
// stream key, rows of each owned vnode kept in pk order. Committed versions are copy-on-write:
// a commit replaces a vnode's slice instead of changing it, so a snapshot stream opened at an
// earlier commit keeps reading the rows as they were.
type StateTable struct {
	pk        []int
	committed [][]Row // per owned-vnode index, sorted by pk; never mutated in place
	pending   []write
	epoch     int64 // epoch of the last commit
	// mine[vi]: committed[vi]'s array has no other writer, so rows may be appended to it in
	// place (readers of earlier versions see only their own length). A clone and a restore
	// clear it.
	mine []bool
	// commit's scratch (never shared: a clone drops it): writes left per vnode, and which
	// vnodes this commit has copied (their arrays have no readers yet).
	counts []int32
	fresh  []bool
}

func newStateTable(pk []int, owned int) *StateTable {
	return &StateTable{pk: pk, committed: make([][]Row, owned)}
}

func (t *StateTable) clone() *StateTable {
	c := *t
	c.counts, c.fresh, c.mine = nil, nil, nil
	clear(t.mine)
	c.committed = append([][]Row(nil), t.committed...)
	c.pending = append([]write(nil), t.pending...)
	return &c
}

// version returns the committed rows (shared, read-only).
func (t *StateTable) version() [][]Row { return append([][]Row(nil), t.committed...) }

// restore replaces the committed rows by an earlier version and drops pending writes.
func (t *StateTable) restore(v [][]Row, epoch int64) {
	t.committed = append([][]Row(nil), v...)
	clear(t.mine)
	t.pending = nil
	t.epoch = epoch
}

func (t *StateTable) write(put bool, vi int, row Row) {
	t.pending = append(t.pending, write{put: put, vi: vi, row: row})
}

// search finds the index of the first row in rows whose pk is ≥ key.
func (t *StateTable) search(rows []Row, key Row) (int, bool) {
	i := sort.Search(len(rows), func(i int) bool { return comparePK(rows[i], key, t.pk) >= 0 })
	return i, i < len(rows) && comparePK(rows[i], key, t.pk) == 0
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

// commit applies the pending writes. Earlier versions stay readable (a snapshot stream, the
// last checkpoint): a vnode whose rows change is copied once (with room for its writes), and
// rows that sort after all others are appended in place where no other writer shares the array.
func (t *StateTable) commit(epoch int64) {
	t.epoch = epoch
	if len(t.pending) == 0 {
		return
	}
	if len(t.counts) != len(t.committed) {
		t.counts = make([]int32, len(t.committed))
		t.fresh = make([]bool, len(t.committed))
	}
	if len(t.mine) != len(t.committed) {
		t.mine = make([]bool, len(t.committed))
	}
	for _, w := range t.pending {
		t.counts[w.vi]++
	}
	for _, w := range t.pending {
		vi := w.vi
		rows := t.committed[vi]
		left := int(t.counts[vi])
		t.counts[vi]--
		after := w.put && (len(rows) == 0 || compareRowsPK(rows[len(rows)-1], w.row, t.pk) < 0)
		if after && (t.mine[vi] || t.fresh[vi]) {
			if cap(rows)-len(rows) < left {
				rows = slices.Grow(rows, left+len(rows)/4) // a new array: still no other writer
			}
			t.committed[vi] = append(rows, w.row)
			continue
		}
		if !t.fresh[vi] {
			rows = append(make([]Row, 0, len(rows)+left), rows...)
			t.fresh[vi], t.mine[vi] = true, true
		}
		if after {
			t.committed[vi] = append(rows, w.row)
			continue
		}
		i := sort.Search(len(rows), func(i int) bool { return compareRowsPK(rows[i], w.row, t.pk) >= 0 })
		found := i < len(rows) && compareRowsPK(rows[i], w.row, t.pk) == 0
		switch {
		case w.put && found:
			rows[i] = w.row
		case w.put:
			rows = append(rows, nil)
			copy(rows[i+1:], rows[i:])
			rows[i] = w.row
		case found:
			rows = append(rows[:i], rows[i+1:]...)
		}
		t.committed[vi] = rows
	}
	clear(t.fresh)
	clear(t.pending)
	t.pending = t.pending[:0]
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

// rowsAfter returns the committed rows of a vnode whose pk is > pos (all of them when pos is nil).
func (t *StateTable) rowsAfter(vi int, pos Row) []Row {
	rows := t.committed[vi]
	if pos == nil {
		return rows
	}
	i := sort.Search(len(rows), func(i int) bool { return comparePK(rows[i], pos, t.pk) > 0 })
	return rows[i:]
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
func (t *StateTable) latest(idx latestIndex, vi int, key Row) (Row, bool) {
	if r, ok := idx[key.key()]; ok {
		return r, r != nil
	}
	rows := t.committed[vi]
	if i, found := t.search(rows, key); found {
		return rows[i], true
	}
	return nil, false
}
