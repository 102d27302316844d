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

// vnodeCheck is the invariant's result for one vnode, kept until the vnode changes.
type vnodeCheck struct {
	expected       int
	missing, extra []Row
}

func (e *Engine) markAllDirty() {
	for i := range e.dirty {
		e.dirty[i] = true
	}
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

// passedCount is how many of a vnode's upstream rows (in pk order) downstream must hold.
func (e *Engine) passedCount(vi int) int {
	switch {
	case e.snapshotFinished:
		return len(e.upstream.parts[vi])
	case e.progress == nil:
		return 0
	}
	switch p := e.progress[vi]; p.State {
	case Completed:
		return len(e.upstream.parts[vi])
	case InProgress:
		return e.upstream.countUpTo(vi, p.Pos)
	}
	return 0
}

// checkVnode merges a vnode's expected rows with downstream's, both in (pk, row) order.
func (e *Engine) checkVnode(vi int) vnodeCheck {
	n := e.passedCount(vi)
	want := e.upstream.parts[vi][:n]
	have := e.down.parts[vi]
	c := vnodeCheck{expected: n}
	extra := func(en rsEntry, keep int) {
		for k := keep; k < en.count; k++ {
			c.extra = append(c.extra, en.row)
		}
	}
	i, j := 0, 0
	for i < len(want) || j < len(have) {
		var cmp int
		switch {
		case i == len(want):
			cmp = 1
		case j == len(have):
			cmp = -1
		default:
			cmp = e.down.cmp(want[i].row, have[j].row)
		}
		switch {
		case cmp < 0:
			c.missing = append(c.missing, want[i].row)
			i++
		case cmp > 0:
			extra(have[j], 0)
			j++
		default:
			extra(have[j], 1)
			i++
			j++
		}
	}
	return c
}

// checkInvariant compares downstream's view with the passed part of the upstream's content,
// looking again only at the vnodes that changed since the last check.
func (e *Engine) checkInvariant() {
	var missing, extra []Row
	expected := 0
	for vi := range e.owned {
		if e.dirty[vi] {
			e.invParts[vi] = e.checkVnode(vi)
			e.dirty[vi] = false
		}
		c := e.invParts[vi]
		expected += c.expected
		missing = append(missing, c.missing...)
		extra = append(extra, c.extra...)
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
		inv.Text = fmt.Sprintf("Invariant holds at e%d: downstream's %s equal %s.", e.epoch, plural(expected, "row"), scope)
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
		e.say(siteInvariant, "%s (This check is the explainer's own, not RisingWave's.)", inv.Text)
		if info := e.cfg.Bug.Info(); info != nil {
			e.sayBug(info.cause, "caused this. %s", info.Why)
			if info.Fix != "" && e.narrate {
				e.effects[len(e.effects)-1].Fix = info.Fix
			}
		}
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
