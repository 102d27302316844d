package engine

import "sort"

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
	epoch     int64   // epoch of the last commit
	counts    []int32 // commit's scratch: writes per vnode (never shared: clone drops it)
}

func newStateTable(pk []int, owned int) *StateTable {
	return &StateTable{pk: pk, committed: make([][]Row, owned)}
}

func (t *StateTable) clone() *StateTable {
	c := *t
	c.counts = nil
	c.committed = append([][]Row(nil), t.committed...)
	c.pending = append([]write(nil), t.pending...)
	return &c
}

// version returns the committed rows (shared, read-only).
func (t *StateTable) version() [][]Row { return append([][]Row(nil), t.committed...) }

// restore replaces the committed rows by an earlier version and drops pending writes.
func (t *StateTable) restore(v [][]Row, epoch int64) {
	t.committed = append([][]Row(nil), v...)
	t.pending = nil
	t.epoch = epoch
}

func (t *StateTable) write(put bool, vi int, row Row) {
	t.pending = append(t.pending, write{put: put, vi: vi, row: row})
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

// commit applies the pending writes, copying only the vnodes they touch (each once, with room
// for its writes).
func (t *StateTable) commit(epoch int64) {
	t.epoch = epoch
	if len(t.pending) == 0 {
		return
	}
	if len(t.counts) != len(t.committed) {
		t.counts = make([]int32, len(t.committed))
	}
	for _, w := range t.pending {
		t.counts[w.vi]++
	}
	for vi, n := range t.counts {
		if n > 0 {
			rows := t.committed[vi]
			t.committed[vi] = append(make([]Row, 0, len(rows)+int(n)), rows...)
		}
	}
	clear(t.counts)
	for _, w := range t.pending {
		rows := t.committed[w.vi]
		if w.put && (len(rows) == 0 || compareRowsPK(rows[len(rows)-1], w.row, t.pk) < 0) {
			t.committed[w.vi] = append(rows, w.row) // after every row (rows often come in pk order)
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
		t.committed[w.vi] = rows
	}
	clear(t.pending)
	t.pending = t.pending[:0]
}

// compareRowsPK compares two full rows by their pk columns.
func compareRowsPK(a, b Row, pk []int) int {
	for _, c := range pk {
		if r := Compare(a[c], b[c]); r != 0 {
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
