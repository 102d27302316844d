package persist

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The copy-on-write structures behave like plain slices, and a copy never sees another's
// changes: random edits of several copies are checked against independent slices.
func TestPvecCopiesAreIndependent(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 2, pageSize - 1, pageSize, pageSize + 1, 3*pageSize + 5} {
		vecs := []*Vec[int, int]{NewVec[int, int](n)}
		models := [][]int{make([]int, n)}
		for op := 0; op < 2000; op++ {
			k := rng.Intn(len(vecs))
			switch rng.Intn(4) {
			case 0:
				if len(vecs) < 6 {
					vecs = append(vecs, vecs[k].Share())
					models = append(models, slices.Clone(models[k]))
				}
			default:
				i, x := rng.Intn(n), rng.Intn(100)
				vecs[k].Set(i, x)
				models[k][i] = x
			}
			if op%23 != 0 {
				continue
			}
			for j := range vecs {
				got := make([]int, n)
				for i := range got {
					got[i] = vecs[j].At(i)
				}
				require.Equal(t, models[j], got, "n=%d copy %d after op %d", n, j, op)
				for i, x := range vecs[j].Present() {
					if models[j][i] != x {
						t.Fatalf("present: index %d is %d, want %d", i, x, models[j][i])
					}
				}
			}
		}
	}
}

func intDigestOf(x int) Digest { return DigestOf([]byte(fmt.Sprint(x))) }

var intDigest = ItemDigest[int]{0, func(xs []int) Digest {
	var d Digest
	for _, x := range xs {
		d = d.Add(intDigestOf(x))
	}
	return d
}}

func TestPseqCopiesAreIndependent(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	type copyOf struct {
		s   Seq[int]
		tag *Tag
	}
	seqs := []copyOf{{tag: new(Tag)}}
	models := [][]int{nil}
	for op := 0; op < 20000; op++ {
		k := rng.Intn(len(seqs))
		c := &seqs[k]
		m := models[k]
		switch r := rng.Intn(10); {
		case r == 0 && len(seqs) < 5:
			c.tag = new(Tag) // freeze: both copies now copy before changing
			seqs = append(seqs, copyOf{s: c.s, tag: new(Tag)})
			models = append(models, slices.Clone(m))
			continue
		case r < 3:
			x := rng.Intn(1000)
			c.s = c.s.Push(c.tag, x) // the append path: fills nodes, never splits them in half
			m = append(m, x)
		case r < 6 || len(m) == 0:
			i, x := rng.Intn(len(m)+1), rng.Intn(1000)
			c.s = c.s.Insert(c.tag, i, x)
			m = slices.Insert(m, i, x)
		case r < 8:
			i := rng.Intn(len(m))
			c.s = c.s.Remove(c.tag, i)
			m = slices.Delete(m, i, i+1)
		default:
			i, x := rng.Intn(len(m)), rng.Intn(1000)
			c.s = c.s.Set(c.tag, i, x)
			m[i] = x
		}
		models[k] = m
		if op%97 == 0 || op > 19900 {
			for j := range seqs {
				require.Equal(t, len(models[j]), seqs[j].s.Len())
				require.Equal(t, models[j], append([]int{}, seqs[j].s.Slice(0, seqs[j].s.Len())...), "copy %d after op %d", j, op)
				from := len(models[j]) / 3
				var want Digest
				for _, x := range models[j][from:] {
					want = want.Add(intDigestOf(x))
				}
				require.Equal(t, want, seqs[j].s.SumFrom(from, intDigest), "copy %d after op %d: the kept sums", j, op)
				for i := range models[j] {
					if models[j][i] != seqs[j].s.At(i) {
						t.Fatalf("copy %d: at(%d) is %d, want %d", j, i, seqs[j].s.At(i), models[j][i])
					}
				}
			}
		}
	}
}

func TestPseqSearch(t *testing.T) {
	tag := new(Tag)
	var s Seq[int]
	for i := 0; i < 1000; i++ {
		s = s.Insert(tag, s.Len(), 2*i)
	}
	for x := -1; x <= 2001; x++ {
		want, _ := slices.BinarySearch(s.Slice(0, s.Len()), x)
		require.Equal(t, want, s.Search(func(y int) bool { return y >= x }), "x=%d", x)
	}
	var got []int
	s.Each(995, func(y int) bool { got = append(got, y); return true })
	require.Equal(t, []int{1990, 1992, 1994, 1996, 1998}, got)
}

// A leaf lends the room past its items to the first copy that appends (Seq.own): copies made
// often, mostly appended to and sometimes changed in the items they share, must still never
// see each other's changes. Every copy is checked after every operation.
func TestPseqLentRoomStaysPrivate(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		rng := rand.New(rand.NewSource(seed))
		type copyOf struct {
			s   Seq[int]
			tag *Tag
		}
		seqs := []copyOf{{tag: new(Tag)}}
		models := [][]int{nil}
		for op := 0; op < 1500; op++ {
			k := rng.Intn(len(seqs))
			c := &seqs[k]
			m := models[k]
			switch r := rng.Intn(20); {
			case r < 3:
				c.tag = new(Tag) // freeze, and make a copy (or replace one)
				cp := copyOf{s: c.s, tag: new(Tag)}
				if len(seqs) < 8 {
					seqs = append(seqs, cp)
					models = append(models, slices.Clone(m))
				} else {
					j := rng.Intn(len(seqs))
					seqs[j], models[j] = cp, slices.Clone(m)
				}
				continue
			case r < 13 || len(m) == 0:
				x := op
				c.s = c.s.Push(c.tag, x)
				m = append(m, x)
			case r < 15:
				i := rng.Intn(len(m) + 1)
				c.s = c.s.Insert(c.tag, i, -op)
				m = slices.Insert(m, i, -op)
			case r < 17:
				i := rng.Intn(len(m))
				c.s = c.s.Remove(c.tag, i)
				m = slices.Delete(m, i, i+1)
			default:
				i := rng.Intn(len(m))
				c.s = c.s.Set(c.tag, i, 1_000_000+op)
				m[i] = 1_000_000 + op
			}
			models[k] = m
			for j := range seqs {
				if got := seqs[j].s.Slice(0, seqs[j].s.Len()); !slices.Equal(models[j], got) {
					t.Fatalf("seed %d op %d: copy %d holds %v, want %v", seed, op, j, got, models[j])
				}
			}
		}
	}
}

// search and last agree with a sorted model while a sequence is built by appends (push, which
// keeps no last item above the leaves) and inserts, removes and sets in order, with copies.
func TestPseqSearchAfterChanges(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	type copyOf struct {
		s   Seq[int]
		tag *Tag
	}
	seqs := []copyOf{{tag: new(Tag)}}
	models := [][]int{nil}
	for op := 0; op < 6000; op++ {
		k := rng.Intn(len(seqs))
		c := &seqs[k]
		m := models[k]
		switch r := rng.Intn(10); {
		case r == 0 && len(seqs) < 4:
			c.tag = new(Tag)
			seqs = append(seqs, copyOf{s: c.s, tag: new(Tag)})
			models = append(models, slices.Clone(m))
			continue
		case r < 6 || len(m) == 0:
			x := 10*op + 5 // above every item: an append
			c.s = c.s.Push(c.tag, x)
			m = append(m, x)
		case r < 8:
			i := rng.Intn(len(m) + 1)     // an item between its neighbours, in order
			lo, hi := -1_000_000, 10*op+5 // (below every later append)
			if i > 0 {
				lo = m[i-1]
			}
			if i < len(m) {
				hi = m[i]
			}
			if hi-lo < 2 {
				continue
			}
			x := lo + 1 + rng.Intn(hi-lo-1)
			c.s = c.s.Insert(c.tag, i, x)
			m = slices.Insert(m, i, x)
		case r < 9:
			i := rng.Intn(len(m))
			c.s = c.s.Remove(c.tag, i)
			m = slices.Delete(m, i, i+1)
		default:
			i := rng.Intn(len(m)) // the same value: set keeps the order
			c.s = c.s.Set(c.tag, i, m[i])
		}
		models[k] = m
		if op%7 != 0 {
			continue
		}
		for j, cp := range seqs {
			mj := models[j]
			if len(mj) > 0 && cp.s.Last() != mj[len(mj)-1] {
				t.Fatalf("op %d copy %d: last is %d, want %d", op, j, cp.s.Last(), mj[len(mj)-1])
			}
			for probe := 0; probe < 20; probe++ {
				x := rng.Intn(10*op+20) - 10
				want, _ := slices.BinarySearch(mj, x)
				if got := cp.s.Search(func(y int) bool { return y >= x }); got != want {
					t.Fatalf("op %d copy %d: search(≥%d) is %d, want %d", op, j, x, got, want)
				}
			}
		}
	}
}
