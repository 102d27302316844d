// Package engine is an exact, deterministic model of RisingWave's locality-provider backfill
// (src/stream/src/executor/locality_provider.rs). An Engine is a value you step: feed it one
// scenario Step at a time and read what it emitted, stored, persisted and why. It does no I/O,
// reads no clock and uses no randomness.
//
// # The Apply/View loop
//
// New makes an engine from a Config (the table, the actor's vnodes, a start state). Apply feeds
// it one Step — an upstream message (barrier, chunk, watermark, end, error), a snapshot
// delivery, a snapshot read error or a recovery — and returns an *InputError, changing nothing,
// when the step is invalid (validate.go). Otherwise it hands an upstream message to the handler
// of the executor's phase (deliver in engine.go), which emits outputs, writes the state and
// progress tables, says what it does as Effects that cite the lines of RisingWave's source doing
// it (cite.go), and checks the invariant at every barrier (invariant.go). After each step, View
// (view.go) is everything a person should see, Trace (trace.go) the trace contract. Clone is a
// cheap independent copy (the per-vnode state lives in the copy-on-write vectors and sequences
// of engine/internal/persist): Timeline (timeline.go: back, go to step N, branch, predictions)
// and the interleaving explorer (package explore) are built on it.
//
// # Phases
//
// Each phase has its file. The lines are those of locality_provider.rs at SourceCommit that the
// narration cites (cite.go; cite_test.go pins each range and what it holds):
//
//	phase                  file           lines
//	first message          start.go       437-465 (first barrier 440-444; expect_first_barrier
//	                                      is executor/mod.rs 1469-1481); loading progress 314-368
//	buffering              buffering.go   466-518
//	entering the backfill  buffering.go   546-571 (enterBackfill); the snapshot stream 220-266
//	                                      (opened here, its lanes in snapshot.go)
//	backfill: upstream     backfill.go    577-605
//	backfill: snapshot     backfill.go    606-626 (rows into builders; a full builder 405-425)
//	backfill: its end      backfill.go    624-653 (drain 627-638, flush 640-645)
//	backfill: barrier      backfill.go    657-735 (drain 658-670, mark 672-687, commit, report
//	                                      and persist 689-719, emit 728, refresh or reuse 730-735)
//	marking                marking.go     370-403
//	completion             completion.go  741-799
//	forwarding             completion.go  801-833 (onForwarding)
//	recovery               recovery.go    rollback: outside the file; reloading progress 314-368
//
// The state those phases keep: engine.go (Engine), state_table.go, progress.go, pervnode.go
// (builders and per-vnode counts), snapshot.go, unread.go, output.go, report.go; what they say:
// explain.go, cite.go, failure.go, bug.go, adapt.go. Read-outs that need the private state stay
// here too: view.go, changed.go, trace.go, predict.go, timeline.go, statekey.go and
// explore_key.go (the explorer's keys), and the workload runner (workload*.go, scale.go: it
// drives the engine's fast paths). The JSON of these types is package wire's, but for a value's,
// a row's, an output's and a fault kind's, which their MarshalJSON needs (json.go).
package engine
