package engine

// Site is one kind of sentence the engine says (a narration site) and what it cites: the lines
// of RisingWave's source that do what the sentence describes, or, for a sentence about the
// explainer's own work or about what RisingWave does elsewhere, why it cites nothing. A test
// pins every site's lines and checks that each range holds what the sentence claims.
type Site struct {
	ID      string
	Kind    string // the explanation's kind (docs/view.md)
	File    string // FileLocalityProvider or FileExecutorMod; "" when uncited
	Lines   [2]int
	Uncited string // UncitedOurs or UncitedOutside when File is ""
}

var sites []*Site

// Sites lists every narration site, in the order they are declared.
func Sites() []*Site { return sites }

// newSite declares a site. It stays out of line (as lp and mod in failure/table.go): the package's
// initialization calls it for every site, and inlined there it made the engine's init the
// largest function of the wasm (76 KB of code, compiled at every start-up; 31 KB without).
//
//go:noinline
func newSite(id, kind, file string, a, b int, uncited string) *Site {
	s := &Site{ID: id, Kind: kind, File: file, Lines: [2]int{a, b}, Uncited: uncited}
	sites = append(sites, s)
	return s
}

// lpSite cites lines a-b of locality_provider.rs.
//
//go:noinline
func lpSite(id, kind string, a, b int) *Site {
	return newSite(id, kind, FileLocalityProvider, a, b, "")
}

// actorSite cites lines a-b of executor/actor.rs.
//
//go:noinline
func actorSite(id, kind string, a, b int) *Site { return newSite(id, kind, FileActor, a, b, "") }

// modSite cites lines a-b of executor/mod.rs.
//
//go:noinline
func modSite(id, kind string, a, b int) *Site { return newSite(id, kind, FileExecutorMod, a, b, "") }

// oursSite is a sentence about the explainer's own work: it cites nothing.
//
//go:noinline
func oursSite(id, kind string) *Site { return newSite(id, kind, "", 0, 0, UncitedOurs) }

// outsideSite is a sentence about what RisingWave does outside the cited files.
//
//go:noinline
func outsideSite(id, kind string) *Site { return newSite(id, kind, "", 0, 0, UncitedOutside) }

// The first message (executor/mod.rs expect_first_barrier, called at line 440).
var (
	siteFirstError           = modSite("start.error", "fail", 1469, 1473)
	siteFirstNotBarrier      = modSite("start.not-barrier", "panic", 1474, 1476)
	siteFirstNotCheckpoint   = modSite("start.not-checkpoint", "panic", 1477, 1481)
	siteFirstBarrier         = lpSite("start.first-barrier", "emit", 440, 444)
	siteLoad                 = lpSite("start.load", "load", 314, 368)
	siteStartBuffering       = lpSite("start.buffer", "phase", 462, 467)
	siteStartSkipBuffering   = lpSite("start.skip-buffering", "phase", 459, 467)
	siteStartForward         = lpSite("start.forward", "phase", 459, 460)
	siteFailStreamClosed     = modSite("fail.stream-closed", "fail", 1469, 1473)
	siteFailFirstError       = modSite("fail.first-error", "fail", 1469, 1473)
	siteFailFirstNotBarrier  = modSite("fail.first-not-barrier", "panic", 1474, 1476)
	siteFailFirstNotCheckpnt = modSite("fail.first-not-checkpoint", "panic", 1477, 1481)
)

// Buffering (lines 466-518).
var (
	siteBufChunk          = lpSite("buffering.chunk", "store", 479, 482)
	siteBufWatermark      = lpSite("buffering.watermark", "drop", 476, 478)
	siteBufError          = lpSite("buffering.error", "fail", 471, 473)
	siteBufEnd            = lpSite("buffering.end", "phase", 471, 472)
	siteBufEndFails       = lpSite("buffering.end-fails", "fail", 599, 604)
	siteBufRescale        = lpSite("buffering.rescale", "fail", 500, 501)
	siteBufCommit         = lpSite("buffering.commit", "commit", 500, 509)
	siteBufStart          = lpSite("buffering.start", "phase", 486, 498)
	siteBufOtherFragment  = lpSite("buffering.other-fragment", "note", 486, 498)
	siteBufMutation       = lpSite("buffering.mutation-ignored", "note", 486, 498)
	siteFailBufError      = lpSite("fail.buffering-error", "fail", 471, 473)
	siteFailBufRescale    = lpSite("fail.buffering-rescale", "fail", 500, 501)
	siteFailBufEndedLater = lpSite("fail.upstream-ended-buffering", "fail", 599, 604)
)

// linesRace is where the backfill loop races the upstream against the snapshot, the upstream
// first: a sentence about the race names these lines in its text (raceLines).
var linesRace = [2]int{577, 586}

// The backfill loop (lines 546-656) and its snapshot stream (lines 220-266).
var (
	siteOpen            = lpSite("backfill.open", "snapshot", 568, 571)
	siteOpenPerVnode    = lpSite("backfill.open-per-vnode", "snapshot", 226, 265)
	siteOpenResume      = lpSite("backfill.open-resume", "snapshot", 230, 250)
	siteChunkBuffered   = lpSite("backfill.chunk", "buffer", 592, 595)
	siteBackWatermark   = lpSite("backfill.watermark", "drop", 596, 598)
	siteBackError       = lpSite("backfill.error", "fail", 586, 587)
	siteBackEnd         = lpSite("backfill.end", "fail", 599, 604)
	siteRow             = lpSite("backfill.row", "snapshot", 606, 623)
	siteRowFull         = lpSite("backfill.row-full", "snapshot", 606, 620)
	siteRowsSummary     = lpSite("backfill.rows-summary", "snapshot", 606, 623)
	siteBuilderEmitted  = lpSite("backfill.builder-emitted", "progress", 405, 425)
	siteSnapshotEnd     = lpSite("backfill.snapshot-end", "snapshot", 624, 626)
	siteEndDrain        = lpSite("backfill.end-drain", "drain", 627, 638)
	siteFlush           = lpSite("backfill.flush", "flush", 640, 645)
	siteCompleting      = lpSite("backfill.completing", "phase", 741, 756)
	siteSnapshotError   = lpSite("backfill.snapshot-error", "snapshot", 253, 262)
	sitePausedSnapshot  = lpSite("backfill.paused", "note", 577, 606)
	siteThrottleIgnored = lpSite("backfill.throttle", "note", 553, 566)
	siteFailBackError   = lpSite("fail.backfill-error", "fail", 586, 587)
	siteFailBackEnd     = lpSite("fail.upstream-ended", "fail", 599, 604)
	siteFailSnapError   = lpSite("fail.snapshot-error", "fail", 606, 606)
)

// A barrier while backfilling (lines 657-735).
var (
	siteDrain           = lpSite("barrier.drain", "drain", 658, 670)
	siteDrainNone       = lpSite("barrier.drain-none", "drain", 658, 670)
	siteDrainLate       = lpSite("barrier.drain-late", "drain", 658, 670)
	siteGate            = lpSite("barrier.gate", "gate", 672, 687)
	siteGateUnwritten   = lpSite("barrier.gate-unwritten", "gate", 672, 682)
	siteMark            = lpSite("barrier.mark", "mark", 672, 687)
	siteMarkUnwritten   = lpSite("barrier.mark-unwritten", "mark", 672, 682)
	siteMarkRows        = lpSite("barrier.mark-rows", "mark", 383, 398)
	siteBarRescale      = lpSite("barrier.rescale", "fail", 689, 690)
	siteBarMutation     = lpSite("barrier.mutation-ignored", "note", 689, 690)
	siteBarCommit       = lpSite("barrier.commit", "commit", 689, 693)
	siteBarReport       = lpSite("barrier.report", "report", 697, 713)
	siteBarPersist      = lpSite("barrier.persist", "persist", 715, 719)
	siteBarEmit         = lpSite("barrier.emit", "emit", 728, 728)
	siteRefreshCheck    = lpSite("barrier.refresh-check", "snapshot", 673, 673)
	siteRefresh         = lpSite("barrier.refresh", "snapshot", 730, 735)
	siteReuse           = lpSite("barrier.reuse", "reuse", 673, 673)
	siteFailBarRescale  = lpSite("fail.backfill-rescale", "fail", 689, 690)
	siteBugNoWrite      = lpSite("bug.no-state-write", "bug", 684, 686)
	siteBugMarkFirst    = lpSite("bug.mark-before-drain", "bug", 658, 682)
	siteBugMarkArrival  = lpSite("bug.mark-on-arrival", "bug", 672, 682)
	siteBugEmitBeyond   = lpSite("bug.emit-beyond-pos", "bug", 391, 394)
	siteCauseNoWrite    = lpSite("bug.cause.no-state-write", "bug", 684, 686)
	siteCauseMarkFirst  = lpSite("bug.cause.mark-before-drain", "bug", 658, 682)
	siteCauseMarkArrive = lpSite("bug.cause.mark-on-arrival", "bug", 672, 682)
	siteCauseEmitBeyond = lpSite("bug.cause.emit-beyond-pos", "bug", 391, 394)
)

// Completion (lines 741-799) and forwarding (lines 801-833).
var (
	siteCompChunk       = lpSite("completion.chunk", "forward", 789, 792)
	siteCompWatermark   = lpSite("completion.watermark", "forward", 793, 796)
	siteCompSwallow     = lpSite("completion.swallow", "swallow", 742, 743)
	siteCompThenEnds    = lpSite("completion.then-ends", "end", 801, 804)
	siteCompRescale     = lpSite("completion.rescale", "fail", 745, 746)
	siteCompMutation    = lpSite("completion.mutation-ignored", "note", 745, 746)
	siteCompBarrier     = lpSite("completion.barrier", "complete", 748, 756)
	siteCompNeverStart  = lpSite("completion.never-started", "complete", 121, 131)
	siteCompReport      = lpSite("completion.report", "report", 758, 778)
	siteCompPersist     = lpSite("completion.persist", "persist", 780, 784)
	siteCompEmit        = lpSite("completion.emit", "emit", 786, 787)
	siteFwdChunk        = lpSite("forwarding.chunk", "forward", 828, 831)
	siteFwdWatermark    = lpSite("forwarding.watermark", "forward", 828, 831)
	siteFwdError        = lpSite("forwarding.error", "fail", 803, 804)
	siteFwdEnd          = lpSite("forwarding.end", "end", 801, 804)
	siteFwdRescale      = lpSite("forwarding.rescale", "fail", 807, 808)
	siteFwdMutation     = lpSite("forwarding.mutation-ignored", "note", 807, 808)
	siteFwdBarrier      = lpSite("forwarding.barrier", "emit", 810, 826)
	siteFwdReport       = lpSite("forwarding.report", "report", 817, 825)
	siteFailCompRescale = lpSite("fail.completion-rescale", "fail", 745, 746)
	siteFailFwdError    = lpSite("fail.forwarding-error", "fail", 803, 804)
	siteFailFwdRescale  = lpSite("fail.forwarding-rescale", "fail", 807, 808)
	siteActorExited     = actorSite("actor.exited", "end", 305, 318)
)

// What the explainer does itself, and what RisingWave does outside the file.
var (
	siteRecoverRollback = outsideSite("recover.rollback", "recover")
	siteRecoverReload   = lpSite("recover.reload", "recover", 314, 368)
	siteInvariant       = oursSite("invariant.violated", "invariant")
	siteInconsistent    = oursSite("downstream.inconsistent", "inconsistency")
	siteAdapt           = oursSite("script.adapted", "adapt")
)

// SiteByID returns the site of that ID, or nil.
func SiteByID(id string) *Site {
	for _, s := range sites {
		if s.ID == id {
			return s
		}
	}
	return nil
}
