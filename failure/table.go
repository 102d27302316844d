package failure

import "github.com/backfill-explainer/explainer/engine"

// The failure table: every way the executor can stop with an error or a panic, what it means,
// what RisingWave's source proves about it and what we only infer. The engine says which kind
// stopped it (engine.FailureKind); this table explains the kind to people (Explain, diagnose).

// Lines of src/stream/src/executor/mod.rs at SourceCommit.
var (
	LinesModExpectFirstBarrier = [2]int{1466, 1483} // expect_first_barrier
	LinesModStreamClosed       = [2]int{1469, 1473} // .context("failed to extract the first message: …")??
	LinesModExpectBarrier      = [2]int{1474, 1476} // .into_barrier().expect("the first message must be a barrier")
	LinesModAssertCheckpoint   = [2]int{1477, 1481} // assert!(matches!(barrier.kind, Checkpoint | Initial))
	LinesModNoUpdateBitmap     = [2]int{676, 681}   // assume_no_update_vnode_bitmap
)

// lp and mod stay out of line: see newSite (engine/cite.go).
//
//go:noinline
func lp(lines [2]int, text string) engine.Citation {
	return cite(engine.FileLocalityProvider, lines, text)
}

//go:noinline
func mod(lines [2]int, text string) engine.Citation { return cite(engine.FileExecutorMod, lines, text) }

//go:noinline
func cite(file string, lines [2]int, text string) engine.Citation {
	return engine.Citation{Text: text, File: file, Lines: lines, URL: engine.FileURL(file, lines)}
}

// Why an input ends, in the framework around the executor: the same for every failure that is
// an end of the upstream's stream.
var (
	citeExchangeErrors  = cite(engine.FileExchangeInput, [2]int{121, 123}, "A failed or dropped upstream actor does not end this executor's input: when its exchange channel closes, the input yields the error \"exchange channel from local upstream actor N closed unexpectedly\" (remote: lines 307-309), which reaches this executor as an upstream error.")
	citeMergeEndsAtStop = cite(engine.FileMerge, [2]int{360, 365}, "A merge input ends its stream only right after it has passed on a Stop barrier for this actor.")
	citeActorStops      = cite(engine.FileActor, [2]int{305, 318}, "The actor stops polling its executors at that Stop barrier, so in a running cluster nothing polls the executor after its input ended.")
	// (futures-async-stream 0.2.11 at v2.7.4's Cargo.lock, 0.2.13 later: GenTryStream::poll_next
	// sets its generator to None at an end or an error and answers None from then on)
	citeStaysEnded = cite(engine.FileMerge, [2]int{287, 288}, "The merge input's stream is an async generator (#[try_stream], as every executor's is); the generator crate's stream (futures-async-stream's GenTryStream) drops the generator at its end or error and answers None to every later poll: an ended input, polled again, reports its end again.")
)

// Info explains one kind of failure: what it means, what RisingWave's source proves
// about it (each sentence with its lines) and what we only infer (causes outside the executor).
type Info struct {
	Kind    engine.FailureKind
	Message string // the exact text, when it is fixed (empty: the upstream's or the storage's own message)
	Meaning string
	Proven  []engine.Citation
	// ProvenIn adds, per phase, where that phase does it (the rescale check is made in four places).
	ProvenIn map[engine.Phase]engine.Citation
	Inferred []string
}

// Failures is the table of every failure the executor can hit.
var Failures = []Info{
	{Kind: engine.FailUpstreamEnded, Message: engine.ErrUpstreamEnded,
		Meaning: "While backfilling, the executor finishes an epoch only when the upstream delivers a barrier. Here the upstream stream ended instead (no barrier, no error), so the backfill could neither persist its progress nor finish, and the executor gave up.",
		Proven: []engine.Citation{
			lp([2]int{577, 586}, "While backfilling, each turn polls the upstream and the snapshot together and takes the upstream's message whenever one is ready."),
			lp(engine.LinesFatalEnd, "When the upstream has no message left (its stream ended), the executor returns this error from inside the backfill loop."),
			lp([2]int{658, 687}, "Builder rows and buffered upstream chunks are emitted only at a barrier (or when a builder fills, or at the snapshot's end); the error skips that, so they are never emitted."),
			lp([2]int{689, 719}, "The state table and the progress table are committed only at a barrier, so nothing since the last barrier is committed."),
			citeExchangeErrors, citeMergeEndsAtStop, citeActorStops,
		},
		Inferred: []string{
			"Not a crash of the upstream actor: that reaches this executor as an error naming the exchange channel, not as an end. In a healthy cluster this message means that something polled the executor after a Stop barrier, or fed it a stream that ends without one (a test harness, a new kind of input, a bug in the framework).",
			"Where to look first: this actor's own compute-node log around the failure (what drove it, and whether a Stop barrier passed), then report it as a bug with those lines; the upstream actor's logs are not the first place.",
		}},
	{Kind: engine.FailUpstreamEndedBuffering, Message: engine.ErrUpstreamEnded,
		Meaning: "The upstream ended while the executor was still buffering, before any start signal. The buffering loop just stops at an end, the executor goes on into the backfill, and the backfill's first poll of the upstream finds the end: the same error as an end during the backfill.",
		Proven: []engine.Citation{
			lp([2]int{471, 473}, "While buffering, the executor reads the upstream in a for loop; an end of the stream ends that loop without any error and without a start signal."),
			lp([2]int{546, 571}, "Not every vnode is completed, so the backfill starts: builders and a snapshot stream are created."),
			lp(engine.LinesFatalEnd, "When the upstream has no message left, the backfill loop returns this error."),
			citeStaysEnded, citeExchangeErrors, citeMergeEndsAtStop,
		},
		Inferred: []string{
			"Not a crash of the upstream actor, which arrives as an exchange error: as for an end during the backfill, something polled the executor after a Stop barrier or fed it a stream that ends without one. Look first at this actor's own compute-node log around the failure.",
		}},
	{Kind: engine.FailStreamClosed, Message: engine.ErrStreamClosed,
		Meaning: "Every executor first waits for a barrier. The upstream stream ended before delivering any message, so there is no first barrier to start from.",
		Proven: []engine.Citation{
			lp([2]int{439, 440}, "The executor starts by waiting for the upstream's first barrier."),
			mod(LinesModStreamClosed, "The wait for the first barrier turns a stream that ends before its first message into this error."),
			citeExchangeErrors, citeMergeEndsAtStop,
		},
		Inferred: []string{
			"Not a crash of the upstream actor, which arrives as an exchange error (an error as the first message, returned as it is). A healthy input ends only after passing on a Stop barrier, and a Stop barrier is a first barrier too: an end before any message points at what built or drove this actor (a test harness or a framework bug). Look first at this actor's own compute-node log.",
		}},
	{Kind: engine.FailFirstNotBarrier, Message: engine.PanicFirstMessage,
		Meaning: "Every executor's first message must be a barrier. A chunk or a watermark came first, and the framework panics instead of returning an error.",
		Proven: []engine.Citation{
			lp([2]int{439, 440}, "The executor starts by waiting for the upstream's first barrier."),
			mod(LinesModExpectBarrier, "The wait for the first barrier converts the first message into a barrier and expects it to be one: any other message panics with the text \"the first message must be a barrier\" (Rust adds the message's debug form; the explainer writes the message as a scenario step)."),
			engine.CitePanicHook,
		},
		Inferred: []string{
			"Not expected in a healthy cluster: the streaming protocol sends a barrier first. It points to a broken upstream or a hand-made test stream.",
			"The compute node aborts with the panic. " + engine.PanicNodeWords,
		}},
	{Kind: engine.FailFirstNotCheckpoint, Message: engine.PanicNotCheckpoint,
		Meaning: "The first barrier an executor receives must be a checkpoint (or an initial) barrier. This one was not, and an assertion panics.",
		Proven: []engine.Citation{
			lp([2]int{439, 440}, "The executor starts by waiting for the upstream's first barrier."),
			mod(LinesModAssertCheckpoint, "The wait for the first barrier asserts that the barrier is a checkpoint or an initial barrier; the failed assertion panics with this text."),
			engine.CitePanicHook,
		},
		Inferred: []string{
			"Not expected in a healthy cluster: the barriers that start or restart a job are checkpoints. It points to a broken barrier source or a hand-made test stream.",
			"The compute node aborts with the panic. " + engine.PanicNodeWords,
		}},
	{Kind: engine.FailRescale, Message: engine.ErrRescale,
		Meaning: "A barrier carried a new vnode bitmap for this actor (an update mutation, as an online rescale sends). This executor cannot change the vnodes it owns in place, so it fails.",
		Proven: []engine.Citation{
			mod(LinesModNoUpdateBitmap, "The check for an in-place bitmap update returns this error when the barrier's mutation is an update carrying a vnode bitmap for this actor."),
		},
		ProvenIn: map[engine.Phase]engine.Citation{
			engine.PhaseBuffering:   lp([2]int{500, 501}, "While buffering, the check is made at every barrier, before anything is committed and before the barrier is emitted."),
			engine.PhaseBackfilling: lp([2]int{658, 690}, "While backfilling, the check comes after the builders were drained and the buffered chunks marked and emitted (658-687), and before the commit: those chunks are already out, nothing of this epoch is committed."),
			engine.PhaseCompleting:  lp([2]int{745, 746}, "In completion, the check is made at the barrier that would complete the backfill, before anything is committed."),
			engine.PhaseForwarding:  lp([2]int{807, 808}, "Even after the backfill, every barrier is checked before the tables commit."),
		},
		Inferred: []string{
			"Likely cause, outside this file: an online reschedule of this fragment (a change of parallelism, by hand or by the meta service's automatic parallelism control) while the job was still being created. The meta service's automatic control skips creating jobs whose scans cannot be rescheduled online (snapshot backfill and the oldest backfill kinds, src/prost/src/lib.rs, is_reschedulable); a creating job whose scans are arrangement backfills is not skipped, so a reschedule can still reach this executor.",
			"The meta service recovers the database after this error, as after any actor's error. A reschedule the meta service plans itself rebuilds the fragment with new actors (meta's scale.rs asserts that no actor is kept and no bitmap is updated in place), so such a barrier does not come from that plan.",
		}},
	{Kind: engine.FailUpstreamError,
		Meaning: "The upstream yielded an error instead of a message, and the executor returns it: the actor fails and the job must recover.",
		Proven: []engine.Citation{
			lp([2]int{743, 743}, "Only in completion is an upstream error swallowed: that loop runs while the upstream yields Ok messages. In every other phase the executor returns it."),
		},
		ProvenIn: map[engine.Phase]engine.Citation{
			engine.PhaseStarting:    mod(LinesModStreamClosed, "An error as the first message is returned at once by the wait for the first barrier."),
			engine.PhaseBuffering:   lp([2]int{471, 473}, "While buffering, each upstream message goes through ?, which returns an upstream error at once."),
			engine.PhaseBackfilling: lp([2]int{586, 587}, "While backfilling, the upstream's message goes through ?, which returns an upstream error at once; builder rows and buffered chunks are never emitted."),
			engine.PhaseForwarding:  lp([2]int{803, 804}, "After the backfill, forwarding takes each upstream message through ?, which returns an upstream error at once."),
		},
		Inferred: []string{
			"The error comes from upstream; its cause is in its own message and in the upstream's logs (an upstream actor error, an exchange or network failure, a storage error).",
		}},
	{Kind: engine.FailSnapshotError,
		Meaning: "Reading the snapshot from the state table failed, and the executor returns that error: the actor fails and the job must recover.",
		Proven: []engine.Citation{
			lp([2]int{253, 262}, "The snapshot stream reads each vnode's rows from the state table; a failed read ends the stream with that error (the ? after opening each vnode's iterator and after each read)."),
			lp([2]int{606, 606}, "The backfill loop takes the snapshot's item through ?, so the error is returned at once."),
			lp([2]int{658, 687}, "Builder rows and buffered upstream chunks are emitted only at a barrier or the snapshot's end; the error skips that, so they are never emitted."),
		},
		Inferred: []string{
			"Likely cause, outside this file: the state store could not be read (an object store or a cache failure, a timeout).",
		}},
}

// Of returns the table's entry for a failure kind.
func Of(k engine.FailureKind) *Info {
	for i := range Failures {
		if Failures[i].Kind == k {
			return &Failures[i]
		}
	}
	return nil
}
