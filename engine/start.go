package engine

import (
	"fmt"
	"strings"
)

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
	e.loadProgress()
	e.markAllDirty()
	e.say("load", LinesPersistLoad, "Progress loaded from the progress table: %s.", e.describeProgress())
	needBackfill := e.progCount[Completed] < len(e.owned)
	needBuffering := e.progCount[NotStarted] == len(e.owned)
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

func (e *Engine) describeProgress() string {
	if !e.narrate {
		return ""
	}
	if len(e.owned) > 8 {
		c := e.progCount
		return fmt.Sprintf("%d not started, %d in progress, %d completed", c[NotStarted], c[InProgress], c[Completed])
	}
	parts := make([]string, len(e.owned))
	for i := range parts {
		parts[i] = e.progress.at(i).describe(e.owned[i])
	}
	return strings.Join(parts, "; ")
}
