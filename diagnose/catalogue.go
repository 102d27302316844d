package diagnose

import (
	"fmt"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
)

// Instead is what a release that cannot produce a message does in the same situation.
type Instead struct {
	Text   string
	Proven []Cite
	Open   *Open // the built-in at the step where that release does it, or nil
}

// Catalogue is every message the diagnosis recognises, in the order it lists them, for the
// engine's releases (built again when they change: catalogue_release.go).
func Catalogue() []*Message { return built.of(engine.Releases) }

func buildCatalogue() []*Message {
	return []*Message{
		upstreamEnded(), actorExitedMsg(), exchangeUpstream(), exchangeDownstream(), rescale(),
		streamClosed(), firstNotBarrier(), notCheckpoint(), storageError(), fragmentNotFound(), vnodeNotOwned(),
	}
}

// each builds one value per release (none where f returns nil).
func each[T comparable](f func(r string, i int) T) map[string]T {
	out := map[string]T{}
	var none T
	for i, r := range ReleaseNames() {
		if v := f(r, i); v != none {
			out[r] = v
		}
	}
	return out
}

func lpCite(r string, l fact, text string) Cite {
	return at(r, fileLP, l.in(r), text)
}

// Sentences shared by several messages.

func lookActorLog(r string) string {
	where := fmt.Sprintf("%s:%d", fileActorMgr, actorExitLog.in(r)[0])
	if actorExitLogSync.has(r) { // two paths: with a sync log store dispatcher, and the others
		where = fmt.Sprintf("%s:%d and %d", fileActorMgr, actorExitLogSync.in(r)[0], actorExitLog.in(r)[0])
	}
	return "This actor's own compute-node log around the failure: its \"actor exit with error\" line (fields actor_id and error; " + where + ") and the lines before it."
}

const lookWhichJob = "Which job and fragment the actor belongs to, and which compute node runs it: SELECT * FROM rw_catalog.rw_actor_id_to_ddl WHERE actor_id = A; and SELECT worker_id FROM rw_catalog.rw_actors WHERE actor_id = A."

func lookRecovery(r string) string {
	return fmt.Sprintf("The meta node's log: \"database entering recovery\" (%s:%d) names the database it recovers; a job it keeps then restarts from its last checkpoint (its progress after that: SELECT * FROM rw_catalog.rw_ddl_progress), and one it drops is gone from that table, its CREATE answered with an error (see \"The job\" above).", fileMetaWorker, metaRecovery.in(r)[0])
}

func lookRootCause(r string) string {
	line := "\"" + rel(r).SuspendLog + "\""
	return "The root cause the compute node reported: its " + line + " line names the failed actor (its failed_actor field)."
}

// recoveryDoes says what the recovery does to a built-in's job (created in the foreground).
func recoveryDoes(r string) string {
	if rel(r).DropsCreatingForeground {
		return "the recovery drops the job, created in the foreground as by default (with create: background it resumes the backfill)"
	}
	return "the recovery resumes the backfill"
}

func endFails(r *engine.Release) bool { return r.EndFails }

const leftRecovered = "If the recovery keeps the job (see \"The job\"), it rolls the state table, the progress table and downstream back to the last checkpoint, and the restarted executor loads its persisted progress and goes on from there (in the explainer no row is lost); if it drops the job, all three are gone with it."

func upstreamEnded() *Message {
	info := failure.Of(engine.FailUpstreamEnded)
	bufInfo := failure.Of(engine.FailUpstreamEndedBuffering)
	m := &Message{ID: MsgUpstreamEnded, Text: engine.ErrUpstreamEnded, Raiser: "the locality provider"}
	m.Facts = each(func(r string, _ int) *Fact {
		if !rel(r).EndFails {
			return nil
		}
		return upstreamEndedFact(r, info, bufInfo)
	})
	m.Instead = each(func(r string, _ int) *Instead {
		if rel(r).EndFails {
			return nil
		}
		return upstreamEndedInstead(r)
	})
	return m
}

func upstreamEndedFact(r string, info, bufInfo *failure.Info) *Fact {
	v31 := &Fact{
		Where:   fmt.Sprintf(r+" raises it in the locality provider's backfill loop when the upstream's stream ends (%s:%d-%d).", fileLP, engine.LinesFatalEnd[0], engine.LinesFatalEnd[1]),
		Meaning: info.Meaning + " If the end came while the executor was still buffering, the buffering loop stops silently, the backfill starts without a start signal, and its first poll of the upstream fails the same way.",
		Phases:  []string{"backfilling", "buffering (the end comes while buffering; the backfill's first poll raises the error)"},
		LeftBehind: "Never emitted: the rows in the builders and the buffered upstream chunks. Never committed: anything since the last barrier (state table, progress table). " +
			leftRecovered,
		LookNext: []string{
			"Not the upstream actor's logs first: a dead upstream actor reaches this executor as \"exchange channel from … upstream actor N closed unexpectedly\", not as an end; a merge input ends only right after a Stop barrier, after which the actor stops polling (the source lines above).",
			lookActorLog(r) + " What drove this actor after its input ended, and did a Stop barrier pass (\"stop at barrier\" is a debug line)?",
			"In a healthy cluster this message means something polled the executor after a Stop barrier or fed it a non-standard stream (a test harness, a new kind of input, a framework bug): file a bug report about what drove it, with this actor's compute-node log.",
			lookWhichJob,
			lookRecovery(r),
		},
		Open: &Open{Scenario: "fatal-upstream-end", Step: 10, Why: "the upstream's end mid-backfill and what it leaves behind; end-while-buffering, step 5, shows an end while buffering"},
	}
	for _, c := range info.Proven {
		v31.Proven = append(v31.Proven, fromEngine(c))
	}
	v31.Proven = append(v31.Proven, fromEngine(bufInfo.Proven[0]))
	return v31
}

func upstreamEndedInstead(r string) *Instead {
	{
		return &Instead{
			Text: fmt.Sprintf("No code at %s has this text. At %s the upstream's end is silent: the executor reads the rest of the snapshot alone, emits it with the buffered upstream chunks, finds no barrier in completion or in forwarding, its stream ends, and the actor fails with \"actor exited unexpectedly\". Nothing since the last barrier is committed and no vnode is persisted completed (an ended input stays ended when polled again: its stream is an async generator that answers None after its end). If a log of yours shows this message, that compute node does not run %s: check the version it runs.", rel(r).Ref, r, r),
			Proven: []Cite{
				lpCite(r, lpSelect, "While backfilling, each turn polls the upstream first and the snapshot when the upstream has nothing: an ended upstream leaves the snapshot alone, with no error."),
				lpCite(r, lpSnapshotEnd, "At the snapshot's end the executor emits what the builders hold and the buffered upstream chunks, and leaves the backfill loop."),
				lpCite(r, lpCompletionLoop, "Completion waits for a barrier only while the upstream yields Ok messages: an end leaves the loop."),
				lpCite(r, lpForwardingLoop, "Forwarding ends when the upstream's stream ends, and so does the executor's stream."),
				at(r, fileActor, actorExited.in(r), "The actor takes an end of its executors' stream before a Stop barrier as the error \"actor exited unexpectedly\"."),
			},
			Open: &Open{Scenario: "fatal-upstream-end", Step: 10, Why: "the step where the upstream's stream ends mid-backfill; under " + r + " the end is silent"},
		}
	}
}

func actorExitedMsg() *Message {
	m := &Message{ID: MsgActorExited, Text: "actor exited unexpectedly", Raiser: "the actor (executor/actor.rs)"}
	m.Facts = each(func(r string, i int) *Fact {
		old := !rel(r).EndFails
		f := &Fact{
			Where: fmt.Sprintf("The actor raises it when its executors' stream ends before a Stop barrier (%s:%d).", fileActor, actorExited.in(r)[0]+1),
			Meaning: "The chain of executors in this actor ended its stream (no error, no Stop barrier), and the actor takes that as a failure. There is no \"Executor error:\" before it: an executor's error would be printed as \"Executor error: …\". " +
				"The locality provider's stream ends this way when its upstream errors or ends in completion (that loop swallows an error: the upstream's message is gone) or ends in forwarding.",
			Phases: []string{"completing", "forwarding"},
			Proven: []Cite{
				at(r, fileActor, actorExited.in(r), "The actor takes an end of its executors' stream before a Stop barrier as the error \"actor exited unexpectedly\"; a Stop barrier is the only normal way out, and after it the actor stops polling."),
				lpCite(r, lpCompletionLoop, "Completion waits for a barrier only while the upstream yields Ok messages: an error or an end leaves the loop without returning anything."),
				lpCite(r, lpForwardingLoop, "Forwarding ends when the upstream's stream ends, and so does the executor's stream."),
			},
			LeftBehind: "What the executor emitted stays emitted until the recovery rolls downstream back to the last checkpoint. Nothing since the last barrier is committed. An end in completion came before the completion barrier, so no vnode was persisted completed: if the recovery keeps the job (see \"The job\"), the restarted executor reads the snapshot again from its last persisted positions.",
			LookNext: []string{
				"The upstream's own failure at the same moment: in completion the locality provider swallows its upstream's error, so this error does not say what happened upstream. Look for the upstream actors' \"actor exit with error\" lines (an \"exchange channel from … upstream actor N closed unexpectedly\" names one) on their compute nodes.",
				lookRootCause(r),
				lookWhichJob + " The actor runs more executors than the locality provider: any of them that ends its stream ends the chain.",
				lookRecovery(r),
			},
			Open: &Open{Scenario: "end-in-completion", Step: 8, Why: "an upstream error swallowed in completion: the executor's stream ends and the actor fails"},
		}
		if old {
			f.Meaning += " At " + r + " an end of the upstream while buffering or backfilling ends it too: the end is silent, the executor reads the rest of the snapshot alone, emits it, and its stream ends (" + engine.FirstWhere(endFails) + " raises \"" + engine.ErrUpstreamEnded + "\" there instead)."
			f.Phases = []string{"buffering", "backfilling", "completing", "forwarding"}
			f.Proven = append(f.Proven,
				lpCite(r, lpSelect, "While backfilling, an ended upstream leaves the snapshot alone, with no error."),
				lpCite(r, lpSnapshotEnd, "At the snapshot's end the executor emits what the builders hold and the buffered chunks, and leaves the backfill loop."))
			f.Open.Why += "; fatal-upstream-end, step 10, under " + r + " shows a silent end mid-backfill"
		}
		return f
	})
	return m
}

func exchangeUpstream() *Message {
	m := &Message{ID: MsgExchangeUpstream, Text: "exchange channel from local|remote upstream actor N closed unexpectedly", Raiser: "the exchange input (exchange/input.rs)"}
	m.Facts = each(func(r string, i int) *Fact {
		return &Fact{
			Where: fmt.Sprintf("The exchange input raises it when the channel from upstream actor N closes (%s:%d local, %d-%d remote).", fileExchangeIn, inputLocalRaise.in(r)[0], inputRemoteRaise.in(r)[0], inputRemoteRaise.in(r)[1]),
			Meaning: "Upstream actor N is gone: its channel closed without a Stop barrier (the actor failed or was dropped, its compute node went away, or for a remote input the gRPC stream broke: the status after the message says which). An exchange input never ends: a closed channel is always this error. " +
				"The locality provider returns it at once in every phase but completion, where its loop swallows it: its stream ends and the actor fails with \"actor exited unexpectedly\" instead.",
			Phases: []string{"starting (as the first message)", "buffering", "backfilling", "forwarding"},
			Proven: []Cite{
				at(r, fileExchangeErr, exchangeLocal.in(r), "The text of a closed local channel (remote: lines "+fmt.Sprintf("%d-%d", exchangeRemote.in(r)[0], exchangeRemote.in(r)[1])+")."),
				at(r, fileExchangeIn, inputLocalRaise.in(r), "The local input yields this error once its channel closes: it never ends its stream."),
				at(r, fileExchangeIn, inputRemoteRaise.in(r), "The remote input yields it on a gRPC error (with the status) and when the stream closes."),
				lpCite(r, lpBufferingLoop, "While buffering, each upstream message goes through ?, which returns the error at once."),
				lpCite(r, lpBackfillLeft, "While backfilling, the upstream's message goes through ?, which returns the error at once."),
				lpCite(r, lpForwardingLoop, "In forwarding, each message goes through ?, which returns the error at once."),
				lpCite(r, lpCompletionLoop, "In completion the loop runs only while the upstream yields Ok messages: the error is swallowed there."),
				at(r, fileStreamError, scoreExchange.in(r), "A closed channel scores low when the compute node picks the root cause of a failure: it is likely caused by another actor's exit."),
			},
			LeftBehind: "As for any upstream error: the rows in the builders and the buffered upstream chunks are never emitted, and nothing since the last barrier is committed. " + leftRecovered,
			LookNext: []string{
				"Upstream actor N's own failure first: its \"actor exit with error\" line on its compute node (SELECT worker_id FROM rw_catalog.rw_actors WHERE actor_id = N). This actor's error is a consequence of that one.",
				"For a remote channel, the gRPC status after the message says whether the connection or the node failed; the meta node's \"database entering recovery on node failure\" means a compute node left.",
				lookRootCause(r) + " A closed channel scores low there, so another actor's error is usually the one reported.",
				lookRecovery(r),
			},
			Open: &Open{Scenario: "upstream-actor-dies", Step: 8, Why: "an upstream actor dies mid-backfill: the executor fails with this error, and " + recoveryDoes(r)},
		}
	})
	return m
}

func exchangeDownstream() *Message {
	m := &Message{ID: MsgExchangeDown, Text: "exchange channel to downstream actor N closed unexpectedly", Raiser: "the dispatcher (exchange/output.rs)"}
	m.Facts = each(func(r string, i int) *Fact {
		return &Fact{
			Where:   fmt.Sprintf("This actor's dispatcher raises it when sending to downstream actor N fails (%s:%d).", fileExchangeOut, outputRaise.in(r)[0]),
			Meaning: "Downstream actor N is gone: this actor could not send it a message. The locality provider's own state is not the cause: this actor fails because its consumer did.",
			Phases:  []string{"any"},
			Proven: []Cite{
				at(r, fileExchangeErr, exchangeDown.in(r), "The text of a closed channel to a downstream actor."),
				at(r, fileExchangeOut, outputRaise.in(r), "The output raises it when the channel to the downstream actor is closed."),
				at(r, fileStreamError, scoreExchange.in(r), "A closed channel scores low when the compute node picks the root cause of a failure."),
			},
			LeftBehind: "What this actor held since the last barrier; the recovery rolls back to the last checkpoint.",
			LookNext: []string{
				"Downstream actor N's own failure first: its \"actor exit with error\" line on its compute node (SELECT worker_id FROM rw_catalog.rw_actors WHERE actor_id = N).",
				lookRootCause(r),
				lookRecovery(r),
			},
		}
	})
	return m
}

func rescale() *Message {
	byLP := func(r *engine.Release) bool { return r.RescaleFails != 0 }
	bySyncLog := func(r *engine.Release) bool { return r.RescaleFails == 0 && r.SyncLogChecksRescale }
	m := &Message{ID: MsgRescale, Text: engine.ErrRescale, Raiser: "the check for an in-place vnode bitmap update (assume_no_update_vnode_bitmap in executor/mod.rs), called by the locality provider at " + engine.NamesWhere(byLP),
		Note: "the locality provider at " + engine.NamesWhere(byLP) + " only; other executors at " + engine.NamesWhere(bySyncLog)}
	info := failure.Of(engine.FailRescale)
	m.Facts = each(func(r string, _ int) *Fact {
		switch {
		case byLP(rel(r)):
			return rescaleByLP(r, info)
		case bySyncLog(rel(r)):
			return rescaleBySyncLog(r)
		}
		return nil
	})
	m.Instead = each(func(r string, _ int) *Instead {
		if m.Facts[r] != nil {
			return nil
		}
		return &Instead{
			Text: fmt.Sprintf("No code at %s has this text. The locality provider of %s ignores a vnode bitmap update (it commits and passes no new bitmap on) and keeps the vnodes it owns.", rel(r).Ref, r),
			Proven: []Cite{
				lpCite(r, lpBufferCommit, "While buffering, a barrier is committed and no new bitmap is passed on: no new bitmap is read."),
				lpCite(r, lpBackfillCommit, "While backfilling, the state table commits the barrier's epoch with no bitmap check."),
			},
			Open: &Open{Scenario: "rescale-mid-backfill", Step: 8, Why: "the step where a barrier with a new vnode bitmap reaches the locality provider; under " + r + " it ignores it"},
		}
	})
	return m
}

// rescalePhases are the phases the locality provider checks a barrier in, with their names.
var rescalePhases = [4]engine.Phase{engine.PhaseBuffering, engine.PhaseBackfilling, engine.PhaseCompleting, engine.PhaseForwarding}

func rescaleByLP(r string, info *failure.Info) *Fact {
	names := [4]string{"buffering", "backfill", "completion", "forwarding"}
	var where []string
	var phases []string
	var proven []Cite
	proven = append(proven, fromEngine(info.Proven[0]))
	for i, p := range rescalePhases {
		if !rel(r).RescaleFails.Has(p) {
			continue
		}
		l := lpRescaleChecks[i].in(r)
		where = append(where, fmt.Sprintf("%d-%d %s", l[0], l[1], names[i]))
		phases = append(phases, p.String())
		proven = append(proven, fromEngine(info.ProvenIn[p]))
	}
	return &Fact{
		Where: fmt.Sprintf("%s: the locality provider checks every barrier it handles (%s lines %s); so do the sync log store, lookup and iceberg writer executors.",
			r, fileLP, strings.Join(where, ", ")),
		Meaning: info.Meaning + " At " + r + " the meta node plans a reschedule as a full rebuild of the actors (src/meta/src/stream/scale.rs debug-asserts that no actor is kept and that no plan carries vnode bitmap updates), so a normal reschedule is not expected to send this to a running actor.",
		Phases:  phases,
		Proven:  proven,
		LeftBehind: "Backfilling: the builders' rows and the marked buffered chunks of that barrier were already emitted, the barrier was not, and nothing of the epoch is committed. Other phases: the check comes before anything is committed. " +
			leftRecovered,
		LookNext: []string{
			"The meta node's log at that epoch: which command the barrier carried (a reschedule: ALTER … SET PARALLELISM, or the automatic parallelism control) and whether it kept this actor instead of rebuilding it.",
			lookActorLog(r),
			lookWhichJob,
			lookRecovery(r),
		},
		Open: &Open{Scenario: "rescale-mid-backfill", Step: 8, Why: "a barrier with a new vnode bitmap mid-backfill: the chunks go out, then the check fails"},
	}
}

func rescaleBySyncLog(r string) *Fact {
	no, d, s1, s2 := modNoUpdate.in(r), syncLogChecks[0].in(r), syncLogChecks[1].in(r), syncLogChecks[2].in(r)
	return &Fact{
		NotByLP: true,
		Where:   fmt.Sprintf("%s has the text (%s:%d-%d), but the locality provider never calls it: the sync log store executors do (%s:%d, %s:%d and %d).", r, fileMod, no[0], no[1], fileDispatchLog, d[0], fileSyncLog, s1[0], s2[0]),
		Meaning: "At " + r + " this error comes from a sync log store executor of this actor, not from the locality provider, which ignores a vnode bitmap update (its commits pass None as the new bitmap) and keeps the vnodes it owns.",
		Phases:  []string{"not the locality provider's"},
		Proven: []Cite{
			at(r, fileMod, no, "The check for an in-place bitmap update returns this error for an update mutation carrying a vnode bitmap for the actor."),
			at(r, fileSyncLog, s1, "The sync log store checks its barriers with it."),
			lpCite(r, lpBufferCommit, "The locality provider commits a barrier and passes no new bitmap on: no new bitmap is read."),
		},
		LeftBehind: "Not the locality provider's failure: what it held since the last barrier is rolled back by the recovery like the rest of the actor.",
		LookNext: []string{
			"Which executor of the actor raised it: the lines before \"actor exit with error\" in this actor's compute-node log; at " + r + " it is a sync log store, not the locality provider.",
			"The meta node's log at that epoch: which command carried a vnode bitmap for this actor.",
			lookRecovery(r),
		},
		Open: &Open{Scenario: "rescale-mid-backfill", Step: 8, Why: "the step where a barrier with a new vnode bitmap reaches the locality provider; under " + r + " it ignores it"},
	}
}

func streamClosed() *Message {
	info := failure.Of(engine.FailStreamClosed)
	m := &Message{ID: MsgStreamClosed, Text: engine.ErrStreamClosed, Raiser: "the wait for the first barrier (expect_first_barrier in executor/mod.rs), which every executor calls first"}
	m.Facts = each(func(r string, i int) *Fact {
		f := &Fact{
			Where:   fmt.Sprintf("The wait for the first barrier raises it when the input ends before its first message (%s:%d-%d); the locality provider calls it first (%s:%d).", fileMod, modStreamClosed.in(r)[0], modStreamClosed.in(r)[1], fileLP, lpFirstBarrier.in(r)[0]),
			Meaning: info.Meaning + " Every executor starts this way, so the message alone does not say it was the locality provider.",
			Phases:  []string{"starting"},
			Proven: []Cite{
				lpCite(r, lpFirstBarrier, "The executor starts by waiting for the upstream's first barrier."),
				at(r, fileMod, modStreamClosed.in(r), "The wait for the first barrier turns a stream that ends before its first message into this error."),
			},
			LeftBehind: "Nothing: the executor failed on its first message, before it emitted anything or loaded its progress.",
			LookNext:   append(append([]string{}, info.Inferred...), lookActorLog(r), lookWhichJob),
			Open:       &Open{Scenario: "stream-closed-before-first-barrier", Step: 1, Why: "the input ends before any message"},
		}
		return f
	})
	return m
}

func firstNotBarrier() *Message {
	info := failure.Of(engine.FailFirstNotBarrier)
	m := &Message{ID: MsgFirstNotBarrier, Text: engine.PanicFirstMessage, Panic: true, Raiser: "the wait for the first barrier (expect_first_barrier in executor/mod.rs), a panic"}
	m.Facts = each(func(r string, i int) *Fact {
		return &Fact{
			Where:   fmt.Sprintf("The wait for the first barrier panics when the first message is a chunk or a watermark (%s:%d-%d).", fileMod, modNotBarrier.in(r)[0], modNotBarrier.in(r)[1]),
			Meaning: info.Meaning,
			Phases:  []string{"starting"},
			Proven: append([]Cite{
				lpCite(r, lpFirstBarrier, "The executor starts by waiting for the upstream's first barrier."),
				at(r, fileMod, modNotBarrier.in(r), "The wait for the first barrier converts the first message into a barrier and expects it to be one: any other message panics with the text \"the first message must be a barrier\" and the message's debug form."),
			}, panicProofs(r)...),
			LeftBehind: panicLeftBehind,
			LookNext:   append([]string{info.Inferred[0]}, lookPanic(r)...),
			Open:       &Open{Scenario: "first-message-not-barrier", Step: 1, Why: "a chunk arrives before any barrier"},
		}
	})
	return m
}

func notCheckpoint() *Message {
	info := failure.Of(engine.FailFirstNotCheckpoint)
	m := &Message{ID: MsgNotCheckpoint, Text: engine.PanicNotCheckpoint, Panic: true, Raiser: "the wait for the first barrier (expect_first_barrier in executor/mod.rs), a panic"}
	m.Facts = each(func(r string, i int) *Fact {
		return &Fact{
			Where:   fmt.Sprintf("The wait for the first barrier asserts the first barrier's kind (%s:%d-%d).", fileMod, modNotCheckpoint.in(r)[0], modNotCheckpoint.in(r)[1]),
			Meaning: info.Meaning,
			Phases:  []string{"starting"},
			Proven: append([]Cite{
				lpCite(r, lpFirstBarrier, "The executor starts by waiting for the upstream's first barrier."),
				at(r, fileMod, modNotCheckpoint.in(r), "The wait for the first barrier asserts that the barrier is a checkpoint or an initial barrier; the failed assertion panics with this text."),
			}, panicProofs(r)...),
			LeftBehind: panicLeftBehind,
			LookNext:   append([]string{info.Inferred[0]}, lookPanic(r)...),
			Open:       &Open{Scenario: "first-barrier-not-checkpoint", Step: 1, Why: "a barrier that is not a checkpoint comes first"},
		}
	})
	return m
}

func storageError() *Message {
	info := failure.Of(engine.FailSnapshotError)
	m := &Message{ID: MsgStorage, Text: "Storage error: …", Raiser: "any executor that reads or writes the state store"}
	m.Facts = each(func(r string, i int) *Fact {
		return &Fact{
			Where:   fmt.Sprintf("An executor's storage failure is printed \"Storage error: …\" (%s:%d); in the locality provider, while backfilling, it is the snapshot read (%s:%d-%d).", fileExecError, storageErrorText.in(r)[0], fileLP, lpSnapshotRead.in(r)[0], lpSnapshotRead.in(r)[1]),
			Meaning: "The state store could not be read or written. Every stateful executor can return it, so the message alone does not say it was the locality provider; if it was, while backfilling, it is most likely the snapshot read: " + info.Meaning,
			Phases:  []string{"backfilling (the snapshot read)", "any phase (a commit or the progress load)"},
			Proven: []Cite{
				at(r, fileExecError, storageErrorText.in(r), "A storage failure of an executor is printed \"Storage error: …\"."),
				lpCite(r, lpSnapshotRead, "The snapshot stream reads each vnode's rows from the state table; a failed read ends the stream with that error."),
				lpCite(r, lpSnapshotItem, "The backfill loop takes the snapshot's item through ?, so the error is returned at once."),
			},
			LeftBehind: "If it was the snapshot read: the rows in the builders and the buffered upstream chunks are never emitted, and nothing since the last barrier is committed. " + leftRecovered,
			LookNext: []string{
				"The rest of the message after \"Storage error:\": the state store's own failure (object store, cache, timeout).",
				lookActorLog(r) + " The lines before it tell which executor of the actor read or wrote.",
				lookRecovery(r),
			},
			Open: &Open{Scenario: "snapshot-read-error", Step: 8, Why: "the snapshot read fails mid-backfill"},
		}
	})
	return m
}
