package engine

import "slices"

// Scale mode: a workload's run (package workload) drives the engine with the steps its
// generator makes, from thousands to millions of rows, and counts what the executor emits
// instead of keeping it. What such a run needs of the engine beyond Apply is here.

// OutputCounter is told what the executor emits in scale mode, in place of the outputs, the
// timeline's marks and the narration the engine keeps otherwise (see CountOutputs).
type OutputCounter interface {
	// Chunk is told of an output chunk: its rows (the engine's: read them now, keep none) and
	// its source, "builder" or "upstream".
	Chunk(rows []OutRow, source string)
	// BuilderRows is told of n rows a builder emitted: they go straight into downstream's view,
	// without an output chunk made for them.
	BuilderRows(n int)
	// Barrier is told of a barrier emitted.
	Barrier()
}

// CountOutputs puts the engine in scale mode: from now on it tells c what it emits and keeps
// no outputs or marks, and explains only while narration is on (see SetNarration).
func (e *Engine) CountOutputs(c OutputCounter) { e.scale.counter = c }

// ApplyPlaced feeds a chunk the caller made and vouches for: its changes are ones the upstream
// can send (it is not validated, and its work is not counted), and owned[i] is the owned index
// of rows[i]'s vnode (the index in Config.Owned; -1 when not owned), as Config.Vnode places it.
// A workload's generator knows both, and its tests check them against Apply.
func (e *Engine) ApplyPlaced(rows []RowOp, owned []OwnedIndex) {
	e.scale.placed, e.scale.preplaced = owned, true
	e.apply(Step{Kind: EventChunk, Chunk: rows})
	e.scale.placed, e.scale.preplaced = nil, false
}

// ReserveWrites makes room in the state table for n more pending writes (a workload knows how
// many its next epoch makes before its barrier commits them).
func (e *Engine) ReserveWrites(n int) { e.state.pending = slices.Grow(e.state.pending, n) }

// StartRefused reports whether barrier b carries a start signal this release's meta service
// never sends (v2.7's, after a recovery: Apply refuses such a barrier), and why.
func (e *Engine) StartRefused(b Barrier) (why string, refused bool) {
	if !e.startRefused(b) {
		return "", false
	}
	return e.startRefusedText(), true
}

// Sizes is how much the engine holds now: counts, not rows, each kept up to date as it
// changes (reading them costs nothing per row).
type Sizes struct {
	BufferedRows int   // rows in the upstream buffer
	BuilderRows  int   // rows in the chunk builders
	Completed    int   // vnodes whose progress is Completed (once the progress is loaded)
	InProgress   int   // vnodes whose progress is InProgress
	UpstreamRows int   // rows of the upstream's content
	Epoch        int64 // the last barrier the executor processed
	Checkpoint   int64 // the epoch of the last checkpoint: where a recovery returns to
}

// Sizes returns how much the engine holds now.
func (e *Engine) Sizes() Sizes {
	s := Sizes{BuilderRows: e.tally.builderRows, Completed: e.tally.byState[Completed], InProgress: e.tally.byState[InProgress],
		UpstreamRows: e.world.upstream.rows, Epoch: e.epoch, Checkpoint: e.dur.epoch}
	for _, c := range e.buffer {
		s.BufferedRows += len(c.rows)
	}
	return s
}

// DownstreamRows counts the rows downstream holds, each copy once (it reads every row).
func (e *Engine) DownstreamRows() int {
	n := 0
	e.world.down.each(func(_ OwnedIndex, en rsEntry) bool {
		if en.count > 0 {
			n += en.count
		}
		return true
	})
	return n
}

// PassedFraction is the share of owned vnode i's rows (the upstream's content) that
// downstream must hold by now, as the invariant counts them: 1 once the vnode is completed or
// the snapshot has ended, the rows up to pos while in progress, 0 before. An empty vnode
// counts 1 once started.
func (e *Engine) PassedFraction(i int) float64 {
	vi := OwnedIndex(i)
	total := e.world.upstream.part(vi).Len()
	if total == 0 {
		if e.snapshotFinished || e.progress != nil && e.progress.At(vi).State != NotStarted {
			return 1
		}
		return 0
	}
	return float64(e.passedCount(vi)) / float64(total)
}

// scaleMode is scale mode's output counting, and the placement of the chunk being delivered
// (which ApplyPlaced lets the caller make).
type scaleMode struct {
	counter   OutputCounter // scale mode: outputs are counted here instead of kept
	placed    []OwnedIndex  // the owned index of each row of the chunk being delivered (placeChunk)
	preplaced bool          // ApplyPlaced: the caller placed the chunk (placed is set)
}
