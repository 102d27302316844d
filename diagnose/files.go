package diagnose

import "github.com/backfill-explainer/explainer/engine"

// Files of RisingWave the diagnosis cites (beside the engine's).
const (
	fileLP          = engine.FileLocalityProvider
	fileMod         = engine.FileExecutorMod
	fileActor       = engine.FileActor
	fileExchangeErr = "src/stream/src/executor/exchange/error.rs"
	fileExchangeIn  = engine.FileExchangeInput
	fileExchangeOut = "src/stream/src/executor/exchange/output.rs"
	fileStreamError = "src/stream/src/error.rs"
	fileExecError   = "src/stream/src/executor/error.rs"
	fileActorMgr    = "src/stream/src/task/actor_manager.rs"
	fileMetaWorker  = "src/meta/src/barrier/worker.rs"
	fileSyncLog     = "src/stream/src/executor/sync_kv_log_store.rs"
	fileDispatchLog = "src/stream/src/executor/dispatch/dispatch_sync_log_store.rs"
)

// fact is lines of a RisingWave file as cited at SourceCommit: each release's line table
// (engine/release_lines.go) says where its own file has them, or that it lacks them
// (anchor_test.go reads every fact at every release's ref).
type fact struct {
	file  string
	lines [2]int
}

func lp(a, b int) fact { return fact{fileLP, [2]int{a, b}} }

// in returns the fact's lines in a release (none when the release lacks them).
func (f fact) in(release string) [2]int {
	l, _ := rel(release).At(f.file, f.lines)
	return l
}

// has reports whether a release has the fact's lines.
func (f fact) has(release string) bool {
	_, ok := rel(release).At(f.file, f.lines)
	return ok
}

// Lines of RisingWave's source, as at SourceCommit (anchors: anchor_test.go).
var (
	lpFirstBarrier   = lp(440, 440)                                                                                                   // expect_first_barrier(&mut upstream).await?
	modStreamClosed  = fact{fileMod, [2]int{1469, 1473}}                                                                              // .context("failed to extract …")??
	modNotBarrier    = fact{fileMod, [2]int{1474, 1476}}                                                                              // .expect("the first message must be a barrier")
	modNotCheckpoint = fact{fileMod, [2]int{1477, 1481}}                                                                              // assert!(matches!(barrier.kind, …))
	actorExited      = fact{fileActor, [2]int{305, 318}}                                                                              // Ok(None) => … "actor exited unexpectedly"; is_stop → break
	actorExitLog     = fact{fileActorMgr, [2]int{605, 605}}                                                                           // "actor exit with error"
	actorExitLogSync = fact{fileActorMgr, [2]int{582, 582}}                                                                           // the same, for an actor with a sync log store dispatcher
	lpBufferingLoop  = lp(471, 473)                                                                                                   // for msg in upstream.by_ref() { let msg = msg?;
	lpBackfillLeft   = lp(586, 587)                                                                                                   // Either::Left(msg) => match msg?
	lpSelect         = lp(577, 586)                                                                                                   // select_with_strategy, prefer upstream
	lpSnapshotEnd    = lp(624, 652)                                                                                                   // None => drain builders and buffer, break 'backfill_loop
	lpCompletionLoop = lp(742, 743)                                                                                                   // while let Some(Ok(msg)) = upstream.next()
	lpForwardingLoop = lp(803, 804)                                                                                                   // for msg in upstream { let msg = msg?;
	lpSnapshotRead   = lp(253, 262)                                                                                                   // iter_with_vnode(…).await? / try_next().await?
	lpSnapshotItem   = lp(606, 606)                                                                                                   // Either::Right(msg) => match msg?
	lpBufferCommit   = lp(500, 509)                                                                                                   // buffering barrier: commit, yield, post_yield_barrier(None)
	exchangeLocal    = fact{fileExchangeErr, [2]int{68, 69}}                                                                          // "exchange channel from local upstream actor …"
	exchangeRemote   = fact{fileExchangeErr, [2]int{79, 80}}                                                                          // "exchange channel from remote upstream actor …"
	exchangeDown     = fact{fileExchangeErr, [2]int{90, 91}}                                                                          // "exchange channel to downstream actor …"
	inputLocalRaise  = fact{fileExchangeIn, [2]int{123, 123}}                                                                         // Err(ExchangeChannelClosed::local_input(…))?
	inputRemoteRaise = fact{fileExchangeIn, [2]int{303, 309}}                                                                         // remote_input(…, Some(e)) … remote_input(…, None)
	outputRaise      = fact{fileExchangeOut, [2]int{53, 53}}                                                                          // ExchangeChannelClosed::output(…)
	scoreExchange    = fact{fileStreamError, [2]int{131, 133}}                                                                        // ChannelClosed | ExchangeChannelClosed => 1
	storageErrorText = fact{fileExecError, [2]int{41, 41}}                                                                            // #[error("Storage error: {0}")]
	metaRecovery     = fact{fileMetaWorker, [2]int{758, 758}}                                                                         // "database entering recovery"
	modNoUpdate      = fact{fileMod, [2]int{676, 681}}                                                                                // assume_no_update_vnode_bitmap
	syncLogChecks    = [3]fact{{fileDispatchLog, [2]int{450, 450}}, {fileSyncLog, [2]int{629, 629}}, {fileSyncLog, [2]int{853, 853}}} // its callers in the sync log stores
	lpRescaleChecks  = [4]fact{lp(500, 501), lp(689, 690), lp(745, 746), lp(807, 808)}                                                // buffering, backfill, completion, forwarding
	lpBackfillCommit = lp(689, 693)                                                                                                   // backfill barrier: state_table.commit(barrier.epoch)
)
