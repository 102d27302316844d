package engine

import (
	"fmt"

	"github.com/backfill-explainer/explainer/internal/persist"
)

// onCompleting handles the upstream after the snapshot ended, waiting for the barrier that
// completes every vnode (LP:741-799).
func (e *Engine) onCompleting(s Step) {
	switch s.Kind {
	case EventChunk:
		e.emitChunk(e.forwardRows(s.Chunk), "forwarded")
		e.explain(siteCompChunk, "Completion: the chunk is emitted unchanged (not compacted, not stored): the snapshot has read everything already.")
	case EventWatermark:
		e.emitWatermark(s.Watermark)
		e.explain(siteCompWatermark, "Completion: watermarks pass through again.")
	case EventEnd, EventError:
		e.upEnded = true
		what := "ends"
		if s.Kind == EventError {
			what = "yields an error, which is discarded"
		}
		e.completionEnds("the upstream " + what)
	case EventBarrier:
		e.onCompletingBarrier(s.Barrier)
	}
}

// completionEnds: the upstream ends (or errs) during completion, which stops without a word;
// forwarding then finds the upstream ended and the executor's stream ends.
func (e *Engine) completionEnds(what string) {
	e.explain(siteCompSwallow, "Completion: %s. The completion loop runs only while the upstream yields messages, so it stops without a word and the executor falls through to forwarding. No completion barrier passed, so nothing is persisted as finished.", what)
	e.explain(siteCompThenEnds, "Forwarding asks the upstream for its next message again. An ended stream answers that it has ended again (its input is an async generator, whose stream answers None to every poll after its end: merge.rs's #[try_stream]), so the loop over it ends and so does the executor's stream.")
	e.endStream()
}

// onCompletingBarrier is the barrier that completes the backfill (LP:741-799).
func (e *Engine) onCompletingBarrier(b Barrier) {
	if e.checkRescale(b) {
		return
	}
	if b.Rescale {
		e.rescaleIgnored(b)
	} else if m := b.mutationText(); m != "" {
		e.explain(siteCompMutation, "Barrier e%d carries %s, which the executor ignores: %s.", b.Epoch, m, e.ignoresMutations("here", "in completion"))
	}
	e.commitState(b.Epoch)
	var persisted, empty []string
	allNull := make(Row, len(e.pk)) // the pos of a vnode completed empty (shared: never changed)
	for vi := range OwnedIndex(len(e.owned)) {
		p := e.progress.At(vi)
		if p.State == NotStarted {
			if e.narration.on && len(empty) <= 6 { // joinMax below shows 6
				empty = append(empty, fmt.Sprint(e.owned[vi]))
			}
			p.Pos = allNull
			p.Rows = 0
		}
		p.State = Completed
		e.putProgress(vi, p)
		r := e.progressRow(vi, p)
		verb := "update"
		if e.progTab.put(vi, r) {
			verb = "insert"
		}
		if e.narration.on && len(persisted) <= 6 { // joinMax below shows 6
			persisted = append(persisted, verb+" "+r.Words())
		}
	}
	e.tally.progChanged = nil                                                           // all persisted above
	e.tally.unread, e.tally.unreadRows = persist.NewBitset[OwnedIndex](len(e.owned)), 0 // completed vnodes are never read
	e.markAllDirty()
	e.explain(siteCompBarrier, "Barrier e%d completes the backfill: the state table commits (nothing to write) and every owned vnode becomes completed.", b.Epoch)
	if len(empty) > 0 {
		e.explain(siteCompNeverStart, "Vnode %s never started (nothing of it was read), so it gets a pos of all NULLs and 0 rows.", joinMax(empty, 6))
	}
	rows := e.processedRows()
	e.report(ReportFinish, b.Epoch, rows)
	e.explain(siteCompReport, "Progress reported to the meta service: the backfill has finished, with %s processed%s.", Plural(int(rows), "snapshot row"), e.bufferedText())
	e.explainTruncate()
	e.explain(siteCompPersist, "Progress persisted and the progress table committed: %s.", joinMax(persisted, 6))
	e.emitBarrier(b)
	e.phase = PhaseForwarding
	then := " From now on the executor forwards everything."
	if e.stopping(b) {
		then = ""
	}
	e.explain(siteCompEmit, "Barrier e%d emitted%s.%s", b.Epoch, durability(b), then)
	e.checkInvariant()
}

// onForwarding passes everything through after the backfill (LP:801-833).
func (e *Engine) onForwarding(s Step) {
	switch s.Kind {
	case EventChunk:
		e.emitChunk(e.forwardRows(s.Chunk), "forwarded")
		e.explain(siteFwdChunk, "Forwarding: the chunk is emitted unchanged.")
	case EventWatermark:
		e.emitWatermark(s.Watermark)
		e.explain(siteFwdWatermark, "Forwarding: the watermark is emitted.")
	case EventError:
		e.explain(siteFwdError, "Forwarding: the upstream yields an error and the executor returns it.")
		e.fail(FailUpstreamError, s.Message, siteFailFwdError)
	case EventEnd:
		e.upEnded = true
		e.explain(siteFwdEnd, "Forwarding: the upstream ends, so the loop over it ends, and so does the executor's stream.")
		e.endStream()
	case EventBarrier:
		b := s.Barrier
		if e.checkRescale(b) {
			return
		}
		if b.Rescale {
			e.rescaleIgnored(b)
		} else if m := b.mutationText(); m != "" {
			e.explain(siteFwdMutation, "Barrier e%d carries %s, which the executor ignores: %s, and passes the barrier on.", b.Epoch, m, e.ignoresMutations("it", "after the backfill"))
		}
		e.commitState(b.Epoch)
		if e.reportFinishOnFirstBarrier {
			e.reportFinishOnFirstBarrier = false
			rows := e.processedRows()
			e.report(ReportFinish, b.Epoch, rows)
			e.explain(siteFwdReport, "This executor started with every vnode already completed, so at the first barrier it forwards it reports to the meta service that it has finished, once, with %s: the rows its progress table recorded.", Plural(int(rows), "snapshot row"))
		}
		e.emitBarrier(b)
		e.explain(siteFwdBarrier, "Forwarding: both tables commit (nothing changed) and barrier e%d is emitted%s.", b.Epoch, durability(b))
		e.checkInvariant()
	}
}

func (e *Engine) emitWatermark(w Watermark) {
	e.outputs = append(e.outputs, Output{Type: OutWatermark, Column: e.cfg.Columns[w.Column].Name, Value: w.Value, Step: e.step})
}

// endStream ends the executor's output without an error of its own; the actor around it then
// fails (actor.rs).
func (e *Engine) endStream() {
	e.phase = PhaseEnded
	e.narration.marks = append(e.narration.marks, Mark{Step: e.step, Kind: "end", Label: "end"})
	e.explain(siteActorExited, "The executor returns no error, but its actor runs until a Stop barrier and takes an end of the stream before one as a failure: the actor fails with \"actor exited unexpectedly\", and the meta service then starts a recovery.")
	e.checkInvariant()
}

func joinMax(items []string, n int) string {
	s := ""
	for i, it := range items {
		if i == n {
			return s + ", …"
		}
		if i > 0 {
			s += ", "
		}
		s += it
	}
	return s
}
