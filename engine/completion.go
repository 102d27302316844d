package engine

// onCompleting handles the upstream after the snapshot ended, waiting for the barrier that
// completes every vnode (LP:741-799).
func (e *Engine) onCompleting(s Step) {
	switch s.Kind {
	case EventChunk:
		e.emitChunk(e.forwardRows(s.Chunk), "forwarded")
		e.say("forward", LinesCompletion, "Completion: the chunk is emitted unchanged (not compacted, not stored): the snapshot has read everything already.")
	case EventWatermark:
		e.emitWatermark(s.Watermark)
		e.say("forward", LinesCompletion, "Completion: watermarks pass through again.")
	case EventEnd, EventError:
		e.upEnded = true
		what := "ends"
		if s.Kind == EventError {
			what = "yields an error, which is discarded"
		}
		e.say("swallow", LinesCompletion, "Completion: the upstream %s. The completion loop swallows it silently and falls through to forwarding, which polls the ended upstream again and gets its end: the executor's stream ends normally. No completion barrier passed, so nothing is persisted as finished.", what)
		e.endStream()
	case EventBarrier:
		b := s.Barrier
		if b.Rescale {
			e.fail(FailRescale, ErrRescale, LinesCompletion)
			return
		}
		e.state.commit(b.Epoch)
		var persisted []string
		for vi := range e.progress {
			p := &e.progress[vi]
			if p.State == NotStarted {
				p.Pos = make(Row, len(e.pk)) // all NULL
				p.Rows = 0
			}
			p.State = Completed
			r := ProgressRow{Vnode: e.owned[vi], Pos: p.Pos, Finished: true, Rows: p.Rows}
			verb := "update"
			if e.progTab.put(vi, r) {
				verb = "insert"
			}
			if e.narrate {
				persisted = append(persisted, verb+" "+r.String())
			}
		}
		e.markAllDirty()
		e.emitBarrier(b)
		e.phase = PhaseForwarding
		e.say("complete", LinesCompletion, "Barrier e%d completes the backfill: every owned vnode becomes Completed and is persisted (%s); the barrier is emitted%s. From now on the executor forwards everything.", b.Epoch, joinMax(persisted, 6), durability(b))
		e.checkInvariant()
	}
}

// onForwarding passes everything through after the backfill (LP:801-833).
func (e *Engine) onForwarding(s Step) {
	switch s.Kind {
	case EventChunk:
		e.emitChunk(e.forwardRows(s.Chunk), "forwarded")
		e.say("forward", LinesForwarding, "Forwarding: the chunk is emitted unchanged.")
	case EventWatermark:
		e.emitWatermark(s.Watermark)
		e.say("forward", LinesForwarding, "Forwarding: the watermark is emitted.")
	case EventError:
		e.say("fail", LinesForwarding, "Forwarding: the upstream yields an error and the executor returns it.")
		e.fail(FailUpstreamError, s.Message, LinesForwarding)
	case EventEnd:
		e.upEnded = true
		e.say("end", LinesForwarding, "Forwarding: the upstream ends, and so does the executor's stream, normally.")
		e.endStream()
	case EventBarrier:
		b := s.Barrier
		if b.Rescale {
			e.say("fail", LinesForwarding, "Barrier e%d carries a new vnode bitmap for actor %d; even after the backfill this executor cannot change its vnodes in place.", b.Epoch, e.cfg.Actor)
			e.fail(FailRescale, ErrRescale, LinesForwarding)
			return
		}
		e.state.commit(b.Epoch)
		e.emitBarrier(b)
		e.say("emit", LinesForwarding, "Forwarding: both tables commit (nothing changed) and barrier e%d is emitted%s.", b.Epoch, durability(b))
		e.checkInvariant()
	}
}

func (e *Engine) emitWatermark(w Watermark) {
	e.outputs = append(e.outputs, Output{Type: OutWatermark, Column: e.cfg.Columns[w.Column].Name, Value: w.Value, Step: e.step})
}

// endStream ends the executor's output normally.
func (e *Engine) endStream() {
	e.phase = PhaseEnded
	e.marks = append(e.marks, Mark{Step: e.step, Kind: "end", Label: "end"})
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
