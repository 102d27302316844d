package engine

import "fmt"

// onFirstMessage handles the first message of a (re)started executor (LP:437-465).
func (e *Engine) onFirstMessage(s Step) {
	switch s.Kind {
	case EventEnd:
		e.upEnded = true
		e.fail(FailStreamClosed, ErrStreamClosed, LinesFirstBarrier)
		return
	case EventError:
		e.say("fail", LinesFirstBarrier, "The upstream yields an error before its first barrier; the executor returns it.")
		e.fail(FailUpstreamError, s.Message, LinesFirstBarrier)
		return
	case EventChunk, EventWatermark:
		e.say("panic", LinesFirstBarrier, "Every executor's first message must be a barrier; this %s comes first.", s.Describe(e.cfg.Columns))
		e.fail(FailFirstNotBarrier, PanicFirstMessage+": "+s.Describe(e.cfg.Columns), LinesFirstBarrier)
		return
	}
	b := s.Barrier
	if !b.Checkpoint {
		e.say("panic", LinesFirstBarrier, "The first barrier of an executor must be a checkpoint barrier; e%d is not.", b.Epoch)
		e.fail(FailFirstNotCheckpoint, PanicNotCheckpoint, LinesFirstBarrier)
		return
	}
	e.state.epoch = b.Epoch
	e.emitBarrier(b)
	e.say("emit", LinesFirstBarrier, "First barrier e%d: emitted at once, before anything else; its mutation is not looked at.", b.Epoch)
	e.progress = e.loadProgress()
	e.markAllDirty()
	if e.narrate {
		e.say("load", LinesPersistLoad, "Progress loaded from the progress table: %s.", e.describeProgress())
	}
	needBackfill, needBuffering := false, true
	for _, p := range e.progress {
		if p.State != Completed {
			needBackfill = true
		}
		if p.State != NotStarted {
			needBuffering = false
		}
	}
	switch {
	case needBuffering:
		e.phase = PhaseBuffering
		e.say("phase", LinesBuffering, "Every owned vnode is NotStarted, so the executor buffers: upstream chunks go into the state table and nothing is emitted until a barrier carries StartFragmentBackfill{%d}.", e.cfg.Fragment)
	case needBackfill:
		e.say("phase", LinesBackfillLoop, "Not every owned vnode is NotStarted, so buffering is skipped (no start signal is awaited): the snapshot resumes after each in-progress pos, skips completed vnodes and reads not-started ones from the start.")
		e.enterBackfill()
	default:
		e.phase = PhaseForwarding
		e.say("phase", LinesForwarding, "Every owned vnode is already Completed: nothing to backfill, the executor forwards everything.")
	}
}

// loadProgress reads each owned vnode's progress from the committed progress table.
func (e *Engine) loadProgress() []VnodeProgress {
	ps := make([]VnodeProgress, len(e.owned))
	for i, r := range e.progTab.rows {
		switch {
		case r == nil:
		case r.Finished:
			ps[i] = VnodeProgress{State: Completed, Pos: r.Pos, Rows: r.Rows}
		default:
			ps[i] = VnodeProgress{State: InProgress, Pos: r.Pos, Rows: r.Rows}
		}
	}
	return ps
}

func (e *Engine) describeProgress() string {
	if len(e.progress) > 8 { // counts (the list is built only when it is shown)
		var counts [3]int
		for _, p := range e.progress {
			counts[p.State]++
		}
		return fmt.Sprintf("%d not started, %d in progress, %d completed", counts[NotStarted], counts[InProgress], counts[Completed])
	}
	s := ""
	for i, p := range e.progress {
		if i > 0 {
			s += "; "
		}
		s += p.describe(e.owned[i])
	}
	return s
}
