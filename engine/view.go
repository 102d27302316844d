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

// BufferView is one buffered upstream chunk.
type BufferView struct {
	ArrivedStep int          `json:"arrived_step"`
	Rows        []outRowJSON `json:"rows"`
}

// VnodeRow is a state-table row with its vnode.
type VnodeRow struct {
	Vnode  int `json:"vnode"`
	Values Row `json:"values"`
}

// PendingRow is an uncommitted state-table write.
type PendingRow struct {
	Op     string `json:"op"`
	Vnode  int    `json:"vnode"`
	Values Row    `json:"values"`
}

// maxLaneRows bounds a snapshot lane's window.
const maxLaneRows = 64

// maxViewRows bounds the rows of one panel of the view (a snapshot lane, the state table).
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

// BufferView is the upstream buffer, chunk by chunk.
func (e *Engine) BufferView() []BufferView {
	out := []BufferView{}
	for _, b := range e.buffer {
		bv := BufferView{ArrivedStep: b.step, Rows: make([]outRowJSON, len(b.rows))}
		for i, r := range b.rows {
			_, vn := e.vnodeIndex(r.Row)
			bv.Rows[i] = outRowJSON{Op: r.Op.String(), Values: r.Row, Visible: r.Visible, Vnode: vn}
		}
		out = append(out, bv)
	}
	return out
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

// StateTableRows is the state table: its committed rows (at most maxViewRows) and its pending
// writes.
func (e *Engine) StateTableRows() (rows []VnodeRow, pending []PendingRow) {
	rows, pending = []VnodeRow{}, []PendingRow{}
	for vi, part := range e.state.committed.Present() {
		part.Each(0, func(r Row) bool {
			rows = append(rows, VnodeRow{e.owned[vi], r})
			return len(rows) < maxViewRows
		})
		if len(rows) >= maxViewRows {
			break
		}
	}
	for _, w := range e.state.pending {
		op := "-"
		if w.put {
			op = "+"
		}
		pending = append(pending, PendingRow{op, e.owned[w.vi], w.row})
	}
	return rows, pending
}

// ProgressTableRows is the progress table as committed (not yet durable).
func (e *Engine) ProgressTableRows() [][]any { return e.progTab.Rows() }

// NextEpoch is the smallest epoch the next barrier may carry (epochs increase strictly, also
// across a recovery).
func (e *Engine) NextEpoch() int64 { return e.lastEpoch + 1 }
