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
	epoch     int64 // epoch of the last commit
}

func newStateTable(pk []int, owned int) *StateTable {
	return &StateTable{pk: pk, committed: make([][]Row, owned)}
}

func (t *StateTable) clone() *StateTable {
	c := *t
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

// commit applies the pending writes, copying only the vnodes they touch.
func (t *StateTable) commit(epoch int64) {
	t.epoch = epoch
	if len(t.pending) == 0 {
		return
	}
	copied := make(map[int]bool)
	for _, w := range t.pending {
		rows := t.committed[w.vi]
		if !copied[w.vi] {
			rows = append(make([]Row, 0, len(rows)+1), rows...)
			copied[w.vi] = true
		}
		key := w.row.Project(t.pk)
		i, found := t.search(rows, key)
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
	t.pending = nil
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
