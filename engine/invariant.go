package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/backfill-explainer/explainer/internal/persist"
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

// passed reports whether a row of the upstream's content is one downstream must already hold:
// every row of a Completed vnode (or of any vnode once the snapshot has ended), and every row
// with pk ≤ pos in an InProgress vnode.
func (e *Engine) passed(r Row) bool {
	if e.snapshotFinished || e.progress == nil {
		return e.snapshotFinished
	}
	vi, _ := e.vnodeIndex(r)
	return e.passedIn(vi, r)
}

// passedIn is passed for a row of owned vnode index vi.
func (e *Engine) passedIn(vi OwnedIndex, r Row) bool {
	if e.snapshotFinished {
		return true
	}
	if e.progress == nil {
		return false
	}
	p := e.progress.At(vi)
	switch p.State {
	case Completed:
		return true
	case InProgress:
		return comparePK(r, p.Pos, e.pk) <= 0
	}
	return false
}

// passedCount is how many of a vnode's upstream rows (in pk order) downstream must hold.
func (e *Engine) passedCount(vi OwnedIndex) int {
	switch {
	case e.snapshotFinished:
		return e.world.upstream.part(vi).Len()
	case e.progress == nil:
		return 0
	}
	switch p := e.progress.At(vi); p.State {
	case Completed:
		return e.world.upstream.part(vi).Len()
	case InProgress:
		return e.world.upstream.countUpTo(vi, p.Pos)
	}
	return 0
}

// checkVnode merges a vnode's expected rows with downstream's, both in (pk, row) order.
func (e *Engine) checkVnode(vi OwnedIndex) vnodeCheck {
	n := e.passedCount(vi)
	want := e.world.upstream.part(vi)
	have := e.world.down.part(vi)
	// downstream holds exactly the expected rows, once each, when the digests of its entries
	// (row and count) and of the expected entries (each with count 1) agree: the nodes keep
	// those sums, so this costs what changed since the last check, not the vnode's rows
	if have.Len() == n && have.SumFrom(0, entryDigest) == want.SumFrom(0, entryDigest).Sub(want.SumFrom(n, entryDigest)) {
		return vnodeCheck{expected: n}
	}
	e.check.checkedRows += want.Len() + have.Len()
	return e.compareVnode(vi, n)
}

// compareVnode merges a vnode's first n upstream rows (the expected ones) with downstream's,
// row by row, and names what is missing and extra.
func (e *Engine) compareVnode(vi OwnedIndex, n int) vnodeCheck {
	want := e.world.upstream.part(vi)
	have := e.world.down.part(vi)
	c := vnodeCheck{expected: n}
	extra := func(en rsEntry, keep int) {
		if en.count < 0 {
			c.extra = append(c.extra, en.row) // deleted more often than inserted
		}
		for k := keep; k < en.count; k++ {
			c.extra = append(c.extra, en.row)
		}
	}
	// walk both in order, a leaf at a time
	wi := persist.NewCursor(want, n)
	hi := persist.NewCursor(have, have.Len())
	for wi.Ok() || hi.Ok() {
		var cmp int
		switch {
		case !wi.Ok():
			cmp = 1
		case !hi.Ok():
			cmp = -1
		case sameRow(wi.Cur().row, hi.Cur().row):
			cmp = 0 // usually one Row: the upstream's, stored, read by the snapshot, emitted
		default:
			cmp = e.world.down.cmp(wi.Cur().row, hi.Cur().row)
		}
		switch {
		case cmp < 0:
			c.missing = append(c.missing, wi.Cur().row)
			wi.Next()
		case cmp > 0:
			extra(hi.Cur(), 0)
			hi.Next()
		default:
			if hi.Cur().count < 1 {
				c.missing = append(c.missing, wi.Cur().row)
			}
			extra(hi.Cur(), 1)
			wi.Next()
			hi.Next()
		}
	}
	return c
}

// sameRow reports whether a and b are the same Row (the same values in memory).
func sameRow(a, b Row) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

// bad reports whether a vnode's check found rows missing or extra.
func (c vnodeCheck) bad() bool { return len(c.missing) > 0 || len(c.extra) > 0 }

// recheck looks at one vnode again.
func (e *Engine) recheck(vi OwnedIndex) {
	old, c := e.check.parts.At(vi), e.checkVnode(vi)
	if old.expected == 0 && !old.bad() && c.expected == 0 && !c.bad() {
		return
	}
	e.check.expected += c.expected - old.expected
	if old.bad() {
		e.check.bad--
	}
	if c.bad() {
		e.check.bad++
	}
	e.check.parts.Set(vi, c)
}

// checkInvariant compares downstream's view with the passed part of the upstream's content,
// looking again only at the vnodes that changed since the last check (after a recovery or the
// snapshot's end, at every vnode that holds rows or held them at the last check).
func (e *Engine) checkInvariant() {
	if e.check.allDirty {
		for pi := 0; pi < e.check.parts.Pages(); pi++ {
			if !e.world.upstream.parts.HasPage(pi) && !e.world.down.parts.HasPage(pi) && !e.check.parts.HasPage(pi) {
				continue // no vnode of this page holds or held a row: nothing to check
			}
			lo, hi := e.check.parts.PageRange(pi)
			for vi := lo; vi < hi; vi++ {
				e.recheck(vi)
			}
		}
		e.check.allDirty = false
	} else {
		slices.Sort(e.check.dirty)
		for _, vi := range slices.Compact(e.check.dirty) {
			e.recheck(vi)
		}
	}
	e.check.dirty = e.check.dirty[:0]
	var missing, extra []Row
	if e.check.bad > 0 {
		for _, c := range e.check.parts.Present() {
			missing = append(missing, c.missing...)
			extra = append(extra, c.extra...)
		}
	}
	expected := e.check.expected
	sortRows(missing)
	sortRows(extra)
	inv := Invariant{Step: e.step, Epoch: e.epoch, Missing: missing, Extra: extra}
	scope := "every row of the vnodes the backfill has passed (completed vnodes whole, in-progress vnodes up to their pos)"
	if e.snapshotFinished || e.phase == PhaseForwarding || e.phase == PhaseEnded {
		scope = "the upstream's whole content"
	}
	if len(missing) == 0 && len(extra) == 0 {
		inv.Status = "holds"
		inv.Text = fmt.Sprintf("Invariant holds at e%d: downstream's %s equal %s.", e.epoch, Plural(expected, "row"), scope)
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
	if inv.Status == "violated" && e.check.result.Status != "violated" {
		e.markBroken()
		e.explain(siteInvariant, "%s (This check is the explainer's own, not RisingWave's.)", inv.Text)
		if info := e.cfg.Bug.Info(); info != nil {
			e.explainBug(info.cause, "caused this. %s", info.Why)
			if info.Fix != "" && e.narration.on {
				e.narration.explanations[len(e.narration.explanations)-1].Fix = info.Fix
			}
		}
	}
	e.check.result = inv
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
func (e *Engine) Invariant() Invariant { return e.check.result }

// world is what the executor is checked against: the upstream's content and downstream's view.
type world struct {
	upstream *rowset // the upstream's net content, per owned vnode, keyed by pk
	down     *rowset // downstream's view, per owned vnode
}

// checker is the invariant's bookkeeping: what changed since the last check, each vnode's last
// result and their sums.
type checker struct {
	dirty       []OwnedIndex                         // vnodes changed since the invariant last looked at them
	allDirty    bool                                 // every vnode must be looked at again
	parts       *persist.Vec[OwnedIndex, vnodeCheck] // the invariant's last result per vnode
	expected    int                                  // the sum of parts' expected
	bad         int                                  // vnodes whose parts has missing or extra rows
	checkedRows int                                  // rows the invariant compared one by one (see work)
	result      Invariant                            // the last check's result
}
