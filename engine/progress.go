package engine

import (
	"fmt"

	"github.com/backfill-explainer/explainer/internal/persist"
)

// ProgressState is a vnode's backfill state.
type ProgressState uint8

const (
	NotStarted ProgressState = iota
	InProgress
	Completed
)

func (s ProgressState) String() string {
	switch s {
	case InProgress:
		return "in_progress"
	case Completed:
		return "completed"
	}
	return "not_started"
}

// VnodeProgress is NotStarted | InProgress{pos, rows} | Completed{pos, rows}.
type VnodeProgress struct {
	State ProgressState
	Pos   Row // pk of the last row the snapshot emitted for this vnode (all NULL when completed empty)
	Rows  int64
}

func (p VnodeProgress) describe(vnode int) string {
	switch p.State {
	case InProgress:
		return fmt.Sprintf("v%d in progress at %s, %s", vnode, p.Pos, Plural(int(p.Rows), "row"))
	case Completed:
		return fmt.Sprintf("v%d completed at %s, %s", vnode, p.Pos, Plural(int(p.Rows), "row"))
	}
	return fmt.Sprintf("v%d not started", vnode)
}

// ProgressTable is the persisted progress: one row per vnode, pk = vnode.
// rows is what the last barrier committed; an absent vnode has never been persisted. Copies
// share pages of vnodes (persist.Vec), so a checkpoint's copy costs one pointer per page.
type ProgressTable struct {
	rows *persist.Vec[OwnedIndex, *ProgressRow] // nil = no row
	n    int                                    // rows present
}

func newProgressTable(owned int) *ProgressTable {
	return &ProgressTable{rows: persist.NewVec[OwnedIndex, *ProgressRow](owned)}
}

func (t *ProgressTable) clone() *ProgressTable {
	return &ProgressTable{rows: t.rows.Share(), n: t.n}
}

// get returns a vnode's row, or nil.
func (t *ProgressTable) get(vi OwnedIndex) *ProgressRow { return t.rows.At(vi) }

// put persists one vnode (rows are replaced, never mutated, so clones may share them).
// It reports whether the row was inserted (false: updated).
func (t *ProgressTable) put(vi OwnedIndex, r ProgressRow) bool {
	inserted := t.rows.At(vi) == nil
	if inserted {
		t.n++
	}
	t.rows.Set(vi, &r)
	return inserted
}

// Each calls f for every row present, in vnode order, until f returns false.
func (t *ProgressTable) Each(f func(vi OwnedIndex, r *ProgressRow) bool) {
	for vi, r := range t.rows.Present() {
		if r != nil && !f(vi, r) {
			return
		}
	}
}

// Rows returns the table's rows in vnode order as [vnode, pos…, finished, rows].
func (t *ProgressTable) Rows() [][]any {
	out := make([][]any, 0, t.n)
	t.Each(func(_ OwnedIndex, r *ProgressRow) bool {
		out = append(out, r.Tuple())
		return true
	})
	return out
}

// Tuple renders a progress row as [vnode, pos…, finished, rows].
func (r ProgressRow) Tuple() []any {
	t := make([]any, 0, len(r.Pos)+3)
	t = append(t, r.Vnode)
	for _, v := range r.Pos {
		t = append(t, v)
	}
	return append(t, r.Finished, r.Rows)
}

// String renders a progress row as in protocol.md, e.g. [0,2,101,false,2].
// Words renders a progress row for people: "vnode 0 (pos (2,101), not finished, 2 rows)".
func (r ProgressRow) Words() string {
	fin := "not finished"
	if r.Finished {
		fin = "finished"
	}
	pos := "no pos"
	if len(r.Pos) > 0 {
		pos = "pos " + r.Pos.String()
	}
	return fmt.Sprintf("vnode %d (%s, %s, %s)", r.Vnode, pos, fin, Plural(int(r.Rows), "row"))
}

func (r ProgressRow) String() string {
	s := fmt.Sprintf("[%d", r.Vnode)
	for _, v := range r.Pos {
		s += "," + v.String()
	}
	return s + fmt.Sprintf(",%t,%d]", r.Finished, r.Rows)
}
