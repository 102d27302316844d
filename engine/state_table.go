package engine

// write is one uncommitted change to the state table.
type write struct {
	put bool // + / U+ put the row; - / U- delete it by pk
	vi  int  // owned-vnode index
	row Row
}

// StateTable models the locality provider's state table: all input columns, pk = locality ++
// stream key, rows of each owned vnode kept in pk order. Committed versions are copy-on-write
// (a pvec of vnodes, each a pseq of rows): a commit never changes what an earlier version, or a
// snapshot stream opened at it, reads, and it copies only the leaves and pages it touches.
type StateTable struct {
	pk        []int
	committed *pvec[pseq[Row]] // per owned-vnode index, sorted by pk
	pending   []write
	epoch     int64 // epoch of the last commit
	// commit's scratch (never shared: a clone drops it): where each vnode's writes start in
	// order, and the pending writes' indices by vnode
	starts []int32
	order  []int32
}

func newStateTable(pk []int, owned int) *StateTable {
	return &StateTable{pk: pk, committed: newPvec[pseq[Row]](owned)}
}

func (t *StateTable) clone() *StateTable {
	c := *t
	c.committed = t.committed.share()
	c.pending = append([]write(nil), t.pending...)
	c.starts, c.order = nil, nil
	return &c
}

// version returns the committed rows (shared, read-only).
func (t *StateTable) version() *pvec[pseq[Row]] { return t.committed.share() }

// restore replaces the committed rows by an earlier version and drops pending writes.
func (t *StateTable) restore(v *pvec[pseq[Row]], epoch int64) {
	t.committed = v.share()
	t.pending = nil
	t.epoch = epoch
}

// rows returns a vnode's committed rows, to read now (to keep them, freeze first).
func (t *StateTable) rows(vi int) pseq[Row] { return t.committed.at(vi) }

// freeze makes the committed rows read-only: what a caller holds of them now (a snapshot
// stream's lanes) no later commit changes.
func (t *StateTable) freeze() { t.committed.freeze() }

func (t *StateTable) write(put bool, vi int, row Row) {
	t.pending = append(t.pending, write{put: put, vi: vi, row: row})
}

// search finds the index of the first row in rows whose pk is ≥ key.
func (t *StateTable) search(rows pseq[Row], key Row) (int, bool) {
	i := rows.search(func(r Row) bool { return comparePK(r, key, t.pk) >= 0 })
	return i, i < rows.len() && comparePK(rows.at(i), key, t.pk) == 0
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
func (t *StateTable) commit(epoch int64, note func(vi int, row Row, d int)) {
	t.epoch = epoch
	if len(t.pending) == 0 {
		return
	}
	if len(t.pending) >= t.committed.len() {
		t.commitByVnode(note)
	} else {
		for _, w := range t.pending {
			t.apply(w, note)
		}
	}
	clear(t.pending)
	t.pending = t.pending[:0]
}

// apply commits one write.
func (t *StateTable) apply(w write, note func(vi int, row Row, d int)) {
	tag := t.committed.tag
	rows := t.committed.at(w.vi)
	if w.put && (rows.len() == 0 || compareRowsPK(rows.last(), w.row, t.pk) < 0) {
		// after every row (rows often come in pk order): append (a root changed in place is
		// already stored: see rowset.setPart)
		if now := rows.push(tag, w.row); now.r != rows.r {
			t.committed.set(w.vi, now)
		}
		if note != nil {
			note(w.vi, w.row, 1)
		}
		return
	}
	i := rows.search(func(r Row) bool { return compareRowsPK(r, w.row, t.pk) >= 0 })
	found := i < rows.len() && compareRowsPK(rows.at(i), w.row, t.pk) == 0
	var d int
	switch {
	case w.put && found:
		rows = rows.set(tag, i, w.row)
	case w.put:
		rows, d = rows.insert(tag, i, w.row), 1
	case found:
		rows, d = rows.remove(tag, i), -1
	default:
		return
	}
	t.committed.set(w.vi, rows)
	if note != nil {
		note(w.vi, w.row, d)
	}
}

// commitByVnode commits many writes (at least one per vnode) vnode by vnode, each vnode's in
// their order: writes to different vnodes touch different rows, so the order between vnodes
// changes nothing. A vnode's puts that each come after every row (as a backfill's inserts
// usually do) are appended to its rows, which are looked up and stored once for the vnode.
func (t *StateTable) commitByVnode(note func(vi int, row Row, d int)) {
	n := t.committed.len()
	t.starts = append(t.starts[:0], make([]int32, n+1)...)
	for _, w := range t.pending {
		t.starts[w.vi+1]++
	}
	for vi := 1; vi <= n; vi++ {
		t.starts[vi] += t.starts[vi-1]
	}
	t.order = append(t.order[:0], make([]int32, len(t.pending))...)
	for i, w := range t.pending {
		t.order[t.starts[w.vi]] = int32(i)
		t.starts[w.vi]++
	}
	// starts[vi] is now where vnode vi+1's writes start
	from := int32(0)
	for vi := 0; vi < n; vi++ {
		if to := t.starts[vi]; to > from {
			t.commitVnode(vi, t.order[from:to], note)
			from = to
		}
	}
}

// commitVnode commits the writes of vnode vi (indices into pending, in their order): the puts
// that each come after every row are appended to its rows, which are looked up and stored once.
//
// (A function of its own, called once per vnode, rather than a loop in commitByVnode: V8 has
// no on-stack replacement for WebAssembly, so a call runs the code it started with to its end
// and the optimized code made for a hot function serves only later calls: one call over every
// write of a commit would run the first commits unoptimized.)
//
//go:noinline
func (t *StateTable) commitVnode(vi int, order []int32, note func(vi int, row Row, d int)) {
	tag := t.committed.tag
	was := t.committed.at(vi)
	rows := was
	var last Row // the vnode's last row
	if rows.len() > 0 {
		last = rows.last()
	}
	for _, k := range order {
		w := &t.pending[k]
		if w.put && (last == nil || compareRowsPK(last, w.row, t.pk) < 0) {
			rows, last = rows.push(tag, w.row), w.row
			if note != nil {
				note(vi, w.row, 1)
			}
			continue
		}
		if rows.r != was.r {
			t.committed.set(vi, rows)
		}
		t.apply(*w, note)
		was = t.committed.at(vi)
		rows, last = was, nil
		if rows.len() > 0 {
			last = rows.last()
		}
	}
	if rows.r != was.r {
		t.committed.set(vi, rows)
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
func (t *StateTable) rowsAfter(vi int, pos Row) (pseq[Row], int) {
	rows := t.rows(vi)
	if pos == nil {
		return rows, 0
	}
	return rows, rows.search(func(r Row) bool { return comparePK(r, pos, t.pk) > 0 })
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
	rows := t.rows(vi)
	if i, found := t.search(rows, key); found {
		return rows.at(i), true
	}
	return nil, false
}
