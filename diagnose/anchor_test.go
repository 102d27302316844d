package diagnose

import (
	"fmt"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/rwsource"
	"github.com/stretchr/testify/assert"
)

// sourceAt reads a RisingWave file at a ref (internal/rwsource: RISINGWAVE_GIT or
// RISINGWAVE_SRC); without either the source checks are skipped, saying how to enable them.
func sourceAt(t *testing.T, ref, file string) []string {
	t.Helper()
	return rwsource.Lines(t, ref, file)
}

// TestCitedLinesHoldTheirAnchors: every fact of files.go, at every release, is in the release's
// line table and holds its anchor words there; every citation of the catalogue lies inside its
// file.
func TestCitedLinesHoldTheirAnchors(t *testing.T) {
	type anchor struct {
		f     fact
		words []string
		old   bool // checked for the releases not read at SourceCommit only (the code there differs)
	}
	anchors := map[string]anchor{
		"lpFirstBarrier":    {lpFirstBarrier, []string{"expect_first_barrier(&mut upstream)"}, false},
		"modStreamClosed":   {modStreamClosed, []string{"failed to extract the first message: stream closed unexpectedly", "??"}, false},
		"modNotBarrier":     {modNotBarrier, []string{"the first message must be a barrier"}, false},
		"modNotCheckpoint":  {modNotCheckpoint, []string{"assert!(matches!(", "BarrierKind::Checkpoint | BarrierKind::Initial"}, false},
		"actorExited":       {actorExited, []string{"actor exited unexpectedly", "is_stop(id)", "break Ok(barrier)"}, false},
		"actorExitLog":      {actorExitLog, []string{"actor exit with error"}, false},
		"lpBufferingLoop":   {lpBufferingLoop, []string{"for msg in upstream.by_ref()", "msg?"}, false},
		"lpBackfillLeft":    {lpBackfillLeft, []string{"Either::Left(", "msg", "?"}, false},
		"lpSelect":          {lpSelect, []string{"select_with_strategy", "PollNext::Left"}, true},
		"lpSnapshotEnd":     {lpSnapshotEnd, []string{"End of the snapshot read stream", "consume_all", "upstream_chunk_buffer.drain(..)", "break 'backfill_loop"}, false},
		"lpCompletionLoop":  {lpCompletionLoop, []string{"while let Some(Ok(msg)) = upstream.next().await"}, false},
		"lpForwardingLoop":  {lpForwardingLoop, []string{"for msg in upstream {", "msg?"}, false},
		"lpSnapshotRead":    {lpSnapshotRead, []string{"iter_with_vnode", "?"}, false},
		"lpSnapshotItem":    {lpSnapshotItem, []string{"msg", "?"}, false},
		"lpBufferCommit":    {lpBufferCommit, []string{"state_table.commit(epoch)", "post_yield_barrier"}, true},
		"lpBackfillCommit":  {lpBackfillCommit, []string{"state_table.commit(barrier.epoch)"}, true},
		"exchangeLocal":     {exchangeLocal, []string{"exchange channel from local upstream actor {upstream} closed unexpectedly"}, false},
		"exchangeRemote":    {exchangeRemote, []string{"exchange channel from remote upstream actor {upstream} closed unexpectedly"}, false},
		"exchangeDown":      {exchangeDown, []string{"exchange channel to downstream actor {downstream} closed unexpectedly"}, false},
		"inputLocalRaise":   {inputLocalRaise, []string{"ExchangeChannelClosed::local_input"}, false},
		"inputRemoteRaise":  {inputRemoteRaise, []string{"remote_input(up_down_ids.0, Some(e))", "remote_input(up_down_ids.0, None)"}, false},
		"outputRaise":       {outputRaise, []string{"ExchangeChannelClosed::output"}, false},
		"scoreExchange":     {scoreExchange, []string{"not the root cause", "ExchangeChannelClosed(_) => 1"}, false},
		"storageErrorText":  {storageErrorText, []string{"Storage error: {0}"}, false},
		"metaRecovery":      {metaRecovery, []string{"\"database entering recovery\""}, false},
		"panicHook":         {panicHook, []string{"std::panic::update_hook", "is_catching_unwind()", "std::process::abort()"}, false},
		"orderNotFound":     {orderNotFound, []string{"let Some(fragment_id) = self.actor_to_fragment_id.get(&actor_id) else", "\"fragment not found for actor\"", "return vec![];"}, false},
		"vnodeCheck":        {vnodeCheck, []string{"fn check_vnode_is_set(", "should not be accessed by this table", "panic!("}, false},
		"vnodeChunkCheck":   {vnodeChunkCheck, []string{"if vis {", "check_vnode_is_set(vnode, vnodes)"}, false},
		"metaCleanCreating": {metaCleanCreating, []string{"clean_dirty_creating_jobs", "CreateType::Foreground"}, false},
		"metaNodeFailure":   {metaNodeFailure, []string{"\"database entering recovery on node failure\""}, false},
	}
	words := func(name string, r *engine.Release, f fact, ws ...string) {
		t.Helper()
		l, ok := r.At(f.file, f.lines)
		if !assert.True(t, ok, "%s: release %s has no lines for %s (engine/release_lines.go)", name, r.Name, name) {
			return
		}
		src := sourceAt(t, r.Ref, f.file)
		if !assert.LessOrEqual(t, l[1], len(src), "%s at %s: past the end", name, r.Name) {
			return
		}
		text := strings.Join(src[l[0]-1:l[1]], "\n")
		for _, w := range ws {
			assert.Contains(t, text, w, "%s at %s (%s:%d-%d)", name, r.Name, f.file, l[0], l[1])
		}
	}
	for _, r := range engine.Releases {
		for name, a := range anchors {
			if a.old && r.AtSource {
				continue
			}
			words(name, r, a.f, a.words...)
		}
		if actorExitLogSync.has(r.Name) {
			words("actorExitLogSync", r, actorExitLogSync, "actor exit with error")
		}
		if r.SyncLogChecksRescale {
			words("modNoUpdate", r, modNoUpdate, "updating vnode bitmap in place is not supported")
			for i, f := range syncLogChecks {
				words(fmt.Sprint("syncLogChecks ", i), r, f, "assume_no_update_vnode_bitmap")
			}
		} else {
			assert.NotContains(t, strings.Join(sourceAt(t, r.Ref, fileMod), "\n"), "updating vnode bitmap in place", r.Name)
		}
		for i, p := range rescalePhases {
			if r.RescaleFails.Has(p) {
				words(fmt.Sprint("lpRescaleChecks ", i), r, lpRescaleChecks[i], "assume_no_update_vnode_bitmap")
			}
		}
		if r.RescaleFails == 0 {
			assert.NotContains(t, strings.Join(sourceAt(t, r.Ref, fileLP), "\n"), "assume_no_update_vnode_bitmap", r.Name)
		}
		// a release that cannot produce a message has no such text in the file that raises it
		if !r.EndFails {
			assert.NotContains(t, strings.Join(sourceAt(t, r.Ref, fileLP), "\n"), "upstream ended unexpectedly", r.Name)
		}
	}
	// the lines of a meta service that recovers a job with an empty backfill order (v2.7's)
	for _, r := range engine.Releases {
		if r.ResendsStart {
			continue
		}
		assert.Contains(t, strings.Join(sourceAt(t, r.Ref, fileMetaProgress)[recover27[0]-1:recover27[1]], "\n"), "BackfillState::ConsumingUpstream(Epoch(0), 0, 0)")
		assert.Contains(t, strings.Join(sourceAt(t, r.Ref, fileMetaProgress)[recover27[0]-1:recover27[1]], "\n"), "CreateType::Background")
		assert.Contains(t, strings.Join(sourceAt(t, r.Ref, fileMetaProgress)[isDone27[0]-1:isDone27[1]], "\n"), "self.done_count == self.states.len()")
		assert.Contains(t, strings.Join(sourceAt(t, r.Ref, fileMetaRPC)[recoverOrder27[0]-1:recoverOrder27[1]], "\n"), "Default::default(),")
	}
	// every citation lies inside its file
	for _, m := range Catalogue() {
		for _, c := range catalogueCites(m) {
			src := sourceAt(t, c.Ref, c.File)
			assert.LessOrEqual(t, c.Lines[1], len(src), "%s: %s:%d-%d at %s", m.ID, c.File, c.Lines[0], c.Lines[1], c.Ref)
			assert.LessOrEqual(t, 1, c.Lines[0], "%s: %s at %s", m.ID, c.File, c.Ref)
			assert.LessOrEqual(t, c.Lines[0], c.Lines[1])
		}
	}
}

// catalogueCites lists every citation of a message, in every release.
func catalogueCites(m *Message) []Cite {
	var cites []Cite
	for _, r := range ReleaseNames() {
		if f := m.Facts[r]; f != nil {
			cites = append(cites, f.Proven...)
		}
		if in := m.Instead[r]; in != nil {
			cites = append(cites, in.Proven...)
		}
	}
	return cites
}

// TestCitedFilesAreFetched: every file the catalogue or the anchors cite is one that
// `./build.sh sources` fetches (internal/rwsource/files.txt).
func TestCitedFilesAreFetched(t *testing.T) {
	files := rwsource.Files()
	for _, f := range []string{fileLP, fileMod, fileActor, fileExchangeErr, fileExchangeIn, fileExchangeOut, fileStreamError, fileExecError, fileActorMgr, fileMetaWorker, fileSyncLog, fileDispatchLog, filePanicHook, fileOrderControl, fileDistribution, fileMetaProgress, fileMetaRPC} {
		assert.Contains(t, files, f)
	}
	for _, m := range Catalogue() {
		for _, c := range catalogueCites(m) {
			assert.Contains(t, files, c.File, m.ID)
		}
	}
}
