package persist

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

// A Bitset answers Has and Next as a plain set does, and a shared copy never sees the other's
// changes; sets long enough to have absent pages exercise Next's page skip.
func TestBitsetAgainstModel(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, n := range []int{1, 63, 64, 65, 64*pageSize + 7, 3*64*pageSize + 1} {
		sets := []Bitset[int]{NewBitset[int](n)}
		models := []map[int]bool{{}}
		for op := 0; op < 3000; op++ {
			k := rng.Intn(len(sets))
			if rng.Intn(50) == 0 && len(sets) < 4 {
				sets = append(sets, sets[k].Share())
				c := map[int]bool{}
				for i := range models[k] {
					c[i] = true
				}
				models = append(models, c)
				continue
			}
			i, on := rng.Intn(n), rng.Intn(3) != 0
			sets[k].Put(i, on)
			if on {
				models[k][i] = true
			} else {
				delete(models[k], i)
			}
			if op%101 != 0 {
				continue
			}
			for j, s := range sets {
				for probe := 0; probe < 40; probe++ {
					from := rng.Intn(n)
					want := -1
					for x := from; x < n; x++ {
						if models[j][x] {
							want = x
							break
						}
					}
					require.Equal(t, want, s.Next(from), "n=%d set %d Next(%d)", n, j, from)
					require.Equal(t, models[j][from], s.Has(from), "n=%d set %d Has(%d)", n, j, from)
				}
			}
		}
	}
}

// Appending through a Tail is Push in place: the items, the root (Same) and the kept sums
// follow, and a copy frozen before does not see them.
func TestTailAppends(t *testing.T) {
	tag := NewTag()
	var s Seq[int]
	var model []int
	for i := 0; i < 1000; i++ {
		tail, ok := s.Tail(tag)
		if !ok {
			s = s.Push(tag, i)
			model = append(model, i)
			continue
		}
		require.Equal(t, model[len(model)-1], tail.Last())
		k := min(tail.Room(), 3)
		xs := []int{i, i + 1, i + 2}[:k]
		before := s
		tail.Append(xs...)
		require.True(t, s.Same(before), "an append in place keeps the root")
		model = append(model, xs...)
		require.Equal(t, model, s.Slice(0, s.Len()))
	}
	frozen, n := s, s.Len()
	tag = NewTag() // freeze: the next change copies
	_, ok := s.Tail(tag)
	require.False(t, ok, "no tail under a tag that owns nothing")
	s = s.Push(tag, -1)
	require.False(t, s.Same(frozen))
	require.Equal(t, n, frozen.Len())
	require.Equal(t, model, frozen.Slice(0, frozen.Len()))
}
