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
		e.dirtyFrom[i] = nil
	}
}

// touch records that a row of owned vnode vi changed (in the upstream's content or in
// downstream's view): the next check looks at the vnode again, from that row's pk on.
func (e *Engine) touch(vi int, row Row) {
	switch {
	case !e.dirty[vi]:
		e.dirty[vi] = true
		e.dirtyFrom[vi] = row.Project(e.pk)
	case e.dirtyFrom[vi] != nil && comparePK(row, e.dirtyFrom[vi], e.pk) < 0:
		e.dirtyFrom[vi] = row.Project(e.pk)
	}
}

// touchFrom records that what the check expects of vnode vi may change from pk from on (a
// vnode's pos moves on from there); nil: anywhere.
func (e *Engine) touchFrom(vi int, from Row) {
	switch {
	case from == nil:
		e.dirty[vi], e.dirtyFrom[vi] = true, nil
	case !e.dirty[vi]:
		e.dirty[vi], e.dirtyFrom[vi] = true, from
	case e.dirtyFrom[vi] != nil && CompareRows(from, e.dirtyFrom[vi]) < 0:
		e.dirtyFrom[vi] = from
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
	return e.passedIn(vi, r)
}

// passedIn is passed for a row of owned vnode index vi.
func (e *Engine) passedIn(vi int, r Row) bool {
	if e.snapshotFinished {
		return true
	}
	if e.progress == nil {
		return false
	}
	p := e.progress[vi]
	switch p.State {
	case Completed:
		return true
	case InProgress:
		return comparePK(r, p.Pos, e.pk) <= 0
	}
	return false
}

// passedCount is how many of a vnode's upstream rows (in pk order) downstream must hold.
func (e *Engine) passedCount(vi int) int {
	switch {
	case e.snapshotFinished:
		return e.upstream.parts[vi].n
	case e.progress == nil:
		return 0
	}
	switch p := e.progress[vi]; p.State {
	case Completed:
		return e.upstream.parts[vi].n
	case InProgress:
		return e.upstream.countUpTo(vi, p.Pos)
	}
	return 0
}

// checkVnode merges a vnode's expected rows with downstream's, both in (pk, row) order. When
// the last check of the vnode found nothing wrong, it merges only from pk from on (nil: from
// the start): below it nothing changed on either side, so both still agree there.
func (e *Engine) checkVnode(vi int, from Row) vnodeCheck {
	n := e.passedCount(vi)
	if prev := e.invParts[vi]; len(prev.missing) > 0 || len(prev.extra) > 0 {
		from = nil
	}
	skip, skipDown := 0, 0
	if from != nil {
		skip = min(n, e.upstream.countBelow(vi, from))
		skipDown = e.down.countBelow(vi, from)
	}
	wc := e.upstream.parts[vi].entriesFrom(skip, n-skip)
	hc := e.down.parts[vi].entriesFrom(skipDown, -1)
	c := vnodeCheck{expected: n}
	extra := func(en rsEntry, keep int) {
		for k := keep; k < en.count; k++ {
			c.extra = append(c.extra, en.row)
		}
	}
	want, wok := wc.next()
	have, hok := hc.next()
	for wok || hok {
		var cmp int
		switch {
		case !wok:
			cmp = 1
		case !hok:
			cmp = -1
		case sameRow(want.row, have.row):
			cmp = 0 // usually one Row: the upstream's, stored, read by the snapshot, emitted
		default:
			cmp = e.down.cmp(want.row, have.row)
		}
		switch {
		case cmp < 0:
			c.missing = append(c.missing, want.row)
			want, wok = wc.next()
		case cmp > 0:
			extra(have, 0)
			have, hok = hc.next()
		default:
			extra(have, 1)
			want, wok = wc.next()
			have, hok = hc.next()
		}
	}
	return c
}

// sameRow reports whether a and b are the same Row (the same values in memory).
func sameRow(a, b Row) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

// checkInvariant compares downstream's view with the passed part of the upstream's content,
// looking again only at the vnodes that changed since the last check.
func (e *Engine) checkInvariant() {
	var missing, extra []Row
	expected := 0
	for vi := range e.owned {
		if e.dirty[vi] {
			e.invParts[vi] = e.checkVnode(vi, e.dirtyFrom[vi])
			e.dirty[vi], e.dirtyFrom[vi] = false, nil
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
