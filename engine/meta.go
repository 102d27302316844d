package engine

import (
	"fmt"
	"strings"
)

// The meta service around the executor: the order in which it starts a job's backfill fragments
// (the scan fragments before the locality provider's), the first barrier after a recovery, the
// start signal after a recovery (per release) and the truncation of the state table once the
// backfill has finished. The model does not run the meta service: these are sentences, each
// citing the meta code that decides it.

// Files of RisingWave's meta service cited by the narration.
const (
	FileMetaRPC      = "src/meta/src/barrier/rpc.rs"
	FileMetaProgress = "src/meta/src/barrier/progress.rs"
	FileMetaFragment = "src/meta/src/stream/stream_graph/fragment.rs"
)

// Lines of the meta files at SourceCommit.
var (
	LinesMetaOrder       = [2]int{1395, 1433} // every scan fragment before the root locality-provider fragments; one fed by another after it
	LinesMetaInitial     = [2]int{812, 815}   // the first barrier after a recovery: BarrierKind::Initial
	LinesMetaRecoverJobs = [2]int{894, 916}   // a creating job recovered with its backfill order rebuilt
	LinesMetaTruncate    = [2]int{156, 179}   // a Done report that finishes a fragment truncates its state table
)

// metaSite cites lines a-b of a meta file.
//
//go:noinline
func metaSite(id, kind, file string, a, b int) *Site { return newSite(id, kind, file, a, b, "") }

var (
	siteBufferOrder     = metaSite("start.buffer-order", "note", FileMetaFragment, LinesMetaOrder[0], LinesMetaOrder[1])
	siteFirstInitial    = metaSite("start.initial", "note", FileMetaRPC, LinesMetaInitial[0], LinesMetaInitial[1])
	siteRecoverSignal   = metaSite("recover.start-signal-again", "note", FileMetaRPC, LinesMetaRecoverJobs[0], LinesMetaRecoverJobs[1])
	siteCompTruncate    = metaSite("completion.truncate", "note", FileMetaProgress, LinesMetaTruncate[0], LinesMetaTruncate[1])
	siteRecoverNoSignal = oldSite("recover.no-start-signal", "note", FileMetaRPC) // v2.7 only
	siteCompNoTruncate  = oldSite("completion.no-truncate", "note", FileMetaRPC)  // v2.7 only
)

// The meta files' lines in the older releases, at their newest patch tags (the sites only v2.7
// says: "site:ID").
var linesMeta27 = map[string][2]int{
	"controller/streaming_job.rs:1204-1226":     {814, 833},
	"controller/catalog/mod.rs:634-700":         {428, 440},
	"stream/stream_graph/fragment.rs:1395-1433": {1069, 1104},
	"barrier/rpc.rs:812-815":                    {734, 737},
	"barrier/progress.rs:156-179":               {142, 165},
	"site:recover.no-start-signal":              {812, 819},
	"site:completion.no-truncate":               {812, 819},
	"site:recover.never-done":                   {402, 425},
}

var linesMeta28 = map[string][2]int{
	"controller/streaming_job.rs:1204-1226":     {896, 915},
	"controller/catalog/mod.rs:634-700":         {450, 463},
	"stream/stream_graph/fragment.rs:1395-1433": {1161, 1199},
	"barrier/rpc.rs:812-815":                    {800, 803},
	"barrier/rpc.rs:894-916":                    {880, 902},
	"barrier/progress.rs:156-179":               {155, 178},
}

var linesMeta30 = map[string][2]int{
	"controller/streaming_job.rs:1204-1226":     {1088, 1107},
	"controller/catalog/mod.rs:634-700":         {463, 475},
	"stream/stream_graph/fragment.rs:1395-1433": {1377, 1415},
	"barrier/rpc.rs:812-815":                    {759, 762},
	"barrier/rpc.rs:894-916":                    {839, 861},
	"barrier/progress.rs:156-179":               {155, 178},
}

// metaFile names a meta file as a reader finds it under src/meta/src, e.g. "barrier/rpc.rs".
func metaFile(file string) (string, bool) {
	return strings.CutPrefix(file, "src/meta/src/")
}

// explainBufferingWhy says, when the executor starts buffering, why the buffer usually ends up
// holding the whole scanned table, and after a recovery whether the start signal comes again.
func (e *Engine) explainBufferingWhy() {
	e.explain(siteBufferOrder, "Why buffering usually holds the whole scanned table: the meta service orders every scan fragment of the job before its first locality-provider fragments, and a locality-provider fragment fed by another one after that one. So the start signal for fragment %d comes only after every scan actor has finished (and, when another locality-provider fragment feeds this one, after that one has finished too), and by then everything the scans read has passed through this buffer into the state table (a job without a scan fragment starts this fragment at once).", e.cfg.Fragment)
	if !e.recovered {
		return
	}
	if e.rel().ResendsStart {
		e.explain(siteRecoverSignal, "After the recovery the meta service rebuilds the job's backfill order with every fragment unfinished and starts again from the scan fragments: the start signal for fragment %d comes again only once every scan actor has reported done again. Until then this executor buffers again. Its state table keeps every row buffered up to the checkpoint (each buffering barrier commits it): only what reaches it after the checkpoint is buffered anew.", e.cfg.Fragment)
		return
	}
	e.explain(siteRecoverNoSignal, "%s's meta service recovers a creating job with an empty backfill order, so no start signal for fragment %d ever comes again: this executor stays buffering and the job stays creating (from %s recovery rebuilds the order and sends the signal again).", e.rel().Name, e.cfg.Fragment, FirstWhere(resendsStart))
}

// explainInitial says, at the first barrier after a recovery, that the meta service injects it as an
// Initial barrier.
func (e *Engine) explainInitial(b Barrier) {
	if !e.recovered {
		return
	}
	e.explain(siteFirstInitial, "After a recovery the meta service injects the first barrier as an initial barrier (a new epoch for each attempt); the executor's wait for its first barrier accepts an initial barrier as it accepts a checkpoint, and the scenario writes it as a checkpoint barrier (e%d).", b.Epoch)
}

// explainTruncate says what the meta service does with the state table once the backfill reported
// finished: the model keeps showing the rows.
func (e *Engine) explainTruncate() {
	if e.recovered && !e.rel().ResendsStart {
		e.explain(siteCompNoTruncate, "%s's meta service recovered this job with an empty backfill order, so this finish report finishes no fragment there and the state table is never truncated.", e.rel().Name)
		return
	}
	e.explain(siteCompTruncate, "The meta service, not this executor, truncates the state table (not the progress table) once every actor of this fragment has reported finished: in the commit of the barrier that carries the last report. The explainer does not show the truncation: the state table keeps its rows here.")
}

// startRefused reports whether a barrier carries a start signal for this fragment that the
// release's meta service never sends: v2.7's, after a recovery.
func (e *Engine) startRefused(b Barrier) bool {
	if !e.recovered || e.rel().ResendsStart {
		return false
	}
	for _, id := range b.StartBackfill {
		if id == e.cfg.Fragment {
			return true
		}
	}
	return false
}

func (e *Engine) startRefusedText() string {
	return fmt.Sprintf("%s's meta service never sends the start signal for fragment %d after a recovery (it recovers the job with an empty backfill order)", e.rel().Name, e.cfg.Fragment)
}
