package timeline

import (
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/view"
)

// nextUpstream returns the index of the next upstream message in the script, or -1.
func (t *Timeline) nextUpstream() int {
	for i := t.Pos(); i < len(t.script); i++ {
		if t.script[i].Kind.IsUpstream() {
			return i
		}
	}
	return -1
}

// Actions lists what can happen next: the scripted step first, then the alternatives.
func (t *Timeline) Actions() []view.Action {
	e := t.cur
	acts := []view.Action{}
	if e.Phase() == engine.PhaseDropped {
		return acts // nothing can follow
	}
	pos := t.Pos()
	scripted := pos < len(t.script)
	if scripted {
		s := t.script[pos]
		acts = append(acts, view.Action{ID: "next", Label: e.Label(s), Step: t.format(stripNote(s)), Kind: kindName(s.Kind), Scripted: true})
	}
	if e.Phase() == engine.PhaseFailed || e.Phase() == engine.PhaseEnded {
		if !scripted || t.script[pos].Kind != engine.EventRecover {
			s := engine.Step{Kind: engine.EventRecover}
			acts = append(acts, view.Action{ID: "recover", Label: e.Label(s), Step: t.format(s), Kind: "recover"})
		}
		return acts
	}
	if e.SnapshotRemaining() > 0 && (!scripted || t.script[pos].Kind != engine.EventSnapshot) {
		s := engine.Step{Kind: engine.EventSnapshot, Count: 1}
		acts = append(acts, view.Action{ID: "snapshot", Label: e.Label(s), Step: t.format(s), Kind: "snapshot"})
	}
	j := t.nextUpstream()
	if scripted && !t.script[pos].Kind.IsUpstream() && j >= 0 {
		s := stripNote(t.script[j])
		acts = append(acts, view.Action{ID: "upstream", Label: "first, " + e.Label(s), Step: t.format(s), Kind: kindName(s.Kind)})
	}
	// The run can always go on: when the script has no upstream message left, or the executor
	// has restarted and the next one is not the first barrier it waits for, the next barrier is
	// offered (with the start signal too while the executor buffers, which only that ends).
	if j < 0 || e.Phase() == engine.PhaseStarting && t.script[j].Kind != engine.EventBarrier {
		n := e.NextEpoch()
		if e.Phase() == engine.PhaseBuffering {
			s := engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: n, Checkpoint: true, StartBackfill: []int64{e.Config().Fragment}}}
			acts = append(acts, view.Action{ID: "start", Label: e.Label(s), Step: t.format(s), Kind: "upstream"})
		}
		s := engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: n, Checkpoint: true}}
		acts = append(acts, view.Action{ID: "barrier", Label: e.Label(s), Step: t.format(s), Kind: "upstream"})
	}
	return acts
}

func kindName(k engine.EventKind) string { return k.Info().By }
