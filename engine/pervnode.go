package engine

import "slices"

// What the engine keeps per owned vnode — progress, builders, what the invariant must look at
// again — lives in copy-on-write pvecs, and the counts that barriers need are kept up to date
// as they change, so that a step costs what it touches: a barrier, a chunk or a copy of the
// engine does not walk every vnode (there may be 32768).

// loadedProgress is the in-memory progress as loaded from a checkpoint's progress table, with
// what the snapshot would read (see unread.go). A checkpoint keeps it, so that loading the
// progress again after a recovery costs nothing per vnode.
type loadedProgress struct {
	progress   *pvec[VnodeProgress]
	count      [3]int
	rows       int64
	unread     bitset
	unreadRows int
}

// loaded returns the in-memory progress to keep at a checkpoint, or nil when none is loaded.
func (e *Engine) loaded() *loadedProgress {
	if e.progress == nil {
		return nil
	}
	return &loadedProgress{progress: e.progress.share(), count: e.progCount, rows: e.progRows, unread: e.unread.share(), unreadRows: e.unreadRows}
}

// loadProgress reads each owned vnode's progress from the committed progress table (which is
// the last checkpoint's: the executor loads it at its first barrier).
func (e *Engine) loadProgress() {
	e.progChanged = nil
	e.progMoved = false
	if l := e.dur.loaded; l != nil {
		e.progress, e.progCount, e.progRows = l.progress.share(), l.count, l.rows
		e.unread, e.unreadRows = l.unread.share(), l.unreadRows
		return
	}
	e.progress = newPvec[VnodeProgress](len(e.owned))
	e.progCount = [3]int{NotStarted: len(e.owned)}
	e.progRows = 0
	e.progTab.each(func(vi int, r *ProgressRow) bool {
		p := VnodeProgress{State: InProgress, Pos: r.Pos, Rows: r.Rows}
		if r.Finished {
			p.State = Completed
		}
		e.putProgress(vi, p)
		return true
	})
	e.progChanged = nil
	e.progMoved = false
	e.countUnread()
	e.dur.loaded = e.loaded()
}

// unloadProgress forgets the in-memory progress (the executor restarts).
func (e *Engine) unloadProgress() {
	e.progress = nil
	e.progCount = [3]int{}
	e.progRows = 0
	e.progChanged = nil
	e.progMoved = false
	e.unread, e.unreadRows = bitset{}, 0
}

// putProgress changes a vnode's in-memory progress, keeping the counts.
func (e *Engine) putProgress(vi int, p VnodeProgress) {
	old := e.progress.at(vi)
	e.progCount[old.State]--
	e.progCount[p.State]++
	e.progRows += p.Rows - old.Rows
	e.progress.set(vi, p)
	e.progChanged = append(e.progChanged, int32(vi))
	e.progMoved = true
}

// advanceProgress moves a vnode's progress on (its builder was emitted), keeping the unread
// counts.
func (e *Engine) advanceProgress(vi int, p VnodeProgress) {
	before := e.unreadOf(vi)
	e.putProgress(vi, p)
	after := e.unreadOf(vi)
	e.unreadRows += after - before
	e.unread.put(vi, after > 0)
}

// startedVnodes calls f, in vnode order, for every vnode whose progress is not NotStarted,
// until f returns false.
func (e *Engine) startedVnodes(f func(vi int, p VnodeProgress) bool) {
	if e.progress == nil || e.progCount[NotStarted] == len(e.owned) {
		return
	}
	for vi, p := range e.progress.present() {
		if p.State != NotStarted && !f(vi, p) {
			return
		}
	}
}

// changedProgress returns, ascending and without repeats, the vnodes whose progress changed
// since the last call, and forgets them.
func (e *Engine) changedProgress() []int32 {
	c := e.progChanged
	e.progChanged = nil
	slices.Sort(c)
	return slices.Compact(c)
}

// newBuilders makes one empty builder per owned vnode. A builder is a pseq, so an engine copy
// that appends to it copies a path of nodes, not the rows it holds.
func (e *Engine) newBuilders() {
	e.builders = newPvec[pseq[Row]](len(e.owned))
	e.builderRows = 0
}

// dropBuilders forgets the builders (outside the backfill there are none).
func (e *Engine) dropBuilders() {
	e.builders = nil
	e.builderRows = 0
}

// builderOf returns a new slice of the rows a vnode's builder holds.
func (e *Engine) builderOf(vi int) []Row {
	if e.builders == nil {
		return nil
	}
	b := e.builders.at(vi)
	return b.slice(0, b.len())
}

// builderLast returns the last row of a vnode's builder, if it holds any.
func (e *Engine) builderLast(vi int) (Row, bool) {
	if e.builders == nil {
		return nil, false
	}
	if b := e.builders.at(vi); b.len() > 0 {
		return b.at(b.len() - 1), true
	}
	return nil, false
}

// appendToBuilder adds a row to a vnode's builder and returns how many it now holds.
func (e *Engine) appendToBuilder(vi int, row Row) int {
	b := e.builders.at(vi)
	b = b.push(e.builders.tag, row)
	e.builders.set(vi, b)
	e.builderRows++
	return b.len()
}

// takeBuilder empties a vnode's builder and returns the rows it held.
func (e *Engine) takeBuilder(vi int) []Row {
	rows := e.builderOf(vi)
	e.builderRows -= len(rows)
	e.builders.set(vi, pseq[Row]{})
	return rows
}

// nonEmptyBuilders calls f, in vnode order, for every builder that holds rows.
func (e *Engine) nonEmptyBuilders(f func(vi int, b pseq[Row])) {
	if e.builders == nil || e.builderRows == 0 {
		return
	}
	for vi, b := range e.builders.present() {
		if b.len() > 0 {
			f(vi, b)
		}
	}
}

// markDirty notes that a vnode changed since the invariant last looked at it (a vnode marked
// twice in a row is noted once).
func (e *Engine) markDirty(vi int) {
	if n := len(e.dirty); n == 0 || e.dirty[n-1] != int32(vi) {
		e.dirty = append(e.dirty, int32(vi))
	}
}

// touch records that a row of owned vnode vi changed (in the upstream's content or in
// downstream's view): the next check looks at the vnode again. (The check costs what changed
// in the vnode, not its rows: see checkVnode.)
func (e *Engine) touch(vi int, _ Row) { e.markDirty(vi) }

// touchFrom records that what the check expects of vnode vi may change from pk from on (a
// vnode's pos moves on from there; nil: anywhere).
func (e *Engine) touchFrom(vi int, _ Row) { e.markDirty(vi) }

// markAllDirty makes the next check look at every vnode again.
func (e *Engine) markAllDirty() { e.allDirty = true }

// maxNarratedRows bounds the rows one sentence of narration lists (the rest are counted).
const maxNarratedRows = 8

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
