package engine

// The panels of the view (package view) that only the engine can make, and what the view reads.

// SnapshotView is the open snapshot stream.
type SnapshotView struct {
	Epoch     int64      `json:"epoch"`
	Vnodes    []LaneView `json:"vnodes"`
	Remaining int        `json:"remaining"`
	OpenedAt  int        `json:"refreshed_at_step"`
	Refreshed bool       `json:"refreshed"`
}

// LaneView is one vnode's rows in the snapshot, with the index of the next one to deliver.
type LaneView struct {
	Vnode  int   `json:"vnode"`
	Rows   []Row `json:"rows"`
	Next   int   `json:"next"`
	Pos    Row   `json:"pos"`
	Offset int   `json:"offset"` // index of rows[0] in the lane (a long lane is shown in a window around next)
	Total  int   `json:"total"`  // rows in the lane
}

// maxLaneRows bounds a snapshot lane's window.
const maxLaneRows = 64

// maxViewRows bounds the rows of one panel of the view (the upstream's content, downstream's;
// package view bounds the state table's alike).
const maxViewRows = 500

// Epoch is the epoch of the last barrier the executor processed.
func (e *Engine) Epoch() int64 { return e.epoch }

// PK lists the table's primary key columns (indexes into Config.Columns).
func (e *Engine) PK() []int { return e.pk }

// UpstreamEnded reports whether the upstream's stream has ended.
func (e *Engine) UpstreamEnded() bool { return e.upEnded }

// UpstreamContent is the upstream's content, its first rows (at most maxViewRows).
func (e *Engine) UpstreamContent() []Row { return e.world.upstream.firstRows(maxViewRows) }

// DownstreamContent is downstream's view, its first rows (at most maxViewRows).
func (e *Engine) DownstreamContent() []Row { return e.world.down.firstRows(maxViewRows) }

// SnapshotView is the open snapshot stream, or nil.
func (e *Engine) SnapshotView() *SnapshotView {
	if e.snap == nil {
		return nil
	}
	return &SnapshotView{Epoch: e.snap.epoch, Remaining: e.snap.Remaining(), OpenedAt: e.snap.openedAt, Refreshed: e.snap.refreshed, Vnodes: e.laneViews()}
}

// BuilderRows is each owned vnode's chunk builder, a copy of its rows; nil before the backfill
// makes them.
func (e *Engine) BuilderRows() [][]Row {
	if e.builders == nil {
		return nil
	}
	out := make([][]Row, len(e.owned))
	for vi := range OwnedIndex(len(e.owned)) {
		out[vi] = append([]Row{}, e.builderOf(vi)...)
	}
	return out
}

// Progress is each owned vnode's progress; nil before it is loaded.
func (e *Engine) Progress() []VnodeProgress {
	if e.progress == nil {
		return nil
	}
	out := make([]VnodeProgress, len(e.owned))
	for vi := range OwnedIndex(len(e.owned)) {
		out[vi] = e.progress.At(vi)
	}
	return out
}

// Buffered calls f for each chunk of the upstream buffer, in order: the step it arrived at and
// its rows (visible ones: a buffered chunk is compacted).
func (e *Engine) Buffered(f func(step int, rows []RowOp)) {
	for _, c := range e.buffer {
		f(c.step, c.rows)
	}
}

// CommittedRows calls f for each committed row of the state table, vnode by vnode in pk order,
// until f returns false; PendingWrites calls f for each uncommitted write, in order (put: an
// insert, else a delete).
func (e *Engine) CommittedRows(f func(vnode int, r Row) bool) {
	for vi, part := range e.state.committed.Present() {
		ok := true
		part.Each(0, func(r Row) bool { ok = f(e.owned[vi], r); return ok })
		if !ok {
			return
		}
	}
}

// PendingWrites: see CommittedRows.
func (e *Engine) PendingWrites(f func(put bool, vnode int, r Row)) {
	for _, w := range e.state.pending {
		f(w.put, e.owned[w.vi], w.row)
	}
}

// ProgressTableRows is the progress table as committed (not yet durable).
func (e *Engine) ProgressTableRows() [][]any { return e.progTab.Rows() }

// NextEpoch is the smallest epoch the next barrier may carry (epochs increase strictly, also
// across a recovery).
func (e *Engine) NextEpoch() int64 { return e.lastEpoch + 1 }
