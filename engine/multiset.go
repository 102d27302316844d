package engine

import "sort"

// multiset counts rows; used for downstream's view.
type multiset struct {
	m map[string]*msEntry
}

type msEntry struct {
	row   Row
	count int
}

func newMultiset() *multiset { return &multiset{m: make(map[string]*msEntry)} }

func (s *multiset) clone() *multiset {
	c := &multiset{m: make(map[string]*msEntry, len(s.m))}
	for k, e := range s.m {
		ce := *e
		c.m[k] = &ce
	}
	return c
}

// add changes a row's count by d (counts may go negative: a delete of a row never seen).
func (s *multiset) add(r Row, d int) {
	k := r.key()
	e := s.m[k]
	if e == nil {
		e = &msEntry{row: r}
		s.m[k] = e
	}
	e.count += d
	if e.count == 0 {
		delete(s.m, k)
	}
}

func (s *multiset) count(r Row) int {
	if e := s.m[r.key()]; e != nil {
		return e.count
	}
	return 0
}

// sorted lists the rows with a positive count, each repeated count times, in row order.
func (s *multiset) sorted() []Row {
	var out []Row
	for _, e := range s.m {
		for i := 0; i < e.count; i++ {
			out = append(out, e.row)
		}
	}
	sortRows(out)
	return out
}

func sortRows(rows []Row) {
	sort.Slice(rows, func(i, j int) bool { return CompareRows(rows[i], rows[j]) < 0 })
}

// content is the upstream's net content: the rows it has inserted and not deleted, by pk.
type content struct {
	pk   []int
	rows map[string]Row
}

func newContent(pk []int) *content { return &content{pk: pk, rows: make(map[string]Row)} }

func (c *content) clone() *content {
	n := &content{pk: c.pk, rows: make(map[string]Row, len(c.rows))}
	for k, r := range c.rows {
		n.rows[k] = r
	}
	return n
}

func (c *content) get(row Row) (Row, bool) {
	r, ok := c.rows[row.Project(c.pk).key()]
	return r, ok
}

func (c *content) put(row Row)    { c.rows[row.Project(c.pk).key()] = row }
func (c *content) delete(row Row) { delete(c.rows, row.Project(c.pk).key()) }

func (c *content) sorted() []Row {
	out := make([]Row, 0, len(c.rows))
	for _, r := range c.rows {
		out = append(out, r)
	}
	sortRows(out)
	return out
}
