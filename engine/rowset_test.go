package engine

import (
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/internal/persist"
	"github.com/backfill-explainer/explainer/internal/splitmix"
)

// model is the rowset's meaning: (row → count) per vnode, compared through its sorted entries.
type model map[string]rsEntry

func (m model) entries(s *rowset) []rsEntry {
	var out []rsEntry
	for _, e := range m {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b rsEntry) int { return s.cmp(a.row, b.row) })
	return out
}

func partEntries(p persist.Seq[rsEntry]) []rsEntry {
	var out []rsEntry
	for c := persist.NewCursor(p, p.Len()); c.Ok(); c.Next() {
		out = append(out, c.Cur())
	}
	return out
}

// leaves lists the sizes of a sequence's leaves.
func leaves[E any](s persist.Seq[E]) []int {
	var out []int
	s.Leaves(0, s.Len(), func(items []E) { out = append(out, len(items)) })
	return out
}

// TestRowsetAgainstModel drives rowsets through random adds (in order and out of order, so
// blocks fill, split and empty) with copies taken along the way, and checks every copy
// against a plain model: a change to one never shows in another.
func TestRowsetAgainstModel(t *testing.T) {
	pk := []int{0}
	r := splitmix.New(42)
	type pair struct {
		s *rowset
		m []model
	}
	cur := pair{s: newRowset(pk, 2), m: []model{{}, {}}}
	var kept []pair
	steps := 20000
	if testing.Short() {
		steps = 5000 // (a copy kept every 997 steps, each checked whole, as without -short)
	}
	for step := 0; step < steps; step++ {
		vi := OwnedIndex(r.Intn(2))
		var key int64
		if r.Intn(3) == 0 {
			key = int64(step) // past every entry: the append path
		} else {
			key = int64(r.Intn(uint64(step + 1)))
		}
		row := Row{Int(key), Int(int64(r.Intn(2)))}
		d := int(r.Intn(3)) - 1
		cur.s.add(vi, row, d)
		k := row.key()
		e := cur.m[vi][k]
		e.row, e.count = row, e.count+d
		if e.count == 0 {
			delete(cur.m[vi], k)
		} else {
			cur.m[vi][k] = e
		}
		if step%997 == 0 {
			cp := pair{s: cur.s.share(), m: []model{clone(cur.m[0]), clone(cur.m[1])}}
			kept = append(kept, cur)
			cur = cp
		}
	}
	for _, p := range append(kept, cur) {
		for vi := range OwnedIndex(len(p.m)) {
			want := p.m[vi].entries(p.s)
			got := partEntries(p.s.part(vi))
			require.Equal(t, len(want), p.s.part(vi).Len())
			require.Equal(t, want, got)
			for _, n := range leaves(p.s.part(vi)) {
				assert.NotZero(t, n)
				assert.LessOrEqual(t, n, persist.SeqMax)
			}
			// countUpTo and getPK agree with the entries
			for _, key := range []int64{-1, 0, 500, 5000, 1 << 40} {
				n := 0
				for _, e := range want {
					if e.row[0].I <= key {
						n++
					}
				}
				assert.Equal(t, n, p.s.countUpTo(vi, Row{Int(key)}), "countUpTo %d", key)
			}
		}
	}
	assert.Greater(t, len(leaves(cur.s.part(0))), 4, "the test reaches several leaves")
}

func clone(m model) model {
	c := model{}
	for k, v := range m {
		c[k] = v
	}
	return c
}

// TestRowsetSmallPartsStaySmall: a vnode holding one row costs a few entries of memory, not a
// whole block (with 32768 vnodes, full-size blocks made a small workload's heap 500 MiB).
func TestRowsetSmallPartsStaySmall(t *testing.T) {
	const parts = 4096
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := newRowset([]int{0}, parts)
	for vi := OwnedIndex(0); vi < parts; vi++ {
		s.add(vi, Row{Int(int64(vi)), Int(1)}, 1)
	}
	s = s.share() // and one copy-on-write round
	for vi := OwnedIndex(0); vi < parts; vi++ {
		s.add(vi, Row{Int(int64(vi) + parts), Int(1)}, 1)
	}
	runtime.ReadMemStats(&after)
	perPart := float64(after.TotalAlloc-before.TotalAlloc) / parts
	assert.Less(t, perPart, 1024.0, "bytes allocated per vnode holding two rows")
	runtime.KeepAlive(s)
}

// TestFirstRowsFollowsChanges: firstRows keeps its answer across changes (merging the rows
// added since, dropping it when a row at or before its last one leaves) and answers, after any
// mix of adds, removals, pk replacements, ascending runs and copies, what reading the whole set
// answers: its first n rows in row order.
func TestFirstRowsFollowsChanges(t *testing.T) {
	r := splitmix.New(7)
	want := func(s *rowset, n int) []Row {
		all := s.sorted()
		return all[:min(n, len(all))]
	}
	steps := 6000
	if testing.Short() {
		steps = 1500 // -short: a quarter of the walk
	}
	for _, n := range []int{1, 3, 8, 40} {
		sets := []*rowset{newRowset([]int{0}, 3)}
		for step := 0; step < steps; step++ {
			s := sets[r.Intn(uint64(len(sets)))]
			vi := OwnedIndex(r.Intn(3))
			key := int64(r.Intn(60))
			row := Row{Int(key), Int(int64(r.Intn(3)))}
			switch r.Intn(8) {
			case 0, 1, 2:
				s.add(vi, row, 1)
			case 3:
				s.remove(vi, row)
			case 4:
				s.putPK(vi, row)
			case 5:
				s.deletePK(vi, row)
			case 6:
				var rows []Row
				last := int64(1000 + step*4)
				for k := int64(0); k < int64(r.Intn(4)); k++ {
					rows = append(rows, Row{Int(last + k), Int(0)})
				}
				if r.Intn(2) == 0 && len(rows) > 0 {
					rows[0] = Row{Int(key), Int(9)} // not after the vnode's rows: added one by one
				}
				s.addAscending(vi, rows)
			case 7:
				if len(sets) < 6 {
					sets = append(sets, s.share())
				}
			}
			if r.Intn(3) == 0 {
				require.Equal(t, want(s, n), s.firstRows(n), "n %d step %d", n, step)
			}
		}
		for _, s := range sets {
			require.Equal(t, want(s, n), s.firstRows(n), "n %d at the end", n)
		}
	}
}
