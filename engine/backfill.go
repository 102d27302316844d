package engine

import (
	"fmt"
	"strings"
)

// onBackfillUpstream handles an upstream message during the backfill; the upstream wins every
// race, so the snapshot waits (LP:582-612).
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
			bc.marked = e.mark(rows)
			e.sayBug("the chunk is marked now, on arrival, against the positions of this moment: %s.", whyList(bc.marked))
		}
		e.buffer = append(e.buffer, bc)
		msg := fmt.Sprintf("Backfill: the upstream wins the race; its chunk is appended to the upstream buffer (now %s) and not emitted yet: it will be marked at the next barrier", plural(len(e.buffer), "chunk"))
		if d := len(s.Chunk) - len(rows); d > 0 {
			msg += fmt.Sprintf(". Compacted first: %s dropped", plural(d, "invisible row"))
		}
		e.say("buffer", LinesBackfillLoop, "%s.", msg)
	case EventWatermark:
		e.say("drop", LinesBackfillLoop, "Backfill: watermark %s dropped; watermarks pass only after the backfill.", s.Describe(e.cfg.Columns)[len("watermark "):])
	case EventError:
		e.say("fail", LinesBackfillLoop, "Backfill: the upstream yields an error and the executor returns it%s.", prefixed("; ", e.lostWork()))
		e.fail(FailUpstreamError, s.Message, LinesBackfillLoop)
	case EventEnd:
		e.upEnded = true
		e.say("fail", LinesFatalEnd, "Backfill: the upstream stream ends before another barrier. Without a barrier the loop can neither persist progress nor finish, so it fails%s.", prefixed("; ", e.lostWork()))
		e.fail(FailUpstreamEnded, ErrUpstreamEnded, LinesFatalEnd)
	case EventBarrier:
		e.onBackfillBarrier(s.Barrier)
	}
}

// lostWork describes the in-memory work a failure throws away.
func (e *Engine) lostWork() string {
	b := 0
	for _, rows := range e.builders {
		b += len(rows)
	}
	u := 0
	for _, c := range e.buffer {
		u += len(c.rows)
	}
	switch {
	case b == 0 && u == 0:
		return ""
	case u == 0:
		return fmt.Sprintf("the %s in the builders %s never emitted", plural(b, "row"), isAre(b))
	case b == 0:
		return fmt.Sprintf("the %s in the upstream buffer %s never emitted", plural(u, "row"), isAre(u))
	}
	return fmt.Sprintf("the %s in the builders and the %s in the upstream buffer are never emitted", plural(b, "row"), plural(u, "row"))
}

// snapshotItem delivers the snapshot's next item: a row into its vnode's builder, or the end.
func (e *Engine) snapshotItem() {
	li, row, ok := e.snap.peek()
	e.snap.advance(li)
	if !ok {
		e.onSnapshotEnd()
		return
	}
	vi := e.snap.lanes[li].vi
	e.builders[vi] = append(e.builders[vi], row)
	n, c := len(e.builders[vi]), e.cfg.Capacity()
	if n == c {
		if e.narrate {
			e.say("snapshot", LinesSnapshotChunk, "The snapshot delivers %s of vnode %d; the builder is now full (%d of %d) and is emitted at once.", row.Project(e.pk), e.owned[vi], n, c)
		}
		e.emitBuilder(vi)
		return
	}
	if e.quietRow {
		e.quietRows++
		return
	}
	if e.narrate {
		e.say("snapshot", LinesBackfillLoop, "The upstream has nothing ready, so the snapshot delivers %s of vnode %d into its builder (%d of %d); nothing is emitted.", row.Project(e.pk), e.owned[vi], n, c)
	}
}

// emitBuilder emits a builder's rows as an all-Insert, all-visible chunk and advances the
// vnode's progress to the chunk's last row (LP:405-425).
func (e *Engine) emitBuilder(vi int) {
	rows := e.builders[vi]
	out := e.outRows(len(rows))
	for i, r := range rows {
		out[i] = OutRow{Op: OpInsert, Row: r, Visible: true, Vnode: e.owned[vi]}
	}
	p := &e.progress[vi]
	e.touchFrom(vi, p.Pos) // the check now expects the rows after the old pos (all: not started)
	p.State = InProgress
	p.Pos = rows[len(rows)-1].Project(e.pk)
	p.Rows += int64(len(rows))
	e.builders[vi] = rows[:0] // the rows now live in the output; reuse the array
	e.emitChunkOf(vi, out, "builder")
	if !e.narrate {
		return // (the arguments below cost more than the emission itself)
	}
	e.say("progress", LinesSnapshotChunk, "Builder of vnode %d emitted: %s, all visible; vnode %d is now in progress at %s with %s.", e.owned[vi], plural(len(out), "row"), e.owned[vi], p.Pos, plural(int(p.Rows), "row"))
}

// buildersHold reports whether some builder holds rows.
func (e *Engine) buildersHold() bool {
	for _, b := range e.builders {
		if len(b) > 0 {
			return true
		}
	}
	return false
}

// drainBuilders emits every non-empty builder in ascending vnode order.
func (e *Engine) drainBuilders() {
	for vi := range e.builders {
		if len(e.builders[vi]) > 0 {
			e.emitBuilder(vi)
		}
	}
}

// onSnapshotEnd drains the builders, flushes the buffer fully visible, and waits for the next
// barrier (LP:630-656). The end is not a barrier: nothing is persisted here.
func (e *Engine) onSnapshotEnd() {
	e.say("snapshot", LinesBackfillLoop, "The snapshot ends: every owned vnode has been read.")
	if e.buildersHold() {
		e.say("drain", LinesBackfillLoop, "Every non-empty builder is emitted, in ascending vnode order (RisingWave's order is a hash map's; we fix it).")
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
		e.say("flush", LinesBackfillLoop, "The %s in the upstream buffer %s emitted fully visible and not written to the state table: the snapshot has read everything, so every change now goes straight downstream.", plural(len(e.buffer), "chunk"), isAre(len(e.buffer)))
	}
	e.buffer = nil
	e.builders = nil
	e.snap = nil
	e.snapshotFinished = true
	e.markAllDirty()
	e.phase = PhaseCompleting
	e.say("phase", LinesCompletion, "Completion: the vnodes become Completed only at the next barrier, which persists them. A crash before it resumes from the last persisted positions.")
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
	if e.cfg.Bug == BugMarkBeforeDrain {
		e.sayBug("the buffered chunks are marked before the builders are drained, against positions that lag behind the rows the builders hold.")
		refresh = e.markBuffered()
	}
	if e.buildersHold() {
		if e.cfg.Bug == BugMarkBeforeDrain {
			e.say("drain", LinesBackfillBarrier, "Barrier e%d: only now is every non-empty builder emitted (ascending vnode); the positions move past rows the marking above judged against older positions.", b.Epoch)
		} else {
			e.say("drain", LinesBackfillBarrier, "Barrier e%d: first every non-empty builder is emitted (ascending vnode), so the positions used below include every row the snapshot has delivered.", b.Epoch)
		}
		e.drainBuilders()
	} else {
		e.say("drain", LinesBackfillBarrier, "Barrier e%d: the builders are empty, nothing to drain.", b.Epoch)
	}
	// 2. refresh iff some upstream chunk arrived in this epoch; 3. mark and store the buffer
	if e.cfg.Bug != BugMarkBeforeDrain {
		refresh = e.markBuffered()
	}
	e.finishBarrier(b, refresh)
}

// markBuffered marks (or holds back) each buffered chunk and writes it to the state table
// (step 3 of LP:657-735), then empties the buffer. It reports whether the buffer held any chunk
// (step 2: the snapshot stream is then refreshed).
func (e *Engine) markBuffered() bool {
	refresh := len(e.buffer) > 0
	anyInProgress := false
	for _, p := range e.progress {
		if p.State == InProgress {
			anyInProgress = true
		}
	}
	for _, c := range e.buffer {
		if e.cfg.Bug == BugNoStateWrite {
			e.sayBug("the buffered %s is NOT written to the state table, so a refreshed snapshot will not see it.", chunkString(c.rows))
		} else {
			for _, r := range c.rows {
				vi, _ := e.vnodeIndex(r.Row)
				e.state.write(r.Op.IsInsert(), vi, r.Row)
			}
		}
		if !anyInProgress {
			e.say("gate", LinesBackfillBarrier, "No vnode is in progress, so the buffered %s is not emitted at all; it is only written to the state table, where the snapshot will read it.%s", chunkString(c.rows), e.completedGap(c.rows))
			continue
		}
		out := c.marked
		if out == nil {
			out = e.mark(c.rows)
		}
		e.emitChunk(out, "marked")
		e.say("mark", LinesMarking, "The buffered chunk is marked against these positions and emitted, and written to the state table: %s.", whyList(out))
	}
	e.buffer = nil
	return refresh
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

// finishBarrier is steps 4-7 of LP:657-735: the rescale check, commit and persist, emit, and
// refresh or reuse the snapshot stream.
func (e *Engine) finishBarrier(b Barrier, refresh bool) {
	// 4. a rescale fails here, after chunks were already emitted
	if b.Rescale {
		e.say("fail", LinesBackfillBarrier, "Barrier e%d carries a new vnode bitmap for actor %d. The chunks above were already emitted, but nothing of this epoch is committed.", b.Epoch, e.cfg.Actor)
		e.fail(FailRescale, ErrRescale, LinesBackfillBarrier)
		return
	}
	// 5. commit the state table, persist progress, commit the progress table
	n := len(e.state.pending)
	e.state.commit(b.Epoch)
	var persisted []string
	for vi, p := range e.progress {
		if p.State == NotStarted {
			continue // NotStarted is never persisted
		}
		r := ProgressRow{Vnode: e.owned[vi], Pos: p.Pos, Finished: p.State == Completed, Rows: p.Rows}
		verb := "update"
		if e.progTab.put(vi, r) {
			verb = "insert"
		}
		if e.narrate {
			persisted = append(persisted, verb+" "+r.String())
		}
	}
	persist := "nothing to persist: no vnode has progress yet, and NotStarted is never persisted"
	if len(persisted) > 0 {
		persist = "progress table " + strings.Join(persisted, ", ")
	}
	e.say("persist", LinesPersistLoad, "Commit: the state table takes %s; %s; progress reported: %s.", plural(n, "write"), persist, plural(int(e.processedRows()), "snapshot row")+" processed")
	// 6. emit the barrier
	e.emitBarrier(b)
	e.say("emit", LinesBackfillBarrier, "Barrier e%d emitted%s.", b.Epoch, durability(b))
	// 7. refresh or reuse the snapshot stream
	if refresh {
		e.openSnapshot(true)
	} else {
		e.say("reuse", LinesBackfillBarrier, "No upstream chunk arrived in this epoch, so the same snapshot stream is kept and read on where it was.")
	}
	e.checkInvariant()
}

// completedGap notes when held-back rows belong to Completed vnodes: the snapshot will never
// read them (a gap in the real code, reproduced on purpose).
func (e *Engine) completedGap(rows []RowOp) string {
	var lost []string
	for _, r := range rows {
		vi, _ := e.vnodeIndex(r.Row)
		if e.progress[vi].State == Completed {
			lost = append(lost, r.Op.String()+r.Row.String())
		}
	}
	if len(lost) == 0 {
		return ""
	}
	verb := "belong"
	if len(lost) == 1 {
		verb = "belongs"
	}
	return fmt.Sprintf(" But %s %s to completed vnodes, which the snapshot never reads again: downstream will miss them. This is a gap in RisingWave's code (reachable only after an offline reschedule), reproduced here on purpose.", strings.Join(lost, " "), verb)
}

// processedRows is the progress reported at a barrier: the rows of every vnode's progress.
func (e *Engine) processedRows() int64 {
	var n int64
	for _, p := range e.progress {
		n += p.Rows
	}
	return n
}
