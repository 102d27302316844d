package engine

import (
	"slices"
	"sort"
)

// rsEntry is a row and how many times the set holds it.
type rsEntry struct {
	row   Row
	count int
}

// blockSize is the most entries a block of a rowset holds; a block that would grow past it
// splits in two.
const blockSize = 256

// part is one vnode's entries, ordered by (pk, row), in blocks: each block ordered, the blocks
// in order, none empty.
type part struct {
	blocks [][]rsEntry
	own    []bool // own[b]: blocks[b] belongs to this part alone and may change in place
	n      int    // entries in all
}

// rowset holds rows per owned vnode, each vnode's rows ordered by (pk, row). Copies share
// blocks until one of them changes a block (copy-on-write per block of blockSize entries), so
// keeping the state of a checkpoint, or a timeline's copy of an engine, costs one part header
// per vnode, and a change after it copies one block and the vnode's list of blocks, not the
// vnode's entries. It models the upstream's content (counts are 1, keyed by pk) and
// downstream's view (a multiset: a count is never below zero, see remove).
type rowset struct {
	pk    []int
	parts []part
	mine  []bool // parts[i].blocks and .own belong to this rowset alone and may change in place
}

func newRowset(pk []int, parts int) *rowset {
	return &rowset{pk: pk, parts: make([]part, parts), mine: make([]bool, parts)}
}

// share returns a copy; from now on neither changes a block in place before copying it.
func (s *rowset) share() *rowset {
	clear(s.mine)
	return &rowset{pk: s.pk, parts: slices.Clone(s.parts), mine: make([]bool, len(s.parts))}
}

// writable returns vnode vi's part, its list of blocks its own.
func (s *rowset) writable(vi int) *part {
	p := &s.parts[vi]
	if !s.mine[vi] {
		p.blocks = append(make([][]rsEntry, 0, len(p.blocks)+1), p.blocks...)
		p.own = make([]bool, len(p.blocks), len(p.blocks)+1)
		s.mine[vi] = true
	}
	return p
}

// block returns block b of a writable part, its own (copied if shared, with some room).
// Blocks grow as they fill (a vnode with a few rows keeps a few entries' worth of memory).
func (p *part) block(b int) []rsEntry {
	if !p.own[b] {
		blk := p.blocks[b]
		p.blocks[b] = append(make([]rsEntry, 0, min(blockSize+1, len(blk)+len(blk)/2+1)), blk...)
		p.own[b] = true
	}
	return p.blocks[b]
}

func (p *part) last() rsEntry {
	b := p.blocks[len(p.blocks)-1]
	return b[len(b)-1]
}

// find returns the block and index of the first entry for which ge holds (ge is false for a
// prefix of the entries and true for the rest); b is len(blocks) when there is none.
func (p *part) find(ge func(rsEntry) bool) (b, i int) {
	b = sort.Search(len(p.blocks), func(b int) bool { blk := p.blocks[b]; return ge(blk[len(blk)-1]) })
	if b < len(p.blocks) {
		blk := p.blocks[b]
		i = sort.Search(len(blk), func(i int) bool { return ge(blk[i]) })
	}
	return b, i
}

// cursor reads a part's entries in order.
type cursor struct {
	blocks [][]rsEntry
	b, i   int
	left   int // entries still to read
}

// entries returns a cursor over the first n entries (all of them when n < 0).
func (p *part) entries(n int) cursor { return p.entriesFrom(0, n) }

// entriesFrom returns a cursor over n entries from the start-th on (all the rest when n < 0).
func (p *part) entriesFrom(start, n int) cursor {
	start = min(start, p.n)
	if n < 0 || n > p.n-start {
		n = p.n - start
	}
	c := cursor{blocks: p.blocks, left: n}
	for c.b < len(p.blocks) && start >= len(p.blocks[c.b]) {
		start -= len(p.blocks[c.b])
		c.b++
	}
	c.i = start
	return c
}

func (c *cursor) next() (rsEntry, bool) {
	if c.left == 0 {
		return rsEntry{}, false
	}
	for c.i == len(c.blocks[c.b]) {
		c.b, c.i = c.b+1, 0
	}
	en := c.blocks[c.b][c.i]
	c.i++
	c.left--
	return en, true
}

// cmpPK compares two full rows by their pk columns.
func (s *rowset) cmpPK(a, b Row) int { return compareRowsPK(a, b, s.pk) }

// cmp orders full rows by (pk, row).
func (s *rowset) cmp(a, b Row) int {
	if c := s.cmpPK(a, b); c != 0 {
		return c
	}
	return CompareRows(a, b)
}

// add changes a row's count by d.
func (s *rowset) add(vi int, row Row, d int) {
	p := &s.parts[vi]
	if p.n == 0 || s.afterLast(p, row) || s.cmp(p.last().row, row) < 0 {
		// after every entry (rows often come in pk order): append
		if d == 0 {
			return
		}
		p = s.writable(vi)
		nb := len(p.blocks)
		if nb == 0 || len(p.blocks[nb-1]) >= blockSize {
			room := 4 // a vnode's first block grows as it fills; the next ones start full size
			if nb > 0 {
				room = blockSize + 1
			}
			p.blocks = append(p.blocks, make([]rsEntry, 0, room))
			p.own = append(p.own, true)
			nb++
		}
		p.blocks[nb-1] = append(p.block(nb-1), rsEntry{row: row, count: d})
		p.n++
		return
	}
	b, i := p.find(func(en rsEntry) bool { return s.cmp(en.row, row) >= 0 })
	found := s.cmp(p.blocks[b][i].row, row) == 0
	if !found && d == 0 {
		return
	}
	p = s.writable(vi)
	blk := p.block(b)
	switch {
	case found && blk[i].count+d != 0:
		blk[i].count += d
	case found:
		blk = slices.Delete(blk, i, i+1)
		p.n--
		if len(blk) == 0 {
			p.blocks = slices.Delete(p.blocks, b, b+1)
			p.own = slices.Delete(p.own, b, b+1)
			return
		}
		p.blocks[b] = blk
	default:
		blk = slices.Insert(blk, i, rsEntry{row: row, count: d})
		p.n++
		p.blocks[b] = blk
		if len(blk) > blockSize {
			h := len(blk) / 2
			right := append(make([]rsEntry, 0, len(blk)-h+1), blk[h:]...)
			clear(blk[h:])
			p.blocks[b] = blk[:h]
			p.blocks = slices.Insert(p.blocks, b+1, right)
			p.own = slices.Insert(p.own, b+1, true)
		}
	}
}

// remove takes one copy of row out, if the set holds it, and reports whether it did.
func (s *rowset) remove(vi int, row Row) bool {
	p := &s.parts[vi]
	if p.n == 0 {
		return false
	}
	b, i := p.find(func(en rsEntry) bool { return s.cmp(en.row, row) >= 0 })
	if b == len(p.blocks) || s.cmp(p.blocks[b][i].row, row) != 0 {
		return false
	}
	s.add(vi, row, -1)
	return true
}

// getPK returns the row holding row's pk (pk-keyed use: the upstream's content).
func (s *rowset) getPK(vi int, row Row) (Row, bool) {
	p := &s.parts[vi]
	if p.n == 0 || s.afterLast(p, row) {
		return nil, false // after every entry
	}
	b, i := p.find(func(en rsEntry) bool { return s.cmpPK(en.row, row) >= 0 })
	if en := p.blocks[b][i]; s.cmpPK(en.row, row) == 0 {
		return en.row, true
	}
	return nil, false
}

// afterLast reports whether row's pk sorts after every entry's of part p (p not empty): the
// first pk column decides most often, and is tested without a call.
func (s *rowset) afterLast(p *part, row Row) bool {
	last := p.last().row
	if c := s.pk[0]; last[c].Kind == KindInt && row[c].Kind == KindInt && last[c].I != row[c].I {
		return last[c].I < row[c].I
	}
	return s.cmpPK(last, row) < 0
}

// putPK stores row, replacing any row with its pk.
func (s *rowset) putPK(vi int, row Row) {
	if p := &s.parts[vi]; p.n == 0 || s.afterLast(p, row) {
		s.add(vi, row, 1) // a new pk after every entry: add appends it
		return
	}
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

// countBelow counts the entries of a vnode whose pk is < key (key is a pk tuple).
func (s *rowset) countBelow(vi int, key Row) int {
	p := &s.parts[vi]
	b, i := p.find(func(en rsEntry) bool { return comparePK(en.row, key, s.pk) >= 0 })
	n := i
	for _, blk := range p.blocks[:b] {
		n += len(blk)
	}
	return n
}

// countUpTo counts the entries of a vnode whose pk is ≤ pos (pos is a pk tuple).
func (s *rowset) countUpTo(vi int, pos Row) int {
	p := &s.parts[vi]
	b, i := p.find(func(en rsEntry) bool { return comparePK(en.row, pos, s.pk) > 0 })
	n := i
	for _, blk := range p.blocks[:b] {
		n += len(blk)
	}
	return n
}

// sorted lists every row with a positive count, repeated count times, in row order.
func (s *rowset) sorted() []Row {
	out := []Row{}
	for i := range s.parts {
		c := s.parts[i].entries(-1)
		for en, ok := c.next(); ok; en, ok = c.next() {
			for k := 0; k < en.count; k++ {
				out = append(out, en.row)
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
