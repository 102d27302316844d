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

// perRelease is one value for each release, in the order of Releases.
type perRelease[T any] [4]T

// lines gives a range of lines per release (v2.7, v2.8, v3.0, v3.1).
type lines = perRelease[[2]int]

func one(a, b, c, d int) lines { return lines{{a, a}, {b, b}, {c, c}, {d, d}} }

// index of a release name in Releases.
func index(release string) int {
	for i, r := range Releases {
		if r.Name == release {
			return i
		}
	}
	panic("diagnose: unknown release " + release)
}

// Lines of RisingWave's source per release, read at each release's Ref (anchors: anchor_test.go).
var (
	lpFirstBarrier   = one(444, 444, 444, 440)                                       // expect_first_barrier(&mut upstream).await?
	modStreamClosed  = lines{{1400, 1404}, {1412, 1416}, {1410, 1414}, {1469, 1473}} // .context("failed to extract …")??
	modNotBarrier    = lines{{1405, 1407}, {1417, 1419}, {1415, 1417}, {1474, 1476}} // .expect("the first message must be a barrier")
	modNotCheckpoint = lines{{1408, 1412}, {1420, 1424}, {1418, 1422}, {1477, 1481}} // assert!(matches!(barrier.kind, …))
	actorExited      = lines{{279, 292}, {280, 293}, {286, 299}, {305, 318}}         // Ok(None) => … "actor exited unexpectedly"; is_stop → break
	actorExitLog     = one(472, 509, 605, 605)                                       // "actor exit with error"
	lpBufferingLoop  = lines{{475, 477}, {475, 477}, {475, 477}, {471, 473}}         // for msg in upstream.by_ref() { let msg = msg?;
	lpBackfillLeft   = lines{{600, 601}, {592, 593}, {592, 593}, {586, 587}}         // Either::Left(msg) => match msg?
	lpSelect         = lines{{589, 594}, {581, 586}, {581, 586}, {577, 586}}         // select_with_strategy, prefer upstream
	lpSnapshotEnd    = lines{{619, 648}, {611, 640}, {611, 640}, {624, 652}}         // None => drain builders and buffer, break 'backfill_loop
	lpCompletionLoop = lines{{752, 753}, {744, 745}, {744, 745}, {742, 743}}         // while let Some(Ok(msg)) = upstream.next()
	lpForwardingLoop = lines{{810, 811}, {802, 803}, {802, 803}, {803, 804}}         // for msg in upstream { let msg = msg?;
	lpSnapshotRead   = lines{{254, 263}, {254, 263}, {254, 263}, {253, 262}}         // iter_with_vnode(…).await? / try_next().await?
	lpSnapshotItem   = lines{{617, 618}, {609, 610}, {609, 610}, {606, 606}}         // Either::Right(msg) => match msg?
	lpBufferCommit   = lines{{512, 518}, {504, 510}, {504, 510}, {500, 509}}         // buffering barrier: commit, yield, post_yield_barrier(None)
	exchangeLocal    = perRelease[[2]int]{{68, 69}, {68, 69}, {68, 69}, {68, 69}}    // "exchange channel from local upstream actor …"
	exchangeRemote   = perRelease[[2]int]{{79, 80}, {79, 80}, {79, 80}, {79, 80}}    // "exchange channel from remote upstream actor …"
	exchangeDown     = perRelease[[2]int]{{90, 91}, {90, 91}, {90, 91}, {90, 91}}    // "exchange channel to downstream actor …"
	inputLocalRaise  = one(133, 123, 123, 123)                                       // Err(ExchangeChannelClosed::local_input(…))?
	inputRemoteRaise = lines{{314, 320}, {303, 309}, {303, 309}, {303, 309}}         // remote_input(…, Some(e)) … remote_input(…, None)
	outputRaise      = one(53, 53, 53, 53)                                           // ExchangeChannelClosed::output(…)
	scoreExchange    = lines{{131, 133}, {131, 133}, {131, 133}, {131, 133}}         // ChannelClosed | ExchangeChannelClosed => 1
	storageErrorText = one(41, 41, 41, 41)                                           // #[error("Storage error: {0}")]
	metaRecovery     = one(453, 518, 679, 758)                                       // "database entering recovery"
	modNoUpdate31    = [2]int{676, 681}                                              // v3.1 assume_no_update_vnode_bitmap
	modNoUpdate30    = [2]int{659, 661}                                              // v3.0.3 the same function (no caller in the LP)
	lpRescaleChecks  = [4][2]int{{500, 501}, {689, 690}, {745, 746}, {807, 808}}     // v3.1: buffering, backfill, completion, forwarding
	syncLogChecks30  = [3]int{448, 630, 854}                                         // v3.0.3: dispatch_sync_log_store.rs:448, sync_kv_log_store.rs:630, 854
	lpBackfillCommit = lines{{709, 709}, {701, 701}, {701, 701}, {689, 693}}         // backfill barrier: state_table.commit(barrier.epoch)
)
