// Package codemap is the code map: locality_provider.rs's execute loop in our own words, one
// line per group of the engine's narration sites (docs/view.md, `code_map`). A step lights the
// lines of the sites its explanations came from. A line's lines in a release are the span of its
// sites' lines there, and a line exists in a release only when one of its sites does (the fatal
// upstream end only where the end fails, the silent one only where it does not). Every site is
// on exactly one line and every ID names a site (codemap_test.go): a new site goes into the list
// of the line it belongs to.
package codemap

import (
	"fmt"
	"strings"
	"sync"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/view"
)

type lineDef struct {
	id, section string
	depth       int
	text        string
	sites       []string // the IDs of its sites
}

// on lists a line's sites, by ID.
func on(ids ...string) []string { return ids }

// codeTable is the code map in its order, each line with the IDs of its sites (engine.Sites): the order of the code, then what is not in the file.
var codeTable = []lineDef{
	{"first-barrier", "first message", 0, "wait for the first barrier; pass it on", on("start.first-barrier")},
	{"first-initial", "first message", 1, "(meta) after a recovery the first barrier is an Initial one", on("start.initial")},
	{"first-exits", "first message", 1, "not a barrier → panic; not a checkpoint → panic; an error or no message → fail",
		on("start.error", "start.not-barrier", "start.not-checkpoint", "fail.stream-closed", "fail.first-error", "fail.first-not-barrier", "fail.first-not-checkpoint")},
	{"panic-abort", "first message", 2, "(runtime) a panic aborts the whole compute node", on("fail.panic-abort")},
	{"load", "first message", 0, "load each vnode's progress from the progress table", on("start.load", "recover.reload")},
	{"all-completed", "first message", 0, "every vnode completed? nothing to backfill: straight to forwarding", on("start.forward")},
	{"never-done", "first message", 1, "(meta, after a recovery that forgets the backfill order) no done report comes: the job stays creating", on("recover.never-done")},
	{"need-buffering", "first message", 0, "every vnode not started? buffer until the start signal (else backfill at once)", on("start.buffer", "start.skip-buffering")},

	{"buf-order", "buffering", 1, "(meta) the start signal comes after every scan fragment has finished", on("start.buffer-order")},
	{"buf-error", "buffering", 1, "upstream error → fail", on("buffering.error", "fail.buffering-error")},
	{"buf-end", "buffering", 1, "upstream ended → on into the backfill, without a start signal", on("buffering.end")},
	{"buf-watermark", "buffering", 1, "watermark → drop", on("buffering.watermark")},
	{"buf-chunk", "buffering", 1, "chunk → write to the state table", on("buffering.chunk")},
	{"buf-start", "buffering", 1, "barrier → start signal for this fragment? remember it", on("buffering.start", "buffering.other-fragment", "buffering.mutation-ignored")},
	{"buf-rescale", "buffering", 2, "new vnode bitmap → error", on("buffering.rescale", "fail.buffering-rescale")},
	{"buf-rescale-ignored", "buffering", 2, "new vnode bitmap → ignored", on("buffering.rescale-ignored")},
	{"buf-commit", "buffering", 2, "commit both tables, emit the barrier; started? → backfill", on("buffering.commit", "buffering.report")},

	{"builders", "backfill", 0, "backfill: one chunk builder per vnode, rate limit disabled", on("backfill.throttle")},
	{"open", "backfill", 1, "open the snapshot stream", on("backfill.open")},
	{"open-read", "backfill", 2, "the snapshot stream reads each vnode's rows after its pos (a failed read → fail)", on("backfill.open-resume", "backfill.snapshot-error")},
	{"open-per-vnode", "backfill", 2, "each vnode's rows are read when the stream reaches that vnode", on("backfill.open-per-vnode")},
	{"race", "backfill loop", 1, "backfill loop: race upstream against snapshot (upstream first)", on("backfill.paused")},
	{"reopen", "backfill loop", 2, "each round: open the snapshot stream anew", on("barrier.rebuild", "backfill.open-as-written")},
	{"back-error", "backfill loop", 2, "upstream error → fail", on("backfill.error", "fail.backfill-error")},
	{"back-chunk", "backfill loop", 2, "upstream chunk → compact, buffer", on("backfill.chunk")},
	{"back-watermark", "backfill loop", 2, "upstream watermark → drop", on("backfill.watermark")},
	{"back-end", "backfill loop", 2, "upstream ended → error", on("backfill.end", "fail.upstream-ended", "buffering.end-fails", "fail.upstream-ended-buffering")},
	{"back-end-silent", "backfill loop", 2, "upstream ended → only the snapshot answers, to its end", on("backfill.end-silent", "buffering.end-silent", "backfill.row-ended")},
	{"snap-error", "backfill loop", 2, "snapshot error → fail", on("fail.snapshot-error")},
	{"snap-row", "backfill loop", 2, "snapshot row → its vnode's builder; full → emit", on("backfill.row", "backfill.row-full", "backfill.rows-summary")},
	{"snap-end", "backfill loop", 2, "snapshot ended → drain the builders, flush the buffer, leave the loop", on("backfill.snapshot-end", "backfill.end-drain", "backfill.flush")},
	{"bar-drain", "backfill loop", 2, "barrier → 1. drain every builder", on("barrier.drain", "barrier.drain-none", "barrier.drain-late")},
	{"bar-refresh-check", "backfill barrier", 3, "was a chunk buffered this epoch? (it decides step 7)", on("barrier.refresh-check")},
	{"bar-mark", "backfill barrier", 3, "2. mark each buffered chunk by pos, emit it; write it to the state table",
		on("barrier.gate", "barrier.gate-unwritten", "barrier.mark", "barrier.mark-unwritten", "bug.no-state-write", "bug.mark-before-drain", "bug.mark-on-arrival", "bug.cause.no-state-write", "bug.cause.mark-before-drain", "bug.cause.mark-on-arrival")},
	{"bar-rescale", "backfill barrier", 3, "new vnode bitmap → error", on("barrier.rescale", "fail.backfill-rescale")},
	{"bar-mutation", "backfill barrier", 3, "its mutation → ignored", on("barrier.mutation-ignored", "barrier.rescale-ignored")},
	{"bar-commit", "backfill barrier", 3, "3. commit the state table", on("barrier.commit")},
	{"bar-report", "backfill barrier", 3, "4. report progress", on("barrier.report")},
	{"bar-persist", "backfill barrier", 3, "5. persist progress, commit the progress table", on("barrier.persist")},
	{"bar-emit", "backfill barrier", 3, "6. emit the barrier", on("barrier.emit")},
	{"bar-refresh", "backfill barrier", 3, "7. a chunk was buffered? a new snapshot stream; else keep it", on("barrier.refresh", "barrier.reuse")},

	{"comp-wait", "completion", 0, "backfilled, not yet completed? wait for one barrier", on("backfill.completing")},
	{"comp-end", "completion", 1, "upstream ended or error → stop waiting", on("completion.swallow")},
	{"comp-rescale", "completion", 1, "barrier: new vnode bitmap → error", on("completion.rescale", "fail.completion-rescale")},
	{"comp-mutation", "completion", 1, "barrier: its mutation → ignored", on("completion.mutation-ignored", "completion.rescale-ignored")},
	{"comp-barrier", "completion", 1, "barrier → commit; every vnode completed", on("completion.barrier")},
	{"comp-never-started", "completion", 2, "a vnode never started → completed with no position", on("completion.never-started")},
	{"comp-report", "completion", 2, "report finished", on("completion.report")},
	{"comp-persist", "completion", 2, "persist progress, commit the progress table", on("completion.persist")},
	{"comp-truncate", "completion", 2, "(meta) once every actor reported finished: truncate the state table", on("completion.truncate")},
	{"comp-no-truncate", "completion", 2, "(meta, after a recovery) no backfill order: nothing finishes, no truncation", on("completion.no-truncate")},
	{"comp-emit", "completion", 2, "emit the barrier; on to forwarding", on("completion.emit")},
	{"comp-chunk", "completion", 1, "chunk → forward", on("completion.chunk")},
	{"comp-watermark", "completion", 1, "watermark → forward", on("completion.watermark")},

	{"fwd-end", "forwarding", 0, "forward the upstream until it ends; then the stream ends", on("forwarding.end", "completion.then-ends")},
	{"fwd-error", "forwarding", 1, "upstream error → fail", on("forwarding.error", "fail.forwarding-error")},
	{"fwd-rescale", "forwarding", 1, "barrier: new vnode bitmap → error", on("forwarding.rescale", "fail.forwarding-rescale")},
	{"fwd-mutation", "forwarding", 1, "barrier: its mutation → ignored", on("forwarding.mutation-ignored", "forwarding.rescale-ignored")},
	{"fwd-barrier", "forwarding", 1, "barrier → commit both tables; report finished once after a restart; emit", on("forwarding.barrier", "forwarding.report")},
	{"fwd-message", "forwarding", 1, "chunk, watermark → forward", on("forwarding.chunk", "forwarding.watermark")},
	{"actor-exits", "the actor", 0, "the stream ended before a Stop barrier → the actor fails", on("actor.exited")},
	{"actor-stop", "the actor", 0, "a Stop barrier for this actor, once passed on → the actor stops reading its executors", on("actor.stop")},
	{"actor-input-ends", "the actor", 1, "(merge) the input ends right after passing on that Stop barrier", on("actor.stop-input-ends")},
	{"actor-exchange-local", "the actor", 1, "(exchange) a local upstream actor gone → its input yields an error, not an end", on("upstream.exchange-closed-local")},
	{"actor-exchange-remote", "the actor", 1, "(exchange) a remote upstream actor gone → likewise an error", on("upstream.exchange-closed-remote")},

	{"emit-builder", "helpers", 0, "emitting a builder: its rows go out, its vnode's pos moves to the last", on("backfill.builder-emitted")},
	{"mark-row", "helpers", 0, "marking a row: visible if its key is at or before its vnode's pos", on("barrier.mark-rows", "bug.emit-beyond-pos", "bug.cause.emit-beyond-pos")},

	{"recover", "outside the executor", 0, "(outside this file) recovery: back to the last checkpoint, restart", on("recover.rollback")},
	{"recover-job", "outside the executor", 1, "(meta) at a recovery: a creating foreground job dropped (" + engine.NamesWhere(func(r *engine.Release) bool { return r.DropsCreatingForeground }) + "), any other kept", on("recover.creating-job")},
	{"recover-initial", "outside the executor", 1, "(meta) at a recovery: a job whose first barrier no checkpoint committed is still initial, and is dropped in every release, whatever its create type", on("recover.initial-job")},
	{"recover-signal", "outside the executor", 1, "(meta) after a recovery: the start signal again (from " + engine.FirstWhere(func(r *engine.Release) bool { return r.ResendsStart }) + ") or never (" + engine.NamesWhere(func(r *engine.Release) bool { return !r.ResendsStart }) + ")", on("recover.start-signal-again", "recover.no-start-signal")},
	{"invariant", "outside the executor", 0, "(the explainer's own) check downstream against the upstream", on("invariant.violated", "downstream.inconsistent")},
	{"adapt", "outside the executor", 0, "(the explainer's own) adapt the script to this run", on("script.adapted")},
}

// lineOf is each site's code-map line (by the site's ID).
var lineOf = func() map[string]string {
	m := map[string]string{}
	for _, d := range codeTable {
		for _, id := range d.sites {
			m[id] = d.id
		}
	}
	return m
}()

// LineOf returns the code-map line a site is on ("" when none: codemap_test.go fails).
func LineOf(siteID string) string { return lineOf[siteID] }

// maps is each release's code map, built at its first use.
var maps sync.Map // *engine.Release → []view.CodeLine

// Of returns the code map of a release: the lines it has, in order, with its lines.
func Of(r *engine.Release) []view.CodeLine {
	if m, ok := maps.Load(r); ok {
		return m.([]view.CodeLine)
	}
	m, _ := maps.LoadOrStore(r, build(r))
	return m.([]view.CodeLine)
}

func build(r *engine.Release) []view.CodeLine {
	var out []view.CodeLine
	for _, d := range codeTable {
		l := view.CodeLine{ID: d.id, Depth: d.depth, Section: d.section, Text: d.text}
		has := false
		for _, id := range d.sites {
			s := engine.SiteByID(id)
			if s == nil {
				continue // (codemap_test.go: never)
			}
			sl, ok := r.SiteLines(s)
			if !ok {
				continue
			}
			has = true
			if s.File == "" {
				continue
			}
			if l.File == "" {
				l.File, l.Lines = s.File, sl
			} else { // (a line's sites cite one file: codemap_test.go)
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

// Lit lists the code-map lines explanations came from under release r, in the map's order.
func Lit(r *engine.Release, explanations []engine.Explanation) []string {
	lit := map[string]bool{}
	for _, ex := range explanations {
		if id := lineOf[ex.Site]; id != "" {
			lit[id] = true
		}
	}
	out := []string{}
	for _, l := range Of(r) {
		if lit[l.ID] {
			out = append(out, l.ID)
		}
	}
	return out
}

// Text renders lit code-map lines for the command line, e.g.
// "backfill loop › upstream chunk → compact, buffer [locality_provider.rs:592-595]".
func Text(r *engine.Release, ids []string) []string {
	var out []string
	for _, id := range ids {
		for _, l := range Of(r) {
			if l.ID != id {
				continue
			}
			where := "not in RisingWave's files"
			if l.File != "" {
				where = view.Where(l.File, l.Lines, "")
			}
			out = append(out, fmt.Sprintf("%s › %s  [%s]", l.Section, strings.TrimSpace(l.Text), where))
		}
	}
	return out
}

// LineIDs lists every line of the code map in order, in any release.
func LineIDs() []string {
	out := make([]string, len(codeTable))
	for i, d := range codeTable {
		out[i] = d.id
	}
	return out
}

// LineSites returns the narration sites a code-map line covers (nil for no such line); an ID
// that names no site is left out (codemap_test.go fails).
func LineSites(id string) []*engine.Site {
	for _, d := range codeTable {
		if d.id != id {
			continue
		}
		out := make([]*engine.Site, 0, len(d.sites))
		for _, sid := range d.sites {
			if s := engine.SiteByID(sid); s != nil {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Unnamed lists the site IDs of the table that name no site (codemap_test.go: none).
func Unnamed() []string {
	var out []string
	for _, d := range codeTable {
		for _, sid := range d.sites {
			if engine.SiteByID(sid) == nil {
				out = append(out, d.id+": "+sid)
			}
		}
	}
	return out
}
