package engine

import (
	"fmt"
	"strings"
)

// onBackfillUpstream handles an upstream message during the backfill; the upstream wins every
// race, so the snapshot waits (LP:577-605).
func (e *Engine) onBackfillUpstream(s Step) {
	switch s.Kind {
	case EventChunk:
		var rows []RowOp
		for _, r := range s.Chunk {
			if r.Visible {
				rows = append(rows, r)
			}
		}
		bc := bufferedChunk{rows: rows, step: e.step}
		if e.cfg.Bug == BugMarkOnArrival {
			bc.marked = e.mark(rows, true)
			e.explainBug(siteBugMarkArrival, "the chunk is marked now, on arrival, against the positions of this moment: %s. RisingWave only buffers it here and marks it at the barrier (these lines).", whyList(bc.marked))
		}
		e.buffer = append(e.buffer, bc)
		msg := fmt.Sprintf("Backfill: the upstream wins the race; its chunk is appended to the upstream buffer (now %s) and not emitted yet: it will be marked at the next barrier", Plural(len(e.buffer), "chunk"))
		if d := len(s.Chunk) - len(rows); d > 0 {
			msg += fmt.Sprintf(". Compacted first: %s dropped", Plural(d, "invisible row"))
		}
		e.explain(siteChunkBuffered, "%s.", msg)
	case EventWatermark:
		e.explain(siteBackWatermark, "Backfill: watermark %s dropped; watermarks pass only after the backfill.", s.Describe(e.cfg.Columns)[len("watermark "):])
	case EventError:
		e.explain(siteBackError, "Backfill: the upstream yields an error and the executor returns it%s.", prefixed("; ", e.lostWork()))
		e.fail(FailUpstreamError, s.Message, siteFailBackError)
	case EventEnd:
		e.upEnded = true
		if !e.rel().EndFails {
			e.silentEnd()
			return
		}
		e.explain(siteBackEnd, "Backfill: the upstream stream ends before another barrier. Without a barrier the loop can neither persist progress nor finish, so it fails%s.", prefixed("; ", e.lostWork()))
		e.fail(FailUpstreamEnded, ErrUpstreamEnded, siteFailBackEnd)
	case EventBarrier:
		e.onBackfillBarrier(s.Barrier)
	}
}

// lostWork describes the in-memory work a failure throws away.
func (e *Engine) lostWork() string {
	b := e.tally.builderRows
	u := 0
	for _, c := range e.buffer {
		u += len(c.rows)
	}
	switch {
	case b == 0 && u == 0:
		return ""
	case u == 0:
		return fmt.Sprintf("the %s in the builders %s never emitted", Plural(b, "row"), isAre(b))
	case b == 0:
		return fmt.Sprintf("the %s in the upstream buffer %s never emitted", Plural(u, "row"), isAre(u))
	}
	return fmt.Sprintf("the %s in the builders and the %s in the upstream buffer are never emitted", Plural(b, "row"), Plural(u, "row"))
}

// snapshotItem delivers the snapshot's next item: a row into its vnode's builder, or the end.
func (e *Engine) snapshotItem() {
	vi, row, ok := e.snap.peek()
	rows, i := e.snap.cur.rows, e.snap.cur.next // (the lane peek moved to)
	e.snap.advance(vi)
	if !ok {
		e.onSnapshotEnd()
		return
	}
	n, c := e.appendToBuilder(vi, rows, i, 1), e.cfg.Capacity()
	if n == c {
		if e.narration.on {
			e.explain(siteRowFull, "The snapshot delivers %s of vnode %d; the builder is now full (%d of %d) and is emitted at once.", row.Project(e.pk), e.owned[vi], n, c)
			if e.job.throttled {
				e.explain(siteThrottleIgnored, "The throttle (rate limit %d, barrier e%d) changed nothing: the builders were created with the rate limit disabled, so this one filled to its full capacity of %s before it was emitted.", e.job.throttle, e.job.throttleEpoch, Plural(c, "row"))
			}
		}
		e.emitBuilder(vi)
		return
	}
	if e.narration.quietRow {
		e.narration.quietRows++
		return
	}
	if e.narration.on && e.upEnded {
		e.explain(siteRowEnded, "The upstream has ended, so the backfill reads only the snapshot: it delivers %s of vnode %d into its builder (%d of %d); nothing is emitted.", row.Project(e.pk), e.owned[vi], n, c)
	} else if e.narration.on {
		e.explain(siteRow, "The upstream has nothing ready (the select tries it first: lines %s), so the snapshot delivers %s of vnode %d into its builder (%d of %d); nothing is emitted.", e.raceLines(), row.Project(e.pk), e.owned[vi], n, c)
	}
}

// snapshotItems delivers the snapshot's next count items as snapshotItem does one by one, for
// a run without narration: the rows a builder takes from its lane before it is full (or the
// lane or the count ends) are taken at once.
func (e *Engine) snapshotItems(count int) {
	c := e.cfg.Capacity()
	for ; count > 0 && e.snap != nil; count-- {
		vi, _, ok := e.snap.peek()
		if !ok {
			e.snap.advance(vi)
			e.onSnapshotEnd()
			continue
		}
		l := &e.snap.cur
		k := min(count, l.rows.Len()-l.next, c-e.builders.At(vi).n)
		n := e.appendToBuilder(vi, l.rows, l.next, k)
		l.next += k
		e.snap.left -= k
		count -= k - 1 // (and the loop's one)
		if n == c {
			e.emitBuilder(vi)
		}
	}
}

// emitBuilder emits a builder's rows as an all-Insert, all-visible chunk and advances the
// vnode's progress to the chunk's last row (LP:405-425).
func (e *Engine) emitBuilder(vi OwnedIndex) {
	b := e.takeBuilder(vi)
	p := e.progress.At(vi)
	e.touchFrom(vi, p.Pos) // the check now expects the rows after the old pos (all: not started)
	p.State = InProgress
	p.Pos = b.last().Project(e.pk)
	p.Rows += int64(b.len())
	e.advanceProgress(vi, p)
	if e.scale.counter != nil {
		// scale mode counts the chunk instead of keeping it: its rows (the lane's, in pk order)
		// go straight into downstream's view, without a chunk of output rows made for nothing
		b.rows.Leaves(b.from, b.from+b.n, func(rows []Row) { e.world.down.addAscending(vi, rows) })
		e.touch(vi, nil)
		e.scale.counter.BuilderRows(b.n)
	} else {
		out := make([]OutRow, 0, b.len())
		b.rows.Leaves(b.from, b.from+b.n, func(rows []Row) {
			for _, r := range rows {
				out = append(out, OutRow{Op: OpInsert, Row: r, Visible: true, Vnode: e.owned[vi]})
			}
		})
		e.emitChunkOf(vi, out, "builder")
	}
	if !e.narration.on {
		return // (the arguments below cost more than the emission itself)
	}
	e.explain(siteBuilderEmitted, "Builder of vnode %d emitted: %s, all visible; vnode %d is now in progress at %s with %s.", e.owned[vi], Plural(b.len(), "row"), e.owned[vi], p.Pos, Plural(int(p.Rows), "row"))
}

// buildersHold reports whether some builder holds rows.
func (e *Engine) buildersHold() bool { return e.tally.builderRows > 0 }

// drainBuilders emits every non-empty builder in ascending vnode order.
func (e *Engine) drainBuilders() {
	var full []OwnedIndex
	e.nonEmptyBuilders(func(vi OwnedIndex, _ builder) { full = append(full, vi) })
	for _, vi := range full {
		e.emitBuilder(vi)
	}
}

// onSnapshotEnd drains the builders, flushes the buffer fully visible, and waits for the next
// barrier (LP:624-653). The end is not a barrier: nothing is persisted here.
func (e *Engine) onSnapshotEnd() {
	e.explain(siteSnapshotEnd, "The snapshot ends: every owned vnode has been read.")
	if e.buildersHold() {
		e.explain(siteEndDrain, "Every non-empty builder is emitted, in vnode order (RisingWave's own order is arbitrary).")
		e.drainBuilders()
	}
	for _, c := range e.buffer {
		out := make([]OutRow, len(c.rows))
		for i, r := range c.rows {
			_, v := e.vnodeIndex(r.Row)
			out[i] = OutRow{Op: r.Op, Row: r.Row, Visible: true, Vnode: v}
		}
		e.emitChunk(out, "flushed")
	}
	if len(e.buffer) > 0 {
		e.explain(siteFlush, "The %s in the upstream buffer %s emitted fully visible and not written to the state table: the snapshot has read everything, so every change now goes straight downstream.", Plural(len(e.buffer), "chunk"), isAre(len(e.buffer)))
	}
	e.buffer = nil
	e.dropBuilders()
	e.snap = nil
	e.snapshotFinished = true
	e.markAllDirty()
	e.phase = PhaseCompleting
	e.explain(siteCompleting, "Completion: nothing is persisted here. The vnodes become completed only at the next barrier, which persists them; until then the progress table keeps the last positions.")
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// onBackfillBarrier processes an upstream barrier in the exact order of LP:657-735.
func (e *Engine) onBackfillBarrier(b Barrier) {
	// 1. drain the builders so that marking uses end-of-epoch positions
	refresh := false
	e.barrierFails = e.rescaleFails(b) // the rescale check (step 4) fails after the marking
	defer func() { e.barrierFails = false }()
	if e.cfg.Bug == BugMarkBeforeDrain {
		e.explainBug(siteBugMarkFirst, "the buffered chunks are marked before the builders are drained, against positions that lag behind the rows the builders hold. RisingWave drains every builder first, then marks (these lines).")
		refresh = e.markBuffered()
	}
	switch {
	case !e.buildersHold():
		e.explain(siteDrainNone, "Barrier e%d: the builders are empty, nothing to drain.", b.Epoch)
	case e.cfg.Bug == BugMarkBeforeDrain:
		e.explain(siteDrainLate, "Barrier e%d: only now is every non-empty builder emitted (ascending vnode); the positions move past rows the marking above judged against older positions.", b.Epoch)
		e.drainBuilders()
	default:
		e.explain(siteDrain, "Barrier e%d: first every non-empty builder is emitted (in vnode order), so the positions used below include every row the snapshot has delivered.", b.Epoch)
		e.drainBuilders()
	}
	// 2. refresh iff some upstream chunk arrived in this epoch; 3. mark and store the buffer
	if e.cfg.Bug != BugMarkBeforeDrain {
		refresh = e.markBuffered()
	}
	e.finishBarrier(b, refresh)
}

// markBuffered marks (or holds back) each buffered chunk and writes it to the state table
// (step 3 of LP:657-735), then empties the buffer. It reports whether the buffer held any chunk
// (step 2: the snapshot stream is then refreshed). Each row's reason says what really becomes
// of it in this run.
func (e *Engine) markBuffered() bool {
	refresh := len(e.buffer) > 0
	anyInProgress := e.tally.byState[InProgress] > 0
	written := e.cfg.Bug != BugNoStateWrite
	e.tally.pendingIdx = nil
	e.narration.heldFates = nil
	if written {
		// marking never reads the state table, so writing every chunk first changes nothing but
		// lets each row's reason name the key's version the refreshed snapshot will read
		for _, c := range e.buffer {
			for _, r := range c.rows {
				vi, _ := e.vnodeIndex(r.Row)
				e.state.write(r.Op.IsInsert(), vi, r.Row)
			}
		}
	}
	for _, c := range e.buffer {
		if !written {
			e.explainBug(siteBugNoWrite, "the buffered %s is NOT written to the state table. RisingWave writes every buffered chunk there at the barrier (these lines).", chunkString(c.rows))
		}
		if !anyInProgress {
			e.explainGate(c.rows, written)
			continue
		}
		out := c.marked
		if out == nil {
			out = e.mark(c.rows, false)
		}
		if e.cfg.Bug == BugEmitBeyondPos {
			var early []string
			for _, r := range c.rows {
				if e.beyondPos(r) {
					early = append(early, r.Op.String()+r.Row.String())
				}
			}
			if len(early) > 0 {
				e.explainBug(siteBugEmitBeyond, "%s %s past %s vnode's pos but emitted visible. RisingWave hides such a row (these lines).", strings.Join(early, " "), isAre(len(early)), map[bool]string{true: "its", false: "their"}[len(early) == 1])
			}
		}
		e.explainMarked(out, written)
		e.emitChunk(out, "marked")
		against := "marked against these positions"
		if c.marked != nil {
			against = "marked when it arrived (against the positions then, in this run)"
		}
		if written {
			e.explain(siteMark, "The buffered chunk is %s, emitted, and written to the state table.", against)
		} else {
			e.explain(siteMarkUnwritten, "The buffered chunk is %s and emitted (in this run not written to the state table).", against)
		}
		if len(out) == 0 {
			e.explain(siteMarkRows, "The chunk is empty (all its rows were invisible) and is emitted empty.")
		} else {
			e.explain(siteMarkRows, "Row by row: %s.", whyList(out))
		}
	}
	e.buffer = nil
	e.tally.pendingIdx = nil
	return refresh
}

// explainGate narrates a buffered chunk that is not emitted because no vnode is in progress, with
// what becomes of each of its rows (kept in heldFates for predict mode, narrated or not).
func (e *Engine) explainGate(rows []RowOp, written bool) {
	if !e.explains() {
		return // (scale mode: no narration, and no predict mode to read the fates)
	}
	fates := make([]string, len(rows))
	gap := false
	for i, r := range rows {
		vi, v := e.vnodeIndex(r.Row)
		if e.progress.At(vi).State == Completed {
			gap = true
		}
		fate := strings.TrimPrefix(e.hiddenFate(r, written), "but ")
		e.narration.heldFates = append(e.narration.heldFates, fate)
		fates[i] = fmt.Sprintf("%s of vnode %d: %s", r.Op.String()+r.Row.String(), v, fate)
	}
	if !e.narration.on {
		return
	}
	if len(fates) == 0 {
		fates = append(fates, "it is empty (all its rows were invisible)")
	}
	what, site := "it is only written to the state table", siteGate
	if !written {
		what, site = "in this run it is not written to the state table either", siteGateUnwritten
	}
	note := ""
	switch {
	case gap && e.cfg.Bug == BugMarkBeforeDrain && e.tally.builderRows > 0:
		// the drain RisingWave does first would have put a vnode in progress: only the bug gets here
		note = " In this run the buffer is marked before the builders are drained, so the vnodes the drain would have put in progress do not count yet: RisingWave, draining first, would mark this chunk instead."
	case gap:
		note = " Losing a change to a completed vnode this way is a gap in RisingWave's code (reachable only after an offline reschedule), reproduced here on purpose."
	}
	e.explain(site, "No vnode is in progress, so the buffered %s is not emitted at all; %s. %s.%s", chunkString(rows), what, Upper(strings.Join(fates, "; ")), note)
}

// whyList joins marked rows' reasons (at most 12).
func whyList(out []OutRow) string {
	why := make([]string, 0, 12)
	for i, o := range out {
		if i == 12 {
			why = append(why, fmt.Sprintf("and %d more (each row carries its reason)", len(out)-12))
			break
		}
		why = append(why, o.Why)
	}
	if len(out) == 0 {
		why = append(why, "it is empty (all its rows were invisible) and is emitted empty")
	}
	return strings.Join(why, "; ")
}

// finishBarrier is steps 4-7 of LP:657-735: the rescale check, commit, report and persist,
// emit, and refresh or reuse the snapshot stream.
func (e *Engine) finishBarrier(b Barrier, refresh bool) {
	// 4. a rescale fails here, after chunks were already emitted
	if e.checkRescale(b) {
		return
	}
	if b.Rescale {
		e.rescaleIgnored(b)
	} else if m := b.mutationText(); m != "" {
		e.explain(siteBarMutation, "Barrier e%d carries %s, which the executor ignores: %s.", b.Epoch, m, e.ignoresMutations("at a barrier of the backfill", "at a barrier of the backfill"))
	}
	// 5. commit the state table, report progress, persist progress, commit the progress table
	n := len(e.state.pending)
	e.commitState(b.Epoch)
	switch {
	case n > 0:
		e.explain(siteBarCommit, "The state table commits %s.", Plural(n, "write"))
	case refresh && e.cfg.Bug == BugNoStateWrite:
		e.explain(siteBarCommit, "The state table commits, with nothing to write: in this run the buffered chunks were not written to it.")
	default:
		e.explain(siteBarCommit, "The state table commits, with nothing to write.")
	}
	rows := e.processedRows()
	e.report(ReportUpdate, b.Epoch, rows)
	e.explain(siteBarReport, "Progress reported to the meta service: %s processed, the sum of every vnode's row count%s.", Plural(int(rows), "snapshot row"), e.bufferedText())
	// every vnode not NotStarted is written (RisingWave updates each row every barrier); only
	// the rows that changed are put here, since writing a row as it is changes nothing
	var persisted []string
	if e.narration.on {
		e.startedVnodes(func(vi OwnedIndex, p VnodeProgress) bool {
			r := e.progressRow(vi, p)
			verb := "update"
			if e.progTab.get(vi) == nil {
				verb = "insert"
			}
			persisted = append(persisted, verb+" "+r.Words())
			return len(persisted) <= 6 // joinMax below shows 6
		})
	}
	for _, vi := range e.changedProgress() {
		if p := e.progress.At(vi); p.State != NotStarted {
			e.progTab.put(vi, e.progressRow(vi, p))
		}
	}
	if len(persisted) > 0 {
		e.explain(siteBarPersist, "Progress persisted and the progress table committed: %s.", joinMax(persisted, 6))
	} else {
		e.explain(siteBarPersist, "The progress table commits with nothing to persist: no vnode has progress yet, and \"not started\" is never persisted.")
	}
	// 6. emit the barrier
	e.emitBarrier(b)
	e.explain(siteBarEmit, "Barrier e%d emitted%s.", b.Epoch, durability(b))
	if e.stopping(b) {
		e.checkInvariant() // the actor stops at it (actor.go): the snapshot is never read on
		return
	}
	// 7. refresh or reuse the snapshot stream
	switch {
	case refresh || !e.rel().KeepsSnapshot:
		e.openSnapshot(true)
	default:
		e.explain(siteReuse, "No upstream chunk arrived in this epoch, so the same snapshot stream is kept and read on where it was.")
	}
	e.noteIgnoredMutation(b)
	e.checkInvariant()
}
