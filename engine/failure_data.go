package engine

import (
	"fmt"
	"strings"
)

// FailureData says in plain words what a failure does to the data (docs/view.md): whether a
// row is lost, what is discarded or rolled back until the recovery, and what the recovery
// replays. Every sentence follows the recovery rules (recovery.go, docs/protocol.md#recovery).
type FailureData struct {
	// Lost: a row is missing downstream for good after the recovery. Never in RisingWave's code
	// (the recovery replays what was discarded); under a bug mode the invariant says.
	Lost bool `json:"lost"`
	// Dropped: the recovery drops the job (a creating foreground job, create.go): the view is
	// gone and the CREATE must be run again.
	Dropped bool `json:"dropped"`
	// Reason is why a recovery drops the job, in a few words for a header: "no checkpoint yet"
	// (every create type) or "created in the foreground"; "" when the job is kept.
	Reason   string `json:"reason,omitempty"`
	Headline string `json:"headline"` // the answer first: the job kept or dropped and why, the rows, the cost
	// Short is Headline without its reason: the headline's words in order with the why left
	// out; the verdict on the job, the rows, the cost (and a panic's first sentence) stay.
	Short string `json:"short"`
	Until string `json:"until"` // what is discarded or rolled back until the recovery
	After string `json:"after"` // what the recovery replays, and where the executor resumes
}

// failedIn is the phase a failure belongs to: an end while buffering fails at the backfill's
// first poll, but it came while buffering.
func (e *Engine) failedIn() Phase {
	if e.narration.failKind == FailUpstreamEndedBuffering {
		return PhaseBuffering
	}
	return e.narration.failLeft.phase
}

// phaseLabel names where the executor was when it failed, for the panel's first line.
func phaseLabel(kind FailureKind, p Phase) string {
	switch {
	case kind == FailUpstreamEndedBuffering:
		return "while buffering, before any start signal"
	case p == PhaseStarting:
		return "on its first message, before loading any progress"
	case p == PhaseBuffering:
		return "while buffering, before any start signal"
	case p == PhaseBackfilling:
		return "while backfilling"
	case p == PhaseCompleting:
		return "in completion, after the snapshot's end"
	case p == PhaseForwarding:
		return "while forwarding, after the backfill"
	}
	return p.String()
}

// failureData says what the failure does to the data, counted from what it left behind.
func (e *Engine) failureData() FailureData {
	l := e.narration.failLeft
	ck := fmt.Sprintf("e%d", e.dur.epoch)
	if e.dur.epoch == 0 {
		ck = "the job's start (no checkpoint yet)"
	}
	if e.RecoveryDrops() {
		return e.dropData()
	}
	// the job, the rows, the cost; a panic first says how the recovery comes about
	rows := "After the recovery no row is lost: what was discarded is read or delivered again. The cost is time."
	if e.cfg.Bug != BugNone {
		rows = fmt.Sprintf("No row is lost in RisingWave's code; under bug mode %s, the invariant says.", e.cfg.Bug)
	}
	d := FailureData{Headline: "The job is kept: " + e.keptWhy() + ". " + rows, Short: "The job is kept. " + rows}
	if e.failure.Panic {
		const panics = "The panic aborts the compute node, and the meta service recovers the database on the node's failure, as after an error. "
		d.Headline, d.Short = panics+d.Headline, panics+d.Short
	}

	var until []string
	if l.firstMessage {
		until = append(until, "nothing is discarded: the executor failed on its first message, before it loaded its progress or emitted anything.")
	} else {
		var mem []string
		if l.builderRows > 0 {
			mem = append(mem, fmt.Sprintf("the %s in the builders", plural(l.builderRows, "row")))
		}
		if l.bufferChunks > 0 {
			mem = append(mem, fmt.Sprintf("the %s buffered from the upstream (%s)", plural(l.bufferChunks, "chunk"), plural(l.bufferRows, "row")))
		}
		if len(mem) > 0 {
			verb := "are"
			if len(mem) == 1 && l.builderRows+l.bufferChunks == 1 {
				verb = "is"
			}
			until = append(until, strings.Join(mem, " and ")+" "+verb+" discarded with the executor's memory.")
		}
		switch {
		case l.pending > 0 && e.failedIn() == PhaseBuffering:
			until = append(until, fmt.Sprintf("the %s written to the state table since the last barrier %s never committed: the recovery drops %s; the state table keeps what the checkpoint %s committed.", plural(l.pending, "buffered upstream row"), isWas(l.pending), itThem(l.pending), ck))
		case l.pending > 0:
			until = append(until, fmt.Sprintf("nothing since the last barrier is committed (%s to the state table %s dropped).", plural(l.pending, "write"), map[bool]string{true: "is", false: "are"}[l.pending == 1]))
		default:
			until = append(until, "nothing since the last barrier is committed.")
		}
		if e.state.epoch > e.dur.epoch {
			until = append(until, fmt.Sprintf("commits after %s (up to e%d) were not checkpoints: the recovery undoes them too.", ck, e.state.epoch))
		}
		if l.sinceCkpt > 0 {
			until = append(until, fmt.Sprintf("downstream rolls back the %s it received since %s.", plural(l.sinceCkpt, "output"), ck))
		}
	}
	d.Until = "Until the recovery: " + joinSentences(until)
	d.After = fmt.Sprintf("The recovery returns to %s, and the upstream delivers its changes since then again. The restarted executor %s.", ck, e.resumePlan(true))
	if l.sinceCkpt > 0 {
		d.After += " What it emits again, downstream (rolled back too) sees once."
	}
	return d
}

// keptWhy says why a recovery keeps the job, in a few words.
func (e *Engine) keptWhy() string {
	switch {
	case !e.creating():
		return "it had finished (created), and a recovery keeps a created job"
	case e.cfg.Create == CreateBackground:
		return "it was created in the background, and a recovery recovers it as creating"
	}
	return e.rel().Name + "'s recovery keeps a creating job whose progress can be recovered"
}

// dropData is what a recovery that drops the job does to the data: the job, the rows, the cost.
func (e *Engine) dropData() FailureData {
	if e.initial() {
		return FailureData{Dropped: true, Reason: "no checkpoint yet",
			Headline: "The job is dropped: no checkpoint had committed its first barrier, so it was still in its initial status, and every release's recovery deletes such a job whatever its create type, so the CREATE fails and the new materialized view is gone. No row is lost upstream; downstream's view and what it held go with the job. The cost: run the whole CREATE again.",
			Short:    "The job is dropped: the CREATE fails and the new materialized view is gone. No row is lost upstream; downstream's view and what it held go with the job. The cost: run the whole CREATE again.",
			Until:    "Until the recovery: nothing of the job is durable yet (no checkpoint); the recovery drops its state table, progress table and the new view.",
			After:    "The recovery drops the job: nothing restarts. Rerun the CREATE to build the view from the start."}
	}
	return FailureData{Dropped: true, Reason: "created in the foreground",
		Headline: fmt.Sprintf("The job is dropped: it was created in the foreground and is still creating, and %s's recovery deletes such a job, so the CREATE fails and the new materialized view is gone. No row is lost upstream; downstream's view and what it held go with the job. The cost: run the whole CREATE again, or SET BACKGROUND_DDL = true before it so that a recovery keeps the job.", e.rel().Name),
		Short:    "The job is dropped: the CREATE fails and the new materialized view is gone. No row is lost upstream; downstream's view and what it held go with the job. The cost: run the whole CREATE again, or SET BACKGROUND_DDL = true before it so that a recovery keeps the job.",
		Until:    "Until the recovery: the job's state table, progress table and the new view hold what the checkpoint made durable; the recovery drops all three.",
		After:    "The recovery drops the job: nothing restarts. Rerun the CREATE to build the view from the start."}
}

// resumePlan says what the restarted executor does, from the progress the last checkpoint made
// durable. short leaves out the lines and the vnodes' positions.
func (e *Engine) resumePlan(short bool) string {
	p := e.dur.progress
	in, done := 0, 0
	var resume []string
	p.each(func(_ OwnedIndex, r *ProgressRow) bool {
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
	case done == len(e.owned):
		s := "finds every vnode persisted completed, so it forwards everything at once"
		if short && e.rel().ReportsBuffered {
			s += " (" + e.rel().Name + " then reports nothing to the meta service: it reports finished only at a completion barrier)"
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
	case short && !e.rel().ResendsStart:
		return "finds no progress (a vnode not started is never persisted), so it buffers again and waits for a new start signal. At " + e.rel().Name + " the meta service recovers a creating job with an empty backfill order (src/meta/src/barrier/rpc.rs, " + e.rel().Ref + " lines " + e.linesText(siteRecoverNoSignal) + "), so it sends none: the job stays buffering (the built-in stuck-buffering-after-recovery shows it)"
	case short:
		return "finds no progress (a vnode not started is never persisted), so it buffers again and waits for a new start signal, which the meta service sends again after a recovery (from " + FirstWhere(resendsStart) + " it rebuilds the backfill order)"
	}
	return "no vnode progress was persisted, so it buffers again and waits for a new start signal"
}

// joinSentences joins sentences after a colon: the first stays lower case, the others start
// with a capital.
func joinSentences(s []string) string {
	for i := 1; i < len(s); i++ {
		s[i] = upper(s[i])
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
