package engine

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// A commit of many writes goes vnode by vnode and appends runs of rows at once
// (commitByVnode); it must commit exactly what the writes one by one in their order commit,
// and tell note of the same changes, each vnode's in the same order.
func TestCommitByVnodeMatchesWritesInOrder(t *testing.T) {
	pk := []int{0, 1}
	for seed := int64(0); seed < 30; seed++ {
		rng := rand.New(rand.NewSource(seed))
		vnodes := 1 + rng.Intn(5)
		byVnode, inOrder := newStateTable(pk, vnodes), newStateTable(pk, vnodes)
		next := make([]int64, vnodes) // each vnode's next new key: appends come in key order
		for epoch := int64(1); epoch <= 8; epoch++ {
			n := vnodes + rng.Intn(60) // at least one write per vnode: commit takes them by vnode
			for i := 0; i < n; i++ {
				vi := rng.Intn(vnodes)
				var key int64
				switch rng.Intn(4) {
				case 0, 1: // a new key past every other
					next[vi]++
					key = next[vi]
				default: // a key that may exist: an update, a delete, an insert in the middle
					key = rng.Int63n(next[vi] + 2)
				}
				row := Row{Int(int64(vi)), Int(key), Int(rng.Int63n(3))}
				put := rng.Intn(5) > 0
				byVnode.write(put, vi, row)
				inOrder.write(put, vi, row)
			}
			type noted struct {
				row Row
				d   int
			}
			gotNotes, wantNotes := make([][]noted, vnodes), make([][]noted, vnodes)
			byVnode.commit(epoch, func(vi int, row Row, d int) { gotNotes[vi] = append(gotNotes[vi], noted{row, d}) })
			inOrder.epoch = epoch
			for _, w := range inOrder.pending {
				inOrder.apply(w, func(vi int, row Row, d int) { wantNotes[vi] = append(wantNotes[vi], noted{row, d}) })
			}
			inOrder.pending = inOrder.pending[:0]
			require.Equal(t, wantNotes, gotNotes, "seed %d epoch %d: notes", seed, epoch)
			for vi := 0; vi < vnodes; vi++ {
				got, want := byVnode.rows(vi), inOrder.rows(vi)
				require.Equal(t, fmt.Sprint(want.slice(0, want.len())), fmt.Sprint(got.slice(0, got.len())), "seed %d epoch %d vnode %d", seed, epoch, vi)
				require.True(t, slices.IsSortedFunc(got.slice(0, got.len()), func(a, b Row) int { return compareRowsPK(a, b, pk) }))
			}
			if rng.Intn(3) == 0 { // a checkpoint: the next commit copies what it changes
				byVnode.freeze()
				inOrder.freeze()
			}
		}
	}
}
