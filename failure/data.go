package failure

import (
	"fmt"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
)

// failedIn is the phase a failure belongs to: an end while buffering fails at the backfill's
// first poll, but it came while buffering.
func failedIn(e *engine.Engine) engine.Phase {
	if e.FailureKind() == engine.FailUpstreamEndedBuffering {
		return engine.PhaseBuffering
	}
	return e.LeftBehind().Phase
}

// phaseLabel names where the executor was when it failed, for the panel's first line.
func phaseLabel(kind engine.FailureKind, p engine.Phase) string {
	switch {
	case kind == engine.FailUpstreamEndedBuffering:
		return "while buffering, before any start signal"
	case p == engine.PhaseStarting:
		return "on its first message, before loading any progress"
	case p == engine.PhaseBuffering:
		return "while buffering, before any start signal"
	case p == engine.PhaseBackfilling:
		return "while backfilling"
	case p == engine.PhaseCompleting:
		return "in completion, after the snapshot's end"
	case p == engine.PhaseForwarding:
		return "while forwarding, after the backfill"
	}
	return p.String()
}

// failureData says what the failure does to the data, counted from what it left behind.
func failureData(e *engine.Engine) FailureData {
	l := e.LeftBehind()
	ck := fmt.Sprintf("e%d", e.DurableEpoch())
	if e.DurableEpoch() == 0 {
		ck = "the job's start (no checkpoint yet)"
	}
	if e.RecoveryDrops() {
		return dropData(e)
	}
	// the job, the rows, the cost; a panic first says how the recovery comes about
	rows := "After the recovery no row is lost: what was discarded is read or delivered again. The cost is time."
	if e.Config().Bug != engine.BugNone {
		rows = fmt.Sprintf("No row is lost in RisingWave's code; under bug mode %s, the invariant says.", e.Config().Bug)
	}
	d := FailureData{Headline: "The job is kept: " + keptWhy(e) + ". " + rows, Short: "The job is kept. " + rows}
	if e.Failure().Panic {
		const panics = "The panic aborts the compute node, and the meta service recovers the database on the node's failure, as after an error. "
		d.Headline, d.Short = panics+d.Headline, panics+d.Short
	}

	var until []string
	if l.FirstMessage {
		until = append(until, "nothing is discarded: the executor failed on its first message, before it loaded its progress or emitted anything.")
	} else {
		var mem []string
		if l.BuilderRows > 0 {
			mem = append(mem, fmt.Sprintf("the %s in the builders", engine.Plural(l.BuilderRows, "row")))
		}
		if l.BufferChunks > 0 {
			mem = append(mem, fmt.Sprintf("the %s buffered from the upstream (%s)", engine.Plural(l.BufferChunks, "chunk"), engine.Plural(l.BufferRows, "row")))
		}
		if len(mem) > 0 {
			verb := "are"
			if len(mem) == 1 && l.BuilderRows+l.BufferChunks == 1 {
				verb = "is"
			}
			until = append(until, strings.Join(mem, " and ")+" "+verb+" discarded with the executor's memory.")
		}
		switch {
		case l.Pending > 0 && failedIn(e) == engine.PhaseBuffering:
			until = append(until, fmt.Sprintf("the %s written to the state table since the last barrier %s never committed: the recovery drops %s; the state table keeps what the checkpoint %s committed.", engine.Plural(l.Pending, "buffered upstream row"), isWas(l.Pending), itThem(l.Pending), ck))
		case l.Pending > 0:
			until = append(until, fmt.Sprintf("nothing since the last barrier is committed (%s to the state table %s dropped).", engine.Plural(l.Pending, "write"), map[bool]string{true: "is", false: "are"}[l.Pending == 1]))
		default:
			until = append(until, "nothing since the last barrier is committed.")
		}
		if e.CommittedEpoch() > e.DurableEpoch() {
			until = append(until, fmt.Sprintf("commits after %s (up to e%d) were not checkpoints: the recovery undoes them too.", ck, e.CommittedEpoch()))
		}
		if l.SinceCkpt > 0 {
			until = append(until, fmt.Sprintf("downstream rolls back the %s it received since %s.", engine.Plural(l.SinceCkpt, "output"), ck))
		}
	}
	d.Until = "Until the recovery: " + joinSentences(until)
	d.After = fmt.Sprintf("The recovery returns to %s, and the upstream delivers its changes since then again. The restarted executor %s.", ck, resumePlan(e, true))
	if l.SinceCkpt > 0 {
		d.After += " What it emits again, downstream (rolled back too) sees once."
	}
	return d
}

// keptWhy says why a recovery keeps the job, in a few words.
func keptWhy(e *engine.Engine) string {
	switch {
	case !e.Creating():
		return "it had finished (created), and a recovery keeps a created job"
	case e.Config().Create == engine.CreateBackground:
		return "it was created in the background, and a recovery recovers it as creating"
	}
	return e.Release().Name + "'s recovery keeps a creating job whose progress can be recovered"
}

// dropData is what a recovery that drops the job does to the data: the job, the rows, the cost.
func dropData(e *engine.Engine) FailureData {
	if e.Initial() {
		return FailureData{Dropped: true, Reason: "no checkpoint yet",
			Headline: "The job is dropped: no checkpoint had committed its first barrier, so it was still in its initial status, and every release's recovery deletes such a job whatever its create type, so the CREATE fails and the new materialized view is gone. No row is lost upstream; downstream's view and what it held go with the job. The cost: run the whole CREATE again.",
			Short:    "The job is dropped: the CREATE fails and the new materialized view is gone. No row is lost upstream; downstream's view and what it held go with the job. The cost: run the whole CREATE again.",
			Until:    "Until the recovery: nothing of the job is durable yet (no checkpoint); the recovery drops its state table, progress table and the new view.",
			After:    "The recovery drops the job: nothing restarts. Rerun the CREATE to build the view from the start."}
	}
	return FailureData{Dropped: true, Reason: "created in the foreground",
		Headline: fmt.Sprintf("The job is dropped: it was created in the foreground and is still creating, and %s's recovery deletes such a job, so the CREATE fails and the new materialized view is gone. No row is lost upstream; downstream's view and what it held go with the job. The cost: run the whole CREATE again, or SET BACKGROUND_DDL = true before it so that a recovery keeps the job.", e.Release().Name),
		Short:    "The job is dropped: the CREATE fails and the new materialized view is gone. No row is lost upstream; downstream's view and what it held go with the job. The cost: run the whole CREATE again, or SET BACKGROUND_DDL = true before it so that a recovery keeps the job.",
		Until:    "Until the recovery: the job's state table, progress table and the new view hold what the checkpoint made durable; the recovery drops all three.",
		After:    "The recovery drops the job: nothing restarts. Rerun the CREATE to build the view from the start."}
}

// resumePlan says what the restarted executor does, from the progress the last checkpoint made
// durable. short leaves out the lines and the vnodes' positions.
func resumePlan(e *engine.Engine, short bool) string {
	p := e.DurableProgress()
	in, done := 0, 0
	var resume []string
	p.Each(func(_ engine.OwnedIndex, r *engine.ProgressRow) bool {
		switch {
		case r.Finished:
			done++
		default:
			in++
			if len(resume) < 4 {
				resume = append(resume, fmt.Sprintf("vnode %d after %s", r.Vnode, r.Pos))
			}
		}
		return true
	})
	if in > len(resume) {
		resume = append(resume, "…")
	}
	switch {
	case done == len(e.Owned()):
		s := "finds every vnode persisted completed, so it forwards everything at once"
		if short && e.Release().ReportsBuffered {
			s += " (" + e.Release().Name + " then reports nothing to the meta service: it reports finished only at a completion barrier)"
		}
		return s
	case in > 0 && short:
		return fmt.Sprintf("finds progress persisted, so it needs no start signal and resumes the snapshot after the persisted positions (%s)", strings.Join(resume, ", "))
	case in > 0:
		return fmt.Sprintf("some vnode was persisted in progress, so it skips buffering, waits for no start signal and resumes the snapshot (%s)", strings.Join(resume, ", "))
	case done > 0 && short:
		return "finds some vnodes persisted completed and none in progress, so it needs no start signal and reads the other vnodes from the start"
	case done > 0:
		return "no vnode was persisted in progress, but some completed, so it skips buffering and reads the other vnodes from the start"
	case short && !e.Release().ResendsStart:
		return "finds no progress (a vnode not started is never persisted), so it buffers again and waits for a new start signal. At " + e.Release().Name + " the meta service recovers a creating job with an empty backfill order (src/meta/src/barrier/rpc.rs, " + e.Release().Ref + " lines " + linesOf(e, "recover.no-start-signal") + "), so it sends none: the job stays buffering (the built-in stuck-buffering-after-recovery shows it)"
	case short:
		return "finds no progress (a vnode not started is never persisted), so it buffers again and waits for a new start signal, which the meta service sends again after a recovery (from " + engine.FirstWhere(func(r *engine.Release) bool { return r.ResendsStart }) + " it rebuilds the backfill order)"
	}
	return "no vnode progress was persisted, so it buffers again and waits for a new start signal"
}

// joinSentences joins sentences after a colon: the first stays lower case, the others start
// with a capital.
func joinSentences(s []string) string {
	for i := 1; i < len(s); i++ {
		s[i] = engine.Upper(s[i])
	}
	return strings.Join(s, " ")
}

func isWas(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
