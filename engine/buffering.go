package engine

import (
	"slices"
	"strings"
)

// onBuffering handles an upstream message while every vnode is NotStarted (LP:466-518).
func (e *Engine) onBuffering(s Step) {
	switch s.Kind {
	case EventChunk:
		var stored []string
		skipped := 0
		e.countBuffered(s.Chunk)
		for i, r := range s.Chunk {
			if !r.Visible {
				skipped++
				continue
			}
			vi := e.scale.placed[i]
			e.state.write(r.Op.IsInsert(), vi, r.Row)
			if e.narration.on {
				stored = append(stored, r.Op.String()+r.Row.String())
			}
		}
		msg := "Buffering: written to the state table (pending until the next barrier commits), nothing emitted: " + strings.Join(stored, " ")
		if skipped > 0 {
			msg += "; " + Plural(skipped, "invisible row") + " skipped"
		}
		if len(stored) == 0 {
			msg = "Buffering: every row of the chunk is invisible, so nothing is written and nothing emitted."
		}
		e.explain(siteBufChunk, "%s.", msg)
	case EventWatermark:
		e.explain(siteBufWatermark, "Buffering: watermark %s dropped; watermarks are forwarded only after the backfill.", s.Describe(e.cfg.Columns)[len("watermark "):])
	case EventError:
		e.explain(siteBufError, "Buffering: the upstream yields an error, and the executor returns it.")
		e.fail(FailUpstreamError, s.Message, siteFailBufError)
	case EventEnd:
		e.upEnded = true
		e.explain(siteBufEnd, "Buffering: the upstream ends. The buffering loop over the upstream simply stops, and the executor goes on into the backfill without any start signal.")
		if !e.rel().EndFails {
			e.silentEnd()
			return
		}
		e.enterBackfill()
		e.explain(siteBufEndFails, "The backfill asks the upstream for its next message again. An ended stream answers that it has ended again (its input is an async generator, whose stream answers None to every poll after its end: merge.rs's #[try_stream]), and on that answer the loop fails at once.")
		e.fail(FailUpstreamEndedBuffering, ErrUpstreamEnded, siteFailBufEndedLater)
	case EventBarrier:
		b := s.Barrier
		start := slices.Contains(b.StartBackfill, e.cfg.Fragment)
		if e.checkRescale(b) {
			return
		}
		n := len(e.state.pending)
		e.reportBuffering(b)
		e.commitState(b.Epoch)
		e.emitBarrier(b)
		e.explain(siteBufCommit, "Barrier e%d: the state table commits %s, the progress table commits (unchanged: \"not started\" is never persisted), and the barrier is emitted%s.", b.Epoch, Plural(n, "buffered write"), durability(b))
		switch {
		case start:
			e.explain(siteBufStart, "It carries the start signal (StartFragmentBackfill) for %s, which names this fragment: the backfill starts.", fragmentsText(b.StartBackfill))
			e.enterBackfill()
		case b.Rescale:
			e.rescaleIgnored(b)
		case b.StartBackfill != nil:
			e.explain(siteBufOtherFragment, "It carries the start signal for %s, which does not name this fragment (%d): keep buffering.", fragmentsText(b.StartBackfill), e.cfg.Fragment)
		case e.stopping(b):
			e.explain(siteBufMutation, "It carries %s, which the executor does not look at: while buffering it looks only for the start signal naming its fragment.", b.ignoredMutation())
		case b.Mutation != MutationNone:
			e.explain(siteBufMutation, "It carries %s, which the executor ignores: while buffering it looks only for the start signal naming its fragment, so it goes on buffering as before.", b.ignoredMutation())
		}
		e.checkInvariant()
	}
}

func durability(b Barrier) string {
	if b.Checkpoint {
		return " (a checkpoint: durable once the meta service commits its epoch)"
	}
	return " (not a checkpoint: committed, but a recovery would undo it)"
}

// fragmentsText names the fragments a start signal carries: "fragment 7", "fragments 7 and 8".
func fragmentsText(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = Int(id).String()
	}
	if len(s) == 1 {
		return "fragment " + s[0]
	}
	return "fragments " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// enterBackfill creates one empty builder per owned vnode and opens the snapshot (LP:546-571).
func (e *Engine) enterBackfill() {
	e.phase = PhaseBackfilling
	e.newBuilders()
	e.buffer = nil
	e.openSnapshot(false)
}

// openSnapshot opens a snapshot stream over the committed state table at the current positions:
// at the backfill's start, or refreshed at a barrier.
func (e *Engine) openSnapshot(refresh bool) {
	s := e.newSnapshot(refresh)
	total := s.left
	resumes := e.tally.byState[NotStarted] < len(e.owned)
	e.snap = s
	switch {
	case refresh && !e.rel().KeepsSnapshot:
		e.explain(siteRebuild, "%s rebuilds the snapshot stream at every barrier of the backfill: a new one over the state table as just committed (e%d), after each vnode's new pos: %s to read.", e.rel().Name, s.epoch, Plural(total, "row"))
	case refresh:
		unwritten := ""
		if e.cfg.Bug == BugNoStateWrite {
			unwritten = " (in this run that commit did not take this epoch's chunks)"
		}
		e.explain(siteRefreshCheck, "The buffer held chunks in this epoch, so the snapshot stream is refreshed.")
		e.explain(siteRefresh, "The snapshot stream is reopened over the state table as just committed (e%d)%s, after each vnode's new pos: %s to read.", s.epoch, unwritten, Plural(total, "row"))
	case resumes:
		e.explain(siteOpenResume, "Snapshot stream opened over the state table as of e%d: it resumes after each in-progress vnode's pos, skips completed vnodes and reads not-started ones from their first row: %s to read.", s.epoch, Plural(total, "row"))
	default:
		e.explain(siteOpen, "Snapshot stream opened over the state table as of e%d: %s to read.", s.epoch, Plural(total, "row"))
		e.explain(siteOpenPerVnode, "It reads vnode by vnode in pk order, each vnode through its own iterator (iter_with_vnode), opened only when the stream reaches that vnode.")
	}
}
