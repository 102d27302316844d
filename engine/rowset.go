package engine

import "sort"

// rsEntry is a row and how many times the set holds it.
type rsEntry struct {
	row   Row
	count int
}

// rowset holds rows per owned vnode, each vnode's rows ordered by (pk, row). Copies share a
// vnode's rows until one of them changes that vnode (copy-on-write), so keeping the state of a
// checkpoint, or a timeline's copy of an engine, costs one slice header per vnode, not one
// entry per row. It models the upstream's content (counts are 1, keyed by pk) and downstream's
// view (a multiset: a count is never below zero, see remove).
type rowset struct {
	pk    []int
	parts [][]rsEntry
	mine  []bool // parts[i] is not shared and may change in place
}

func newRowset(pk []int, parts int) *rowset {
	return &rowset{pk: pk, parts: make([][]rsEntry, parts), mine: make([]bool, parts)}
}

// share returns a copy; from now on neither changes a vnode in place before copying it.
func (s *rowset) share() *rowset {
	for i := range s.mine {
		s.mine[i] = false
	}
	return &rowset{pk: s.pk, parts: append([][]rsEntry(nil), s.parts...), mine: make([]bool, len(s.parts))}
}

func (s *rowset) writable(vi int) []rsEntry {
	if !s.mine[vi] {
		s.parts[vi] = append(make([]rsEntry, 0, len(s.parts[vi])+8), s.parts[vi]...)
		s.mine[vi] = true
	}
	return s.parts[vi]
}

// cmpPK compares two full rows by their pk columns.
func (s *rowset) cmpPK(a, b Row) int {
	for _, c := range s.pk {
		if r := Compare(a[c], b[c]); r != 0 {
			return r
		}
	}
	return 0
}

// cmp orders full rows by (pk, row).
func (s *rowset) cmp(a, b Row) int {
	if c := s.cmpPK(a, b); c != 0 {
		return c
	}
	return CompareRows(a, b)
}

// search returns the index of the first entry ≥ row in (pk, row) order, and whether it is row.
func (s *rowset) search(vi int, row Row) (int, bool) {
	p := s.parts[vi]
	i := sort.Search(len(p), func(i int) bool { return s.cmp(p[i].row, row) >= 0 })
	return i, i < len(p) && s.cmp(p[i].row, row) == 0
}

// add changes a row's count by d.
func (s *rowset) add(vi int, row Row, d int) {
	i, found := s.search(vi, row)
	p := s.writable(vi)
	switch {
	case found:
		p[i].count += d
		if p[i].count == 0 {
			p = append(p[:i], p[i+1:]...)
		}
	case d != 0:
		p = append(p, rsEntry{})
		copy(p[i+1:], p[i:])
		p[i] = rsEntry{row: row, count: d}
	}
	s.parts[vi] = p
}

// remove takes one copy of row out, if the set holds it, and reports whether it did.
func (s *rowset) remove(vi int, row Row) bool {
	if _, found := s.search(vi, row); !found {
		return false
	}
	s.add(vi, row, -1)
	return true
}

// getPK returns the row holding row's pk (pk-keyed use: the upstream's content).
func (s *rowset) getPK(vi int, row Row) (Row, bool) {
	p := s.parts[vi]
	i := sort.Search(len(p), func(i int) bool { return s.cmpPK(p[i].row, row) >= 0 })
	if i < len(p) && s.cmpPK(p[i].row, row) == 0 {
		return p[i].row, true
	}
	return nil, false
}

// putPK stores row, replacing any row with its pk.
func (s *rowset) putPK(vi int, row Row) {
	if old, ok := s.getPK(vi, row); ok {
		s.add(vi, old, -1)
	}
	s.add(vi, row, 1)
}

// deletePK removes the row with row's pk.
func (s *rowset) deletePK(vi int, row Row) {
	if old, ok := s.getPK(vi, row); ok {
		s.add(vi, old, -1)
	}
}

// countUpTo counts the entries of a vnode whose pk is ≤ pos (pos is a pk tuple).
func (s *rowset) countUpTo(vi int, pos Row) int {
	p := s.parts[vi]
	return sort.Search(len(p), func(i int) bool { return comparePK(p[i].row, pos, s.pk) > 0 })
}

// sorted lists every row with a positive count, repeated count times, in row order.
func (s *rowset) sorted() []Row {
	out := []Row{}
	for _, p := range s.parts {
		for _, e := range p {
			for c := 0; c < e.count; c++ {
				out = append(out, e.row)
			}
		}
	}
	sortRows(out)
	return out
}

// firstRows lists up to n rows with a positive count, in row order.
func (s *rowset) firstRows(n int) []Row {
	rows := s.sorted()
	if len(rows) > n {
		rows = rows[:n]
	}
	return rows
}

func sortRows(rows []Row) {
	sort.Slice(rows, func(i, j int) bool { return CompareRows(rows[i], rows[j]) < 0 })
}
