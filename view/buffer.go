package view

import "github.com/backfill-explainer/explainer/engine"

// BufferView is one buffered upstream chunk.
type BufferView struct {
	ArrivedStep int                 `json:"arrived_step"`
	Rows        []engine.OutRowView `json:"rows"`
}

// VnodeRow is a state-table row with its vnode.
type VnodeRow struct {
	Vnode  int        `json:"vnode"`
	Values engine.Row `json:"values"`
}

// PendingRow is an uncommitted state-table write.
type PendingRow struct {
	Op     string     `json:"op"`
	Vnode  int        `json:"vnode"`
	Values engine.Row `json:"values"`
}

// Buffer is the upstream buffer, chunk by chunk. (Out of line: Fill and the prediction call it,
// and inlined in both it cost the wasm more.)
//
//go:noinline
func Buffer(e *engine.Engine) []BufferView {
	out := []BufferView{}
	e.Buffered(func(step int, rows []engine.RowOp) {
		bv := BufferView{ArrivedStep: step, Rows: make([]engine.OutRowView, len(rows))}
		for i, r := range rows {
			bv.Rows[i] = engine.OutRowView{Op: r.Op.String(), Values: r.Row, Visible: r.Visible, Vnode: vnodeOf(e, r.Row)}
		}
		out = append(out, bv)
	})
	return out
}

// vnodeOf is the vnode a row is placed on (-1 when it cannot be placed).
func vnodeOf(e *engine.Engine, r engine.Row) int {
	v, err := e.Config().Vnode(r)
	if err != nil {
		return -1
	}
	return v
}

// StateTable is the state table: its committed rows (at most maxViewRows) and its pending
// writes.
func StateTable(e *engine.Engine) (rows []VnodeRow, pending []PendingRow) {
	rows, pending = []VnodeRow{}, []PendingRow{}
	e.CommittedRows(func(vnode int, r engine.Row) bool {
		rows = append(rows, VnodeRow{vnode, r})
		return len(rows) < maxViewRows
	})
	e.PendingWrites(func(put bool, vnode int, r engine.Row) {
		op := "-"
		if put {
			op = "+"
		}
		pending = append(pending, PendingRow{op, vnode, r})
	})
	return rows, pending
}

// maxViewRows bounds the rows of the state table's panel (the engine bounds the upstream's
// content and downstream's alike).
const maxViewRows = 500
