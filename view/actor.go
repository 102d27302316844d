package view

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
)

// ActorView is the actor around the executor as the view shows it (docs/view.md).
type ActorView struct {
	State    string           `json:"state"` // running | stopped | exited unexpectedly | failed | dropped
	Label    string           `json:"label"` // the state in one word, for the executor's header: exited for exited unexpectedly
	Text     string           `json:"text"`
	Citation *engine.Citation `json:"citation"` // the lines of actor.rs that decide it, or null
}

// Actor states.
const (
	ActorRunning    = "running"
	ActorDropped    = "dropped" // the recovery dropped the job (engine/create.go): nothing restarts
	ActorStopped    = "stopped"
	ActorExited     = "exited unexpectedly"
	ActorFailed     = "failed"
	actorPanicWords = "the panic hook aborts the compute node's process, so the actor dies with the node and every other actor on it"
)

// Actor says what the actor around the executor is doing now (engine/actor.go).
func Actor(e *engine.Engine) ActorView {
	a := actorNow(e)
	a.Label = a.State
	if a.State == ActorExited {
		a.Label = "exited"
	}
	return a
}

// actorNow is the actor's state, sentence and lines, before its label.
func actorNow(e *engine.Engine) ActorView {
	loop := func(lines [2]int, text string) *engine.Citation {
		c := e.Release().Cite(engine.Citation{Text: text, File: engine.FileActor, Lines: lines, URL: engine.FileURL(engine.FileActor, lines)})
		return &c
	}
	a := e.Config().Actor
	switch {
	case e.Phase() == engine.PhaseDropped:
		return ActorView{State: ActorDropped, Text: fmt.Sprintf("The recovery dropped the job: actor %d is not restarted, and nothing of the job runs until the CREATE is run again.", a)}
	case e.Phase() == engine.PhaseEnded && e.StopEpoch() > 0:
		return ActorView{State: ActorStopped, Text: fmt.Sprintf("Actor %d stopped at the Stop barrier e%d: it reads the executor no more and ends without an error.", a, e.StopEpoch()),
			Citation: loop(engine.LinesActorStop, "At a Stop barrier for itself the actor leaves its loop.")}
	case e.Phase() == engine.PhaseEnded:
		return ActorView{State: ActorExited, Text: fmt.Sprintf("The executor's stream ended without a Stop barrier, so actor %d fails with \"actor exited unexpectedly\": the actor's own error, not the executor's (a log shows it without the \"Executor error:\" an executor's error gets). The meta service then recovers the database.", a),
			Citation: loop(engine.LinesActorLoop, "An end of the executor's stream (Ok(None)) breaks the actor's loop with \"actor exited unexpectedly\".")}
	case e.Phase() == engine.PhaseFailed && e.Failure() != nil && e.Failure().Panic:
		c := e.Release().Cite(engine.CitePanicHook)
		return ActorView{State: ActorFailed, Text: fmt.Sprintf("The executor panicked inside actor %d: %s. %s", a, actorPanicWords, engine.PanicNodeWords), Citation: &c}
	case e.Phase() == engine.PhaseFailed:
		return ActorView{State: ActorFailed, Text: fmt.Sprintf("The executor's error ends actor %d with that error (a log shows an executor's error as \"Executor error: …\"). The meta service then recovers the database.", a),
			Citation: loop(engine.LinesActorLoop, "An error from the executor's stream (Err(err)) breaks the actor's loop with that error.")}
	}
	return ActorView{State: ActorRunning, Text: fmt.Sprintf("Actor %d reads the executor's stream and collects each barrier it passes on; only a Stop barrier for it ends it without an error.", a),
		Citation: loop(engine.LinesActorLoop, "The actor's loop over the executor's stream.")}
}
