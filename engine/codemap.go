package engine

import (
	"fmt"
	"strings"
	"sync"
)

// The code map: locality_provider.rs's execute loop in our own words, one line per group of
// narration sites (docs/view.md, `code_map`). A step lights the lines of the sites its
// explanations came from. A line's lines in a release are the span of its sites' lines there,
// and a line exists in a release only when one of its sites does (the fatal upstream end only
// in v3.1, the silent one only before). Every site is on exactly one line (codemap_test.go):
// a new site goes into the list of the line it belongs to.

// CodeLine is one line of the code map as a view carries it.
type CodeLine struct {
	ID      string `json:"id"`
	Depth   int    `json:"depth"`   // its indent: 0 is the executor's top level
	Section string `json:"section"` // the branch it is in, e.g. "backfill loop"
	Text    string `json:"text"`
	File    string `json:"file,omitempty"` // the RisingWave file; absent for a line that cites nothing
	Lines   [2]int `json:"lines"`          // [0, 0] when it cites nothing
	URL     string `json:"url"`            // "" when it cites nothing
}

type codeLineDef struct {
	id, section string
	depth       int
	text        string
	sites       []*Site
}

// on lists a line's sites.
func on(s ...*Site) []*Site { return s }

// codeTable is the code map in its order: the order of the code, then what is not in the file.
var codeTable = []codeLineDef{
	{"first-barrier", "first message", 0, "wait for the first barrier; pass it on", on(siteFirstBarrier)},
	{"first-initial", "first message", 1, "(meta) after a recovery the first barrier is an Initial one", on(siteFirstInitial)},
	{"first-exits", "first message", 1, "not a barrier → panic; not a checkpoint → panic; an error or no message → fail",
		on(siteFirstError, siteFirstNotBarrier, siteFirstNotCheckpoint, siteFailStreamClosed, siteFailFirstError, siteFailFirstNotBarrier, siteFailFirstNotCheckpnt)},
	{"panic-abort", "first message", 2, "(runtime) a panic aborts the whole compute node", on(sitePanicAbort)},
	{"load", "first message", 0, "load each vnode's progress from the progress table", on(siteLoad, siteRecoverReload)},
	{"all-completed", "first message", 0, "every vnode completed? nothing to backfill: straight to forwarding", on(siteStartForward)},
	{"never-done", "first message", 1, "(meta, after a recovery that forgets the backfill order) no done report comes: the job stays creating", on(siteRecoverNeverDone)},
	{"need-buffering", "first message", 0, "every vnode not started? buffer until the start signal (else backfill at once)", on(siteStartBuffering, siteStartSkipBuffering)},

	{"buf-order", "buffering", 1, "(meta) the start signal comes after every scan fragment has finished", on(siteBufferOrder)},
	{"buf-error", "buffering", 1, "upstream error → fail", on(siteBufError, siteFailBufError)},
	{"buf-end", "buffering", 1, "upstream ended → on into the backfill, without a start signal", on(siteBufEnd)},
	{"buf-watermark", "buffering", 1, "watermark → drop", on(siteBufWatermark)},
	{"buf-chunk", "buffering", 1, "chunk → write to the state table", on(siteBufChunk)},
	{"buf-start", "buffering", 1, "barrier → start signal for this fragment? remember it", on(siteBufStart, siteBufOtherFragment, siteBufMutation)},
	{"buf-rescale", "buffering", 2, "new vnode bitmap → error", on(siteBufRescale, siteFailBufRescale)},
	{"buf-rescale-ignored", "buffering", 2, "new vnode bitmap → ignored", on(siteBufRescaleIgnored)},
	{"buf-commit", "buffering", 2, "commit both tables, emit the barrier; started? → backfill", on(siteBufCommit, siteBufReport)},

	{"builders", "backfill", 0, "backfill: one chunk builder per vnode, rate limit disabled", on(siteThrottleIgnored)},
	{"open", "backfill", 1, "open the snapshot stream", on(siteOpen)},
	{"open-read", "backfill", 2, "the snapshot stream reads each vnode's rows after its pos (a failed read → fail)", on(siteOpenResume, siteSnapshotError)},
	{"open-per-vnode", "backfill", 2, "each vnode's rows are read when the stream reaches that vnode", on(siteOpenPerVnode)},
	{"race", "backfill loop", 1, "backfill loop: race upstream against snapshot (upstream first)", on(sitePausedSnapshot)},
	{"reopen", "backfill loop", 2, "each round: open the snapshot stream anew", on(siteRebuild, siteOpenAsWritten)},
	{"back-error", "backfill loop", 2, "upstream error → fail", on(siteBackError, siteFailBackError)},
	{"back-chunk", "backfill loop", 2, "upstream chunk → compact, buffer", on(siteChunkBuffered)},
	{"back-watermark", "backfill loop", 2, "upstream watermark → drop", on(siteBackWatermark)},
	{"back-end", "backfill loop", 2, "upstream ended → error", on(siteBackEnd, siteFailBackEnd, siteBufEndFails, siteFailBufEndedLater)},
	{"back-end-silent", "backfill loop", 2, "upstream ended → only the snapshot answers, to its end", on(siteBackEndSilent, siteBufEndSilent, siteRowEnded)},
	{"snap-error", "backfill loop", 2, "snapshot error → fail", on(siteFailSnapError)},
	{"snap-row", "backfill loop", 2, "snapshot row → its vnode's builder; full → emit", on(siteRow, siteRowFull, siteRowsSummary)},
	{"snap-end", "backfill loop", 2, "snapshot ended → drain the builders, flush the buffer, leave the loop", on(siteSnapshotEnd, siteEndDrain, siteFlush)},
	{"bar-drain", "backfill loop", 2, "barrier → 1. drain every builder", on(siteDrain, siteDrainNone, siteDrainLate)},
	{"bar-refresh-check", "backfill barrier", 3, "was a chunk buffered this epoch? (it decides step 7)", on(siteRefreshCheck)},
	{"bar-mark", "backfill barrier", 3, "2. mark each buffered chunk by pos, emit it; write it to the state table",
		on(siteGate, siteGateUnwritten, siteMark, siteMarkUnwritten, siteBugNoWrite, siteBugMarkFirst, siteBugMarkArrival, siteCauseNoWrite, siteCauseMarkFirst, siteCauseMarkArrive)},
	{"bar-rescale", "backfill barrier", 3, "new vnode bitmap → error", on(siteBarRescale, siteFailBarRescale)},
	{"bar-mutation", "backfill barrier", 3, "its mutation → ignored", on(siteBarMutation, siteBarRescaleIgnored)},
	{"bar-commit", "backfill barrier", 3, "3. commit the state table", on(siteBarCommit)},
	{"bar-report", "backfill barrier", 3, "4. report progress", on(siteBarReport)},
	{"bar-persist", "backfill barrier", 3, "5. persist progress, commit the progress table", on(siteBarPersist)},
	{"bar-emit", "backfill barrier", 3, "6. emit the barrier", on(siteBarEmit)},
	{"bar-refresh", "backfill barrier", 3, "7. a chunk was buffered? a new snapshot stream; else keep it", on(siteRefresh, siteReuse)},

	{"comp-wait", "completion", 0, "backfilled, not yet completed? wait for one barrier", on(siteCompleting)},
	{"comp-end", "completion", 1, "upstream ended or error → stop waiting", on(siteCompSwallow)},
	{"comp-rescale", "completion", 1, "barrier: new vnode bitmap → error", on(siteCompRescale, siteFailCompRescale)},
	{"comp-mutation", "completion", 1, "barrier: its mutation → ignored", on(siteCompMutation, siteCompRescaleIgnored)},
	{"comp-barrier", "completion", 1, "barrier → commit; every vnode completed", on(siteCompBarrier)},
	{"comp-never-started", "completion", 2, "a vnode never started → completed with no position", on(siteCompNeverStart)},
	{"comp-report", "completion", 2, "report finished", on(siteCompReport)},
	{"comp-persist", "completion", 2, "persist progress, commit the progress table", on(siteCompPersist)},
	{"comp-truncate", "completion", 2, "(meta) once every actor reported finished: truncate the state table", on(siteCompTruncate)},
	{"comp-no-truncate", "completion", 2, "(meta, after a recovery) no backfill order: nothing finishes, no truncation", on(siteCompNoTruncate)},
	{"comp-emit", "completion", 2, "emit the barrier; on to forwarding", on(siteCompEmit)},
	{"comp-chunk", "completion", 1, "chunk → forward", on(siteCompChunk)},
	{"comp-watermark", "completion", 1, "watermark → forward", on(siteCompWatermark)},

	{"fwd-end", "forwarding", 0, "forward the upstream until it ends; then the stream ends", on(siteFwdEnd, siteCompThenEnds)},
	{"fwd-error", "forwarding", 1, "upstream error → fail", on(siteFwdError, siteFailFwdError)},
	{"fwd-rescale", "forwarding", 1, "barrier: new vnode bitmap → error", on(siteFwdRescale, siteFailFwdRescale)},
	{"fwd-mutation", "forwarding", 1, "barrier: its mutation → ignored", on(siteFwdMutation, siteFwdRescaleIgnored)},
	{"fwd-barrier", "forwarding", 1, "barrier → commit both tables; report finished once after a restart; emit", on(siteFwdBarrier, siteFwdReport)},
	{"fwd-message", "forwarding", 1, "chunk, watermark → forward", on(siteFwdChunk, siteFwdWatermark)},
	{"actor-exits", "the actor", 0, "the stream ended before a Stop barrier → the actor fails", on(siteActorExited)},
	{"actor-stop", "the actor", 0, "a Stop barrier for this actor, once passed on → the actor stops reading its executors", on(siteActorStop)},
	{"actor-input-ends", "the actor", 1, "(merge) the input ends right after passing on that Stop barrier", on(siteActorStopInput)},
	{"actor-exchange-local", "the actor", 1, "(exchange) a local upstream actor gone → its input yields an error, not an end", on(siteExchangeLocal)},
	{"actor-exchange-remote", "the actor", 1, "(exchange) a remote upstream actor gone → likewise an error", on(siteExchangeRemote)},

	{"emit-builder", "helpers", 0, "emitting a builder: its rows go out, its vnode's pos moves to the last", on(siteBuilderEmitted)},
	{"mark-row", "helpers", 0, "marking a row: visible if its key is at or before its vnode's pos", on(siteMarkRows, siteBugEmitBeyond, siteCauseEmitBeyond)},

	{"recover", "outside the executor", 0, "(outside this file) recovery: back to the last checkpoint, restart", on(siteRecoverRollback)},
	{"recover-job", "outside the executor", 1, "(meta) at a recovery: a creating foreground job dropped (" + NamesWhere(dropsCreatingForeground) + "), any other kept", on(siteRecoverJob)},
	{"recover-initial", "outside the executor", 1, "(meta) at a recovery: a job whose first barrier no checkpoint committed is still initial, and is dropped in every release, whatever its create type", on(siteRecoverInitial)},
	{"recover-signal", "outside the executor", 1, "(meta) after a recovery: the start signal again (from " + FirstWhere(resendsStart) + ") or never (" + NamesWhere(not(resendsStart)) + ")", on(siteRecoverSignal, siteRecoverNoSignal)},
	{"invariant", "outside the executor", 0, "(the explainer's own) check downstream against the upstream", on(siteInvariant, siteInconsistent)},
	{"adapt", "outside the executor", 0, "(the explainer's own) adapt the script to this run", on(siteAdapt)},
}

// codeLineOf is each site's code-map line (by the site's ID).
var codeLineOf = func() map[string]string {
	m := map[string]string{}
	for _, d := range codeTable {
		for _, s := range d.sites {
			m[s.ID] = d.id
		}
	}
	return m
}()

// CodeLineOf returns the code-map line a site is on ("" when none: codemap_test.go fails).
func CodeLineOf(siteID string) string { return codeLineOf[siteID] }

// codeMaps is each release's code map, built at its first use.
var codeMaps sync.Map // *Release → []CodeLine

// CodeMap returns the code map of a release: the lines it has, in order, with its lines.
func (r *Release) CodeMap() []CodeLine {
	if m, ok := codeMaps.Load(r); ok {
		return m.([]CodeLine)
	}
	m, _ := codeMaps.LoadOrStore(r, buildCodeMap(r))
	return m.([]CodeLine)
}

func buildCodeMap(r *Release) []CodeLine {
	var out []CodeLine
	for _, d := range codeTable {
		l := CodeLine{ID: d.id, Depth: d.depth, Section: d.section, Text: d.text}
		has := false
		for _, s := range d.sites {
			sl, ok := r.SiteLines(s)
			if !ok {
				continue
			}
			has = true
			if s.File == "" {
				continue
			}
			switch {
			case l.File == "":
				l.File, l.Lines = s.File, sl
			case l.File != s.File:
				panic(fmt.Sprintf("internal error: code-map line %s cites %s and %s", d.id, l.File, s.File))
			default:
				l.Lines = [2]int{min(l.Lines[0], sl[0]), max(l.Lines[1], sl[1])}
			}
		}
		if !has {
			continue
		}
		if l.File != "" {
			l.URL = r.URL(l.File, l.Lines)
		}
		out = append(out, l)
	}
	return out
}

// codeLit lists the code-map lines the step's explanations came from, in the map's order.
func (e *Engine) codeLit() []string {
	lit := map[string]bool{}
	for _, ex := range e.narration.explanations {
		if id := codeLineOf[ex.Site]; id != "" {
			lit[id] = true
		}
	}
	out := []string{}
	for _, l := range e.rel().CodeMap() {
		if lit[l.ID] {
			out = append(out, l.ID)
		}
	}
	return out
}

// CodeLit lists the code-map lines the current step lit (see codeLit).
func (e *Engine) CodeLit() []string { return e.codeLit() }

// CodeText renders lit code-map lines for the command line, e.g.
// "backfill loop › upstream chunk → compact, buffer [locality_provider.rs:592-595]".
func (r *Release) CodeText(ids []string) []string {
	var out []string
	for _, id := range ids {
		for _, l := range r.CodeMap() {
			if l.ID != id {
				continue
			}
			where := "not in RisingWave's files"
			if l.File != "" {
				where = Citation{File: l.File, Lines: l.Lines}.Cite()
			}
			out = append(out, fmt.Sprintf("%s › %s  [%s]", l.Section, strings.TrimSpace(l.Text), where))
		}
	}
	return out
}

// CodeLineIDs lists every line of the code map in order, in any release.
func CodeLineIDs() []string {
	out := make([]string, len(codeTable))
	for i, d := range codeTable {
		out[i] = d.id
	}
	return out
}

// CodeLineSites returns the narration sites a code-map line covers (nil for no such line).
func CodeLineSites(id string) []*Site {
	for _, d := range codeTable {
		if d.id == id {
			return d.sites
		}
	}
	return nil
}
