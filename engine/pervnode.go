package engine

import (
	"fmt"
	"slices"

	"github.com/backfill-explainer/explainer/internal/persist"
)

// What the engine keeps per owned vnode — progress, builders, what the invariant must look at
// again — lives in copy-on-write vectors (persist.Vec), and the counts that barriers need are
// kept up to date as they change, so that a step costs what it touches: a barrier, a chunk or
// a copy of the engine does not walk every vnode (there may be 32768).

// loadedProgress is the in-memory progress as loaded from a checkpoint's progress table, with
// what the snapshot would read (see unread.go). A checkpoint keeps it, so that loading the
// progress again after a recovery costs nothing per vnode.
type loadedProgress struct {
	progress   *persist.Vec[OwnedIndex, VnodeProgress]
	count      [3]int
	rows       int64
	unread     persist.Bitset[OwnedIndex]
	unreadRows int
}

// loaded returns the in-memory progress to keep at a checkpoint, or nil when none is loaded.
func (e *Engine) loaded() *loadedProgress {
	if e.progress == nil {
		return nil
	}
	return &loadedProgress{progress: e.progress.Share(), count: e.tally.byState, rows: e.tally.progRows, unread: e.tally.unread.Share(), unreadRows: e.tally.unreadRows}
}

// loadProgress reads each owned vnode's progress from the committed progress table (which is
// the last checkpoint's: the executor loads it at its first barrier).
func (e *Engine) loadProgress() {
	e.tally.progChanged = nil
	e.tally.progMoved = false
	if l := e.dur.loaded; l != nil {
		e.progress, e.tally.byState, e.tally.progRows = l.progress.Share(), l.count, l.rows
		e.tally.unread, e.tally.unreadRows = l.unread.Share(), l.unreadRows
		return
	}
	e.progress = persist.NewVec[OwnedIndex, VnodeProgress](len(e.owned))
	e.tally.byState = [3]int{NotStarted: len(e.owned)}
	e.tally.progRows = 0
	e.progTab.Each(func(vi OwnedIndex, r *ProgressRow) bool {
		p := VnodeProgress{State: InProgress, Pos: r.Pos, Rows: r.Rows}
		if r.Finished {
			p.State = Completed
		}
		e.putProgress(vi, p)
		return true
	})
	e.tally.progChanged = nil
	e.tally.progMoved = false
	e.countUnread()
	e.dur.loaded = e.loaded()
}

// unloadProgress forgets the in-memory progress (the executor restarts).
func (e *Engine) unloadProgress() {
	e.progress = nil
	e.tally.byState = [3]int{}
	e.tally.progRows = 0
	e.tally.progChanged = nil
	e.tally.progMoved = false
	e.tally.unread, e.tally.unreadRows = persist.Bitset[OwnedIndex]{}, 0
}

// putProgress changes a vnode's in-memory progress, keeping the counts.
func (e *Engine) putProgress(vi OwnedIndex, p VnodeProgress) {
	old := e.progress.At(vi)
	e.tally.byState[old.State]--
	e.tally.byState[p.State]++
	e.tally.progRows += p.Rows - old.Rows
	e.progress.Set(vi, p)
	e.tally.progChanged = append(e.tally.progChanged, vi)
	e.tally.progMoved = true
}

// advanceProgress moves a vnode's progress on (its builder was emitted), keeping the unread
// counts.
func (e *Engine) advanceProgress(vi OwnedIndex, p VnodeProgress) {
	before := e.unreadOf(vi)
	e.putProgress(vi, p)
	after := e.unreadOf(vi)
	e.tally.unreadRows += after - before
	e.tally.unread.Put(vi, after > 0)
}

// startedVnodes calls f, in vnode order, for every vnode whose progress is not NotStarted,
// until f returns false.
func (e *Engine) startedVnodes(f func(vi OwnedIndex, p VnodeProgress) bool) {
	if e.progress == nil || e.tally.byState[NotStarted] == len(e.owned) {
		return
	}
	for vi, p := range e.progress.Present() {
		if p.State != NotStarted && !f(vi, p) {
			return
		}
	}
}

// changedProgress returns, ascending and without repeats, the vnodes whose progress changed
// since the last call, and forgets them.
func (e *Engine) changedProgress() []OwnedIndex {
	c := e.tally.progChanged
	e.tally.progChanged = nil
	slices.Sort(c)
	return slices.Compact(c)
}

// builder is a vnode's chunk builder: the rows the snapshot delivered into it since it was last
// emitted. They are always consecutive rows of one lane of the snapshot stream (the snapshot
// reads a vnode's lane in order, a builder is emitted whole, and every builder is drained
// before the stream is refreshed), so a builder is that lane's rows and a range of them:
// filling it copies no row and allocates nothing, and a copy of the engine shares it as it
// shares the lane (a committed version of the vnode's rows, which nothing changes).
type builder struct {
	rows persist.Seq[Row] // the lane's rows (read-only)
	from int              // the index in rows of the builder's first row
	n    int              // rows it holds
}

// len is the number of rows the builder holds.
func (b builder) len() int { return b.n }

// last returns the builder's last row (len > 0).
func (b builder) last() Row { return b.rows.At(b.from + b.n - 1) }

// slice returns a new slice of the builder's rows.
func (b builder) slice() []Row { return b.rows.Slice(b.from, b.from+b.n) }

// sum is the sum of the digests of the builder's rows (see keyWriter.seq).
func (b builder) sum() persist.Digest {
	return b.rows.SumFrom(b.from, rowDigest).Sub(b.rows.SumFrom(b.from+b.n, rowDigest))
}

// newBuilders makes one empty builder per owned vnode.
func (e *Engine) newBuilders() {
	e.builders = persist.NewVec[OwnedIndex, builder](len(e.owned))
	e.tally.builderRows = 0
}

// dropBuilders forgets the builders (outside the backfill there are none).
func (e *Engine) dropBuilders() {
	e.builders = nil
	e.tally.builderRows = 0
}

// builderOf returns a new slice of the rows a vnode's builder holds.
func (e *Engine) builderOf(vi OwnedIndex) []Row {
	if e.builders == nil {
		return nil
	}
	return e.builders.At(vi).slice()
}

// builderLast returns the last row of a vnode's builder, if it holds any.
func (e *Engine) builderLast(vi OwnedIndex) (Row, bool) {
	if e.builders == nil {
		return nil, false
	}
	if b := e.builders.At(vi); b.len() > 0 {
		return b.last(), true
	}
	return nil, false
}

// appendToBuilder adds rows i to i+k-1 of a lane's rows (the snapshot's next items) to a
// vnode's builder and returns how many rows the builder now holds.
func (e *Engine) appendToBuilder(vi OwnedIndex, rows persist.Seq[Row], i, k int) int {
	b := e.builders.Ref(vi)
	switch {
	case b.n == 0:
		*b = builder{rows: rows, from: i, n: k}
	case b.rows.Same(rows) && b.from+b.n == i:
		b.n += k
	default:
		panic(fmt.Sprintf("internal error: the builder of vnode %d holds rows %d..%d of a lane, and the snapshot delivers row %d of another", e.owned[vi], b.from, b.from+b.n-1, i))
	}
	e.tally.builderRows += k
	return b.n
}

// progressRow is the progress table's row for a vnode's progress.
func (e *Engine) progressRow(vi OwnedIndex, p VnodeProgress) ProgressRow {
	return ProgressRow{Vnode: e.owned[vi], Pos: p.Pos, Finished: p.State == Completed, Rows: p.Rows}
}

// takeBuilder empties a vnode's builder and returns what it held.
func (e *Engine) takeBuilder(vi OwnedIndex) builder {
	b := e.builders.At(vi)
	e.tally.builderRows -= b.n
	e.builders.Set(vi, builder{})
	return b
}

// nonEmptyBuilders calls f, in vnode order, for every builder that holds rows.
func (e *Engine) nonEmptyBuilders(f func(vi OwnedIndex, b builder)) {
	if e.builders == nil || e.tally.builderRows == 0 {
		return
	}
	for vi, b := range e.builders.Present() {
		if b.len() > 0 {
			f(vi, b)
		}
	}
}

// markDirty notes that a vnode changed since the invariant last looked at it (a vnode marked
// twice in a row is noted once).
func (e *Engine) markDirty(vi OwnedIndex) {
	if n := len(e.check.dirty); n == 0 || e.check.dirty[n-1] != vi {
		e.check.dirty = append(e.check.dirty, vi)
	}
}

// touch records that a row of owned vnode vi changed (in the upstream's content or in
// downstream's view): the next check looks at the vnode again. (The check costs what changed
// in the vnode, not its rows: see checkVnode.)
func (e *Engine) touch(vi OwnedIndex, _ Row) { e.markDirty(vi) }

// touchFrom records that what the check expects of vnode vi may change from pk from on (a
// vnode's pos moves on from there; nil: anywhere).
func (e *Engine) touchFrom(vi OwnedIndex, _ Row) { e.markDirty(vi) }

// markAllDirty makes the next check look at every vnode again.
func (e *Engine) markAllDirty() { e.check.allDirty = true }

// maxNarratedRows bounds the rows one sentence of narration lists (the rest are counted).
const maxNarratedRows = 8

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tallies are counts and indexes kept up to date from the executor's state, so that a step
// costs what it touches.
type tallies struct {
	byState     [3]int                     // vnodes per ProgressState of their progress
	progRows    int64                      // the sum of progress's Rows
	progChanged []OwnedIndex               // vnodes whose progress changed since the last persist
	progMoved   bool                       // progress changed since a checkpoint last made it durable
	unread      persist.Bitset[OwnedIndex] // vnodes not Completed with committed rows past pos
	unreadRows  int                        // those rows
	builderRows int                        // rows in all builders
	// pendingIdx indexes the state table's pending writes while a barrier marks its buffer
	pendingIdx latestIndex
}
