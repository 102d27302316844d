package engine

import (
	"container/heap"
	"slices"
	"sort"

	"github.com/backfill-explainer/explainer/internal/persist"
)

// rsEntry is a row and how many times the set holds it.
type rsEntry struct {
	row   Row
	count int
}

// rowset holds rows per owned vnode, each vnode's rows ordered by (pk, row). It is copy-on-write
// twice over: the vnodes live in a persist.Vec and each vnode's rows in a persist.Seq, so
// keeping the state of a checkpoint, or a timeline's copy of an engine, costs one pointer per
// page of vnodes, and a change after that copies one page and one leaf, never every vnode or
// every row. It models the
// upstream's content (counts are 1, keyed by pk) and downstream's view (a multiset: a count is
// never below zero, see remove).
type rowset struct {
	pk    []int
	parts *persist.Vec[OwnedIndex, persist.Seq[rsEntry]]
	rows  int // entries in all vnodes
	// first is the last answer of firstRows(firstN), and firstAdd the rows added since, which
	// the next firstRows merges in: a view asks for the same rows at every step, and a step adds
	// a few rows to downstream (rows past the last of first cannot enter it and are not kept).
	// A removal at or before first's last row drops both (firstRows reads the set again).
	// first is shared, read-only, by every copy made before the next change; firstAdd is
	// appended to only by its own copy (share caps it).
	first    []Row
	firstN   int
	firstAdd []Row
}

func newRowset(pk []int, parts int) *rowset {
	return &rowset{pk: pk, parts: persist.NewVec[OwnedIndex, persist.Seq[rsEntry]](parts)}
}

// share returns a copy; from now on neither changes a vnode in place before copying it.
func (s *rowset) share() *rowset {
	return &rowset{pk: s.pk, parts: s.parts.Share(), rows: s.rows, first: s.first, firstN: s.firstN,
		firstAdd: s.firstAdd[:len(s.firstAdd):len(s.firstAdd)]}
}

// part returns a vnode's entries (read-only).
func (s *rowset) part(vi OwnedIndex) persist.Seq[rsEntry] { return s.parts.At(vi) }

// cmpPK compares two full rows by their pk columns.
func (s *rowset) cmpPK(a, b Row) int { return compareRowsPK(a, b, s.pk) }

// cmp orders full rows by (pk, row).
func (s *rowset) cmp(a, b Row) int {
	if c := s.cmpPK(a, b); c != 0 {
		return c
	}
	return CompareRows(a, b)
}

// search returns the index of the first entry ≥ row in (pk, row) order, and whether it is row.
func (s *rowset) search(vi OwnedIndex, row Row) (int, bool) {
	p := s.part(vi)
	i := p.Search(func(e rsEntry) bool { return s.cmp(e.row, row) >= 0 })
	return i, i < p.Len() && s.cmp(p.At(i).row, row) == 0
}

// add changes a row's count by d.
func (s *rowset) add(vi OwnedIndex, row Row, d int) {
	p, tag := s.part(vi), s.parts.Tag()
	s.noteAdd(row, d)
	if d != 0 && s.afterLast(p, row) {
		// after every entry (rows often come in pk order): append
		s.setPart(vi, p, p.Push(tag, rsEntry{row: row, count: d}))
		s.rows++
		return
	}
	i, found := s.search(vi, row)
	switch {
	case found:
		e := p.At(i)
		e.count += d
		if e.count == 0 {
			p = p.Remove(tag, i)
			s.rows--
		} else {
			p = p.Set(tag, i, e)
		}
	case d != 0:
		p = p.Insert(tag, i, rsEntry{row: row, count: d})
		s.rows++
	default:
		return
	}
	s.setPart(vi, s.part(vi), p)
}

// setPart stores vnode vi's changed entries now, whose entries were was. A change that kept the
// root node changed it in place: the root is this copy's (it was stored since the set was last
// shared), and so is the page that holds it, which then needs no write.
func (s *rowset) setPart(vi OwnedIndex, was, now persist.Seq[rsEntry]) {
	if !now.Same(was) {
		s.parts.Set(vi, now)
	}
}

// addAscending adds one copy of each of rows, which ascend strictly in (pk, row) order (a
// vnode's rows as the state table holds them): when the first sorts after every entry, so do
// the others, and they are appended at once.
func (s *rowset) addAscending(vi OwnedIndex, rows []Row) {
	p := s.part(vi)
	if len(rows) == 0 || !s.afterLast(p, rows[0]) {
		for _, r := range rows {
			s.add(vi, r, 1)
		}
		return
	}
	for _, r := range rows {
		s.noteAdd(r, 1)
	}
	s.rows += len(rows)
	was, tag := p, s.parts.Tag()
	var buf [persist.SeqMax]rsEntry
	for len(rows) > 0 {
		tail, ok := p.Tail(tag)
		if !ok { // a new leaf, or the path to the last one made this copy's
			p, rows = p.Push(tag, rsEntry{row: rows[0], count: 1}), rows[1:]
			continue
		}
		k := min(len(rows), tail.Room())
		for i, r := range rows[:k] {
			buf[i] = rsEntry{row: r, count: 1}
		}
		tail.Append(buf[:k]...)
		rows = rows[k:]
	}
	s.setPart(vi, was, p)
}

// remove takes one copy of row out, if the set holds it, and reports whether it did.
func (s *rowset) remove(vi OwnedIndex, row Row) bool {
	if _, found := s.search(vi, row); !found {
		return false
	}
	s.add(vi, row, -1)
	return true
}

// count is how many times the set holds row.
func (s *rowset) count(vi OwnedIndex, row Row) int {
	if i, found := s.search(vi, row); found {
		return s.part(vi).At(i).count
	}
	return 0
}

// afterLast reports whether row sorts after every entry of p in (pk, row) order (an empty p
// has every row after it): the first pk column decides most often, and is tested without a call.
func (s *rowset) afterLast(p persist.Seq[rsEntry], row Row) bool {
	if p.Len() == 0 {
		return true
	}
	last := p.Last().row
	if c := s.pk[0]; last[c].Kind == KindInt && row[c].Kind == KindInt && last[c].I != row[c].I {
		return last[c].I < row[c].I
	}
	return s.cmp(last, row) < 0
}

// pkBefore reports whether a's pk sorts before b's (full rows); the first pk column decides
// most often, and is tested without a call.
func pkBefore(a, b Row, pk []int) bool {
	if c := pk[0]; a[c].Kind == KindInt && b[c].Kind == KindInt && a[c].I != b[c].I {
		return a[c].I < b[c].I
	}
	return compareRowsPK(a, b, pk) < 0
}

// pkAfterLast reports whether row's pk sorts after every entry's pk of p.
func (s *rowset) pkAfterLast(p persist.Seq[rsEntry], row Row) bool {
	return p.Len() == 0 || pkBefore(p.Last().row, row, s.pk)
}

// getPK returns the row holding row's pk (pk-keyed use: the upstream's content).
func (s *rowset) getPK(vi OwnedIndex, row Row) (Row, bool) {
	p := s.part(vi)
	if s.pkAfterLast(p, row) {
		return nil, false // after every entry
	}
	i := p.Search(func(e rsEntry) bool { return s.cmpPK(e.row, row) >= 0 })
	if i < p.Len() {
		if e := p.At(i); s.cmpPK(e.row, row) == 0 {
			return e.row, true
		}
	}
	return nil, false
}

// putPK stores row, replacing any row with its pk.
func (s *rowset) putPK(vi OwnedIndex, row Row) {
	p := s.part(vi)
	if tail, ok := p.Tail(s.parts.Tag()); ok && pkBefore(tail.Last().row, row, s.pk) {
		// the usual insert, past the vnode's last entry (the last of its last leaf), where that
		// leaf has room: append in place
		s.noteAdd(row, 1)
		tail.Append(rsEntry{row: row, count: 1})
		s.rows++
		return
	}
	if s.pkAfterLast(p, row) {
		// a new pk after every entry (so the row is after every entry too): append it
		s.noteAdd(row, 1)
		s.setPart(vi, p, p.Push(s.parts.Tag(), rsEntry{row: row, count: 1}))
		s.rows++
		return
	}
	if old, ok := s.getPK(vi, row); ok {
		s.add(vi, old, -1)
	}
	s.add(vi, row, 1)
}

// deletePK removes the row with row's pk.
func (s *rowset) deletePK(vi OwnedIndex, row Row) {
	if old, ok := s.getPK(vi, row); ok {
		s.add(vi, old, -1)
	}
}

// countBelow counts the entries of a vnode whose pk is < key (key is a pk tuple).
func (s *rowset) countBelow(vi OwnedIndex, key Row) int {
	return s.part(vi).Search(func(e rsEntry) bool { return comparePK(e.row, key, s.pk) >= 0 })
}

// countUpTo counts the entries of a vnode whose pk is ≤ pos (pos is a pk tuple).
func (s *rowset) countUpTo(vi OwnedIndex, pos Row) int {
	return s.part(vi).Search(func(e rsEntry) bool { return comparePK(e.row, pos, s.pk) > 0 })
}

// each calls f for every entry, vnode by vnode, until f returns false.
func (s *rowset) each(f func(vi OwnedIndex, e rsEntry) bool) {
	for vi, p := range s.parts.Present() {
		ok := true
		p.Each(0, func(e rsEntry) bool { ok = f(vi, e); return ok })
		if !ok {
			return
		}
	}
}

// sorted lists every row with a positive count, repeated count times, in row order.
func (s *rowset) sorted() []Row {
	out := make([]Row, 0, s.rows)
	s.each(func(_ OwnedIndex, e rsEntry) bool {
		for c := 0; c < e.count; c++ {
			out = append(out, e.row)
		}
		return true
	})
	sortRows(out)
	return out
}

// firstRows lists up to n rows with a positive count, in row order (read-only: the answer is
// kept for the next call until the set changes). It keeps only the n
// smallest while it looks (a view shows the first few hundred of up to a million rows).
func (s *rowset) firstRows(n int) []Row {
	if n <= 0 {
		return []Row{}
	}
	if s.first != nil && s.firstN == n {
		if len(s.firstAdd) > 0 {
			s.first, s.firstAdd = mergeFirst(s.first, s.firstAdd, n), nil
		}
		return s.first
	}
	h := &rowMaxHeap{}
	s.each(func(_ OwnedIndex, e rsEntry) bool {
		for c := 0; c < e.count; c++ {
			switch {
			case len(h.rows) < n:
				heap.Push(h, e.row)
			case CompareRows(e.row, h.rows[0]) < 0:
				h.rows[0] = e.row
				heap.Fix(h, 0)
			default:
				return true // every further copy of this row is as large
			}
		}
		return true
	})
	out := h.rows
	sortRows(out)
	if out == nil {
		out = []Row{}
	}
	s.first, s.firstN = out[:len(out):len(out)], n
	return s.first
}

// noteAdd keeps firstRows' answer up to date with a change of row's count by d (see first).
func (s *rowset) noteAdd(row Row, d int) {
	if s.first == nil || d == 0 {
		return
	}
	if len(s.first) == s.firstN {
		// past the answer's last row, an added row cannot enter it and a removed one was not in it
		if c := CompareRows(row, s.first[len(s.first)-1]); c > 0 || c == 0 && d > 0 {
			return
		}
	}
	if d < 0 || len(s.firstAdd)+d > s.firstN {
		s.first, s.firstAdd = nil, nil
		return
	}
	for ; d > 0; d-- {
		s.firstAdd = append(s.firstAdd, row)
	}
}

// mergeFirst is the first n rows, in row order, of first (an earlier answer of firstRows) and
// added (the rows added since): first held the n smallest rows of the set then (all of them
// when it is shorter), so these are the n smallest now. Neither is changed.
func mergeFirst(first, added []Row, n int) []Row {
	add := slices.Clone(added)
	sortRows(add)
	out := make([]Row, 0, min(n, len(first)+len(add)))
	i, j := 0, 0
	for len(out) < n && (i < len(first) || j < len(add)) {
		if j == len(add) || i < len(first) && CompareRows(first[i], add[j]) <= 0 {
			out = append(out, first[i])
			i++
		} else {
			out = append(out, add[j])
			j++
		}
	}
	return out[:len(out):len(out)]
}

// rowMaxHeap keeps the largest row on top.
type rowMaxHeap struct{ rows []Row }

func (h *rowMaxHeap) Len() int           { return len(h.rows) }
func (h *rowMaxHeap) Less(i, j int) bool { return CompareRows(h.rows[i], h.rows[j]) > 0 }
func (h *rowMaxHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *rowMaxHeap) Push(x any)         { h.rows = append(h.rows, x.(Row)) }
func (h *rowMaxHeap) Pop() any {
	r := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return r
}

func sortRows(rows []Row) {
	sort.Slice(rows, func(i, j int) bool { return CompareRows(rows[i], rows[j]) < 0 })
}
