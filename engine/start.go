package engine

import (
	"fmt"
	"strings"
)

// onFirstMessage handles the first message of a (re)started executor (LP:437-465): RisingWave's
// expect_first_barrier (executor/mod.rs) takes it.
func (e *Engine) onFirstMessage(s Step) {
	switch s.Kind {
	case EventEnd:
		e.upEnded = true
		e.fail(FailStreamClosed, ErrStreamClosed, siteFailStreamClosed)
		return
	case EventError:
		e.explain(siteFirstError, "The upstream yields an error before its first barrier; the wait for the first barrier returns it at once.")
		e.fail(FailUpstreamError, s.Message, siteFailFirstError)
		return
	case EventChunk, EventWatermark:
		e.explain(siteFirstNotBarrier, "Every executor's first message must be a barrier; this %s comes first, and the wait for the first barrier panics on it.", s.Describe(e.cfg.Columns))
		e.fail(FailFirstNotBarrier, PanicFirstMessage+": "+s.Describe(e.cfg.Columns), siteFailFirstNotBarrier)
		return
	}
	b := s.Barrier
	if !b.Checkpoint {
		e.explain(siteFirstNotCheckpoint, "The first barrier of an executor must be a checkpoint barrier (or an initial one); e%d is not, and the wait for the first barrier asserts the barrier's kind and panics.", b.Epoch)
		e.fail(FailFirstNotCheckpoint, PanicNotCheckpoint, siteFailFirstNotCheckpnt)
		return
	}
	e.state.epoch = b.Epoch
	e.emitBarrier(b)
	mut := ""
	if m := b.mutationText(); m != "" {
		mut = fmt.Sprintf("; its mutation, %s, is not looked at", m)
	}
	e.explain(siteFirstBarrier, "First barrier e%d: emitted at once, before anything else%s.", b.Epoch, mut)
	e.explainInitial(b)
	if e.stopping(b) {
		return // the actor stops at it (actor.go): nothing after the yield runs
	}
	e.loadProgress()
	e.markAllDirty()
	if e.narration.on {
		e.explain(siteLoad, "Progress loaded from the progress table: %s.", e.describeProgress())
	}
	needBackfill := e.tally.byState[Completed] < len(e.owned)
	needBuffering := e.tally.byState[NotStarted] == len(e.owned)
	e.reportFinishOnFirstBarrier = !needBackfill && !e.rel().ReportsBuffered // (v2.7 never does)
	e.bufferedRows = 0
	switch {
	case needBuffering:
		e.phase = PhaseBuffering
		e.explain(siteStartBuffering, "Every owned vnode is not started, so the executor buffers: upstream chunks go into the state table and nothing is emitted until a barrier carries the start signal (StartFragmentBackfill) for fragment %d.", e.cfg.Fragment)
		e.explainBufferingWhy()
	case needBackfill:
		e.explain(siteStartSkipBuffering, "Not every owned vnode is still to start, so buffering is skipped and no start signal is awaited: the backfill starts at once.")
		e.enterBackfill()
	default:
		e.phase = PhaseForwarding
		e.explain(siteStartForward, "Every owned vnode is already completed: nothing to backfill, the executor forwards everything. %s", e.finishAfterRestart())
		e.explainNeverDone()
	}
}

func (e *Engine) describeProgress() string {
	if !e.narration.on {
		return ""
	}
	if len(e.owned) > 8 {
		c := e.tally.byState
		return fmt.Sprintf("%d not started, %d in progress, %d completed", c[NotStarted], c[InProgress], c[Completed])
	}
	parts := make([]string, len(e.owned))
	for i := range parts {
		parts[i] = e.progress.At(OwnedIndex(i)).describe(e.owned[i])
	}
	return strings.Join(parts, "; ")
}
