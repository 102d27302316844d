// Package engine is an exact, deterministic model of RisingWave's locality-provider backfill
// (src/stream/src/executor/locality_provider.rs). An Engine is a value you step: feed it one
// scenario Step at a time and read what it emitted, stored, persisted and why. It does no I/O,
// reads no clock and uses no randomness. Of this module it imports only its persistent
// structures (internal/persist) and the JSON writer internal/jsonw (deps_test.go).
//
// # The Apply/View loop
//
// New makes an engine from a Config (the table, the actor's vnodes, a start state). Apply feeds
// it one Step — an upstream message (barrier, chunk, watermark, end, error), a snapshot
// delivery, a snapshot read error or a recovery — and returns an *InputError, changing nothing,
// when the step is invalid (validate.go). Otherwise it hands an upstream message to the handler
// of the executor's phase (deliver in engine.go), which emits outputs, writes the state and
// progress tables, explains what it does (Explanations, each citing the lines of RisingWave's
// source doing it: cite.go), and checks the invariant at every barrier (invariant.go). After each
// step, Trace (trace.go) is the trace contract, and the read-outs of view.go are what package
// view puts together into what a person should see. Clone is a cheap independent copy (the
// per-vnode state lives in the copy-on-write vectors and sequences of internal/persist).
//
// What reads the model for the page lives beside it, not in it: package view makes the view
// from the engine's read-outs (the actor, the buffer, the state table, what changed: the
// engine compares only its private panels); package timeline keeps copies along a script
// (Step, Back, Goto, and Apply, which branches) and adds to the view what the script knows (the
// note, what comes next, the actions, the marks, the prediction, run on a copy); package codemap
// maps the narration's sites to the executor's code map; package failure explains a failure
// (its table of meanings and citations) for the failure panel. Each reads only what the engine
// exports.
// Package session drives a timeline for the command line and the page; package explore clones
// engines to run every interleaving; package workload runs generated steps at production size
// in scale mode (scale_mode.go: outputs counted, not kept). The names: scale mode is the
// feature, a workload what it runs, a workload's run one run of it, the scale summary what the
// run returns.
//
// # Phases
//
// Each phase has its file. The lines are those of locality_provider.rs at SourceCommit that the
// narration cites (cite.go; cite_test.go pins each range and what it holds):
//
//	phase                  file           lines
//	first message          start.go       437-467 (first barrier 440-444; expect_first_barrier
//	                                      is executor/mod.rs 1469-1481); loading progress 314-368
//	buffering              buffering.go   466-518
//	entering the backfill  buffering.go   546-571 (enterBackfill); the snapshot stream 220-266
//	                                      (opened here, its lanes in snapshot.go)
//	backfill: upstream     backfill.go    577-605 (pause and throttle, ignored: mutation.go)
//	backfill: snapshot     backfill.go    606-626 (rows into builders; a full builder 405-425)
//	backfill: its end      backfill.go    624-653 (drain 627-638, flush 640-645), then 741-756
//	backfill: barrier      backfill.go    657-735 (drain 658-670, mark 672-687, commit, report
//	                                      and persist 689-719, emit 728, refresh or reuse 730-735)
//	marking                marking.go     370-403 (mark_chunk; a barrier's marking cites 383-398)
//	completion             completion.go  741-799 (finish_vnode 121-131; actor.rs 305-318)
//	forwarding             completion.go  801-833 (onForwarding)
//	recovery               recovery.go    rollback: outside the file; reloading progress 314-368
//
// Which of the upstream and the snapshot goes first is the script's choice: a snapshot step is
// the select's snapshot arm (deliverSnapshot in engine.go: 577-623; a read error 253-262).
//
// # The Engine's fields
//
// Engine (engine.go) holds, at its top level, the state RisingWave's executor keeps: its
// phase and epochs, the state table (state_table.go), the progress table and the per-vnode
// progress (progress.go), what the last checkpoint made durable, the chunk builders
// (pervnode.go), the upstream buffer, the snapshot stream (snapshot.go), whether the upstream
// ended, the stop epoch, whether it was recovered, its progress reports (report.go), its
// outputs (output.go) and its failure. Per-vnode state is indexed by OwnedIndex (vnode.go), a
// vnode's index among the actor's vnodes, never by a vnode number. What the model keeps around
// that state is in sub-structs, each declared in its concept's file: tally (pervnode.go, with
// unread.go: counts and indexes kept up to date from the state), world and check (invariant.go:
// the upstream's content and downstream's view, rowsets of rowset.go, and the invariant's
// bookkeeping), narration (explain.go: the explanations, the timeline's marks, what a failure
// left behind), job (mutation.go: the pause and throttle the executor ignores), cost (work.go)
// and scale (scale_mode.go).
//
// The other files, around the executor: actor.go, meta.go, release*.go (what differs by
// release). What they say: explain.go, cite.go, failure.go (its kinds, what it left behind),
// bug.go, adapt.go. What a step is made of: config.go, value.go, message.go, vnode.go
// (placement), mutation.go; what a step may ask: validate.go, work.go. Read-outs that need the
// private state stay here: view.go (the panels only the engine can make), changed.go (Record
// before a step, Changes of the private panels after it), trace.go, mark_invariant.go,
// statekey.go and explore_key.go (the explorer's keys), scale_mode.go (what a workload's run
// reads and the fast path it feeds). The JSON of these types is package wire's, but for a
// value's, a row's and an output's, which their MarshalJSON needs (json.go).
//
// The tests beside them: mechanism_test.go and world_test.go one rule at a time;
// changed_predict_test.go and property_test.go the read-outs against simpler computations;
// golden_test.go every built-in's trace against scenarios/testdata/golden (internal/golden
// renders them, as `backfill check` does); cite_test.go and release_cite_test.go every cited
// range against RisingWave's source (RISINGWAVE_GIT or RISINGWAVE_SRC).
package engine
