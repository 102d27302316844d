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
		for i, r := range s.Chunk {
			if !r.Visible {
				skipped++
				continue
			}
			vi := int(e.placed[i])
			e.state.write(r.Op.IsInsert(), vi, r.Row)
			if e.narrate {
				stored = append(stored, r.Op.String()+r.Row.String())
			}
		}
		msg := "Buffering: written to the state table (pending until the next barrier commits), nothing emitted: " + strings.Join(stored, " ")
		if skipped > 0 {
			msg += "; " + plural(skipped, "invisible row") + " skipped"
		}
		if len(stored) == 0 {
			msg = "Buffering: every row of the chunk is invisible, so nothing is written and nothing emitted."
		}
		e.say("store", LinesBuffering, "%s.", msg)
	case EventWatermark:
		e.say("drop", LinesBuffering, "Buffering: watermark %s dropped; watermarks are forwarded only after the backfill.", s.Describe(e.cfg.Columns)[len("watermark "):])
	case EventError:
		e.say("fail", LinesBuffering, "Buffering: the upstream yields an error, and the executor returns it.")
		e.fail(FailUpstreamError, s.Message, LinesBuffering)
	case EventEnd:
		e.upEnded = true
		e.say("phase", LinesBuffering, "Buffering: the upstream ends. The buffering loop simply stops and the executor enters the backfill without any start signal.")
		e.enterBackfill()
		e.say("fail", LinesFatalEnd, "The backfill loop polls the upstream first, and an ended stream keeps returning its end: the loop fails at once.")
		e.fail(FailUpstreamEndedBuffering, ErrUpstreamEnded, LinesFatalEnd)
	case EventBarrier:
		b := s.Barrier
		start := slices.Contains(b.StartBackfill, e.cfg.Fragment)
		if b.Rescale {
			e.say("fail", LinesBuffering, "Barrier e%d carries a new vnode bitmap for actor %d; this executor cannot change its vnodes in place.", b.Epoch, e.cfg.Actor)
			e.fail(FailRescale, ErrRescale, LinesBuffering)
			return
		}
		n := len(e.state.pending)
		e.state.commit(b.Epoch)
		e.emitBarrier(b)
		e.say("commit", LinesBuffering, "Barrier e%d: the state table commits %s and the barrier is emitted%s.", b.Epoch, plural(n, "buffered write"), durability(b))
		switch {
		case start:
			e.say("phase", LinesBuffering, "It carries StartFragmentBackfill{%s} naming this fragment (%d): the backfill starts.", joinIDs(b.StartBackfill), e.cfg.Fragment)
			e.enterBackfill()
		case b.StartBackfill != nil:
			e.say("note", LinesBuffering, "It carries StartFragmentBackfill{%s}, which does not name fragment %d: keep buffering.", joinIDs(b.StartBackfill), e.cfg.Fragment)
		}
		e.checkInvariant()
	}
}

func durability(b Barrier) string {
	if b.Checkpoint {
		return " (a checkpoint: durable now)"
	}
	return " (not a checkpoint: committed, but a recovery would undo it)"
}

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = Int(id).String()
	}
	return strings.Join(s, ",")
}

// enterBackfill creates one empty builder per owned vnode and opens the snapshot (LP:546-580).
func (e *Engine) enterBackfill() {
	e.phase = PhaseBackfilling
	e.builders = make([][]Row, len(e.owned))
	e.buffer = nil
	e.openSnapshot(false)
}

// openSnapshot opens a snapshot stream over the committed state table at the current positions.
func (e *Engine) openSnapshot(refresh bool) {
	s := &Snapshot{epoch: e.state.epoch, openedAt: e.step, refreshed: refresh}
	total := 0
	for vi, p := range e.progress {
		if p.State == Completed {
			continue
		}
		var pos Row
		if p.State == InProgress {
			pos = p.Pos
		}
		rows := e.state.rowsAfter(vi, pos)
		total += len(rows)
		s.lanes = append(s.lanes, lane{vi: vi, vnode: e.owned[vi], rows: rows})
	}
	e.snap = s
	what := "opened"
	if refresh {
		what = "reopened (refreshed)"
	}
	e.say("snapshot", LinesSnapshotStream, "Snapshot stream %s over the state table as of e%d: %s to read in vnode order, after each vnode's pos (Completed vnodes skipped).", what, s.epoch, plural(total, "row"))
}
