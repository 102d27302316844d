package engine

import (
	"fmt"
	"strings"
)

// Invariant is the result of the last check of protocol.md's invariant: downstream's view equals
// the upstream's net content restricted to what the backfill has passed.
type Invariant struct {
	Status  string `json:"status"` // holds | violated | unchecked
	Step    int    `json:"step"`
	Epoch   int64  `json:"epoch"`
	Text    string `json:"text"`
	Missing []Row  `json:"missing"`
	Extra   []Row  `json:"extra"`
}

// passed reports whether a row of the upstream's content is one downstream must already hold:
// every row of a Completed vnode (or of any vnode once the snapshot has ended), and every row
// with pk ≤ pos in an InProgress vnode.
func (e *Engine) passed(r Row) bool {
	if e.snapshotFinished {
		return true
	}
	if e.progress == nil {
		return false
	}
	vi, _ := e.vnodeIndex(r)
	p := e.progress[vi]
	switch p.State {
	case Completed:
		return true
	case InProgress:
		return CompareRows(r.Project(e.pk), p.Pos) <= 0
	}
	return false
}

// checkInvariant compares downstream's view with the passed part of the upstream's content.
func (e *Engine) checkInvariant() {
	expected := newMultiset()
	for _, r := range e.upstream.rows {
		if e.passed(r) {
			expected.add(r, 1)
		}
	}
	var missing, extra []Row
	for k, x := range expected.m {
		have := 0
		if d := e.down.m[k]; d != nil {
			have = d.count
		}
		for c := max(have, 0); c < x.count; c++ {
			missing = append(missing, x.row)
		}
	}
	for k, d := range e.down.m {
		want := 0
		if x := expected.m[k]; x != nil {
			want = x.count
		}
		for c := want; c < d.count; c++ {
			extra = append(extra, d.row)
		}
		if d.count < 0 {
			extra = append(extra, d.row) // deleted more often than inserted
		}
	}
	sortRows(missing)
	sortRows(extra)
	inv := Invariant{Step: e.step, Epoch: e.epoch, Missing: missing, Extra: extra}
	scope := "every row of the vnodes the backfill has passed (completed vnodes whole, in-progress vnodes up to their pos)"
	if e.snapshotFinished || e.phase == PhaseForwarding || e.phase == PhaseEnded {
		scope = "the upstream's whole content"
	}
	if len(missing) == 0 && len(extra) == 0 {
		inv.Status = "holds"
		inv.Text = fmt.Sprintf("Invariant holds at e%d: downstream's %s equal %s.", e.epoch, plural(len(expected.m), "row"), scope)
	} else {
		inv.Status = "violated"
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "missing "+rowList(missing))
		}
		if len(extra) > 0 {
			parts = append(parts, "extra (duplicated or stale) "+rowList(extra))
		}
		inv.Text = fmt.Sprintf("Invariant violated at e%d: downstream should hold %s, but is %s.", e.epoch, scope, strings.Join(parts, "; "))
	}
	if inv.Status == "violated" && e.inv.Status != "violated" {
		e.say("invariant", LinesBackfillBarrier, "%s", inv.Text)
	}
	e.inv = inv
}

func rowList(rows []Row) string {
	parts := make([]string, 0, 8)
	for i, r := range rows {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(rows)))
			break
		}
		parts = append(parts, r.String())
	}
	return strings.Join(parts, " ")
}

// Invariant returns the last check's result.
func (e *Engine) Invariant() Invariant { return e.inv }
