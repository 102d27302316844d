package diagnose

import (
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/internal/rwsource"
	"github.com/stretchr/testify/assert"
)

// sourceAt reads a RisingWave file at a ref (internal/rwsource: RISINGWAVE_GIT or
// RISINGWAVE_SRC); without either the source checks are skipped, saying how to enable them.
func sourceAt(t *testing.T, ref, file string) []string {
	t.Helper()
	return rwsource.Lines(t, ref, file)
}

// TestCitedLinesHoldTheirAnchors: every range of files.go, at every release, holds its anchor
// words; every citation of the catalogue lies inside its file.
func TestCitedLinesHoldTheirAnchors(t *testing.T) {
	type anchor struct {
		file  string
		l     lines
		words []string
		old   bool // used for v2.7 to v3.0 only (the v3.1 code differs)
	}
	anchors := map[string]anchor{
		"lpFirstBarrier":   {fileLP, lpFirstBarrier, []string{"expect_first_barrier(&mut upstream)"}, false},
		"modStreamClosed":  {fileMod, modStreamClosed, []string{"failed to extract the first message: stream closed unexpectedly", "??"}, false},
		"modNotBarrier":    {fileMod, modNotBarrier, []string{"the first message must be a barrier"}, false},
		"modNotCheckpoint": {fileMod, modNotCheckpoint, []string{"assert!(matches!(", "BarrierKind::Checkpoint | BarrierKind::Initial"}, false},
		"actorExited":      {fileActor, actorExited, []string{"actor exited unexpectedly", "is_stop(id)", "break Ok(barrier)"}, false},
		"actorExitLog":     {fileActorMgr, actorExitLog, []string{"actor exit with error"}, false},
		"lpBufferingLoop":  {fileLP, lpBufferingLoop, []string{"for msg in upstream.by_ref()", "msg?"}, false},
		"lpBackfillLeft":   {fileLP, lpBackfillLeft, []string{"Either::Left(", "msg", "?"}, false},
		"lpSelect":         {fileLP, lpSelect, []string{"select_with_strategy", "PollNext::Left"}, true},
		"lpSnapshotEnd":    {fileLP, lpSnapshotEnd, []string{"End of the snapshot read stream", "consume_all", "upstream_chunk_buffer.drain(..)", "break 'backfill_loop"}, false},
		"lpCompletionLoop": {fileLP, lpCompletionLoop, []string{"while let Some(Ok(msg)) = upstream.next().await"}, false},
		"lpForwardingLoop": {fileLP, lpForwardingLoop, []string{"for msg in upstream {", "msg?"}, false},
		"lpSnapshotRead":   {fileLP, lpSnapshotRead, []string{"iter_with_vnode", "?"}, false},
		"lpSnapshotItem":   {fileLP, lpSnapshotItem, []string{"msg", "?"}, false},
		"lpBufferCommit":   {fileLP, lpBufferCommit, []string{"state_table.commit(epoch)", "post_yield_barrier"}, true},
		"lpBackfillCommit": {fileLP, lpBackfillCommit, []string{"state_table.commit(barrier.epoch)"}, true},
		"exchangeLocal":    {fileExchangeErr, exchangeLocal, []string{"exchange channel from local upstream actor {upstream} closed unexpectedly"}, false},
		"exchangeRemote":   {fileExchangeErr, exchangeRemote, []string{"exchange channel from remote upstream actor {upstream} closed unexpectedly"}, false},
		"exchangeDown":     {fileExchangeErr, exchangeDown, []string{"exchange channel to downstream actor {downstream} closed unexpectedly"}, false},
		"inputLocalRaise":  {fileExchangeIn, inputLocalRaise, []string{"ExchangeChannelClosed::local_input"}, false},
		"inputRemoteRaise": {fileExchangeIn, inputRemoteRaise, []string{"remote_input(up_down_ids.0, Some(e))", "remote_input(up_down_ids.0, None)"}, false},
		"outputRaise":      {fileExchangeOut, outputRaise, []string{"ExchangeChannelClosed::output"}, false},
		"scoreExchange":    {fileStreamError, scoreExchange, []string{"not the root cause", "ExchangeChannelClosed(_) => 1"}, false},
		"storageErrorText": {fileExecError, storageErrorText, []string{"Storage error: {0}"}, false},
		"metaRecovery":     {fileMetaWorker, metaRecovery, []string{"\"database entering recovery\""}, false},
		"panicHook":        {filePanicHook, panicHook, []string{"std::panic::update_hook", "is_catching_unwind()", "std::process::abort()"}, false},
		"orderNotFound":    {fileOrderControl, orderNotFound, []string{"let Some(fragment_id) = self.actor_to_fragment_id.get(&actor_id) else", "\"fragment not found for actor\"", "return vec![];"}, false},
		"vnodeCheck":       {fileDistribution, vnodeCheck, []string{"fn check_vnode_is_set(", "should not be accessed by this table", "panic!("}, false},
		"vnodeChunkCheck":  {fileDistribution, vnodeChunkCheck, []string{"if vis {", "check_vnode_is_set(vnode, vnodes)"}, false},
		"metaNodeFailure":  {fileMetaWorker, metaNodeFailure, []string{"\"database entering recovery on node failure\""}, false},
	}
	for name, a := range anchors {
		for i, r := range Releases {
			if a.old && r.Name == "v3.1" {
				continue
			}
			src := sourceAt(t, r.Ref, a.file)
			l := a.l[i]
			if !assert.LessOrEqual(t, l[1], len(src), "%s at %s: past the end", name, r.Name) {
				continue
			}
			text := strings.Join(src[l[0]-1:l[1]], "\n")
			for _, w := range a.words {
				assert.Contains(t, text, w, "%s at %s (%s:%d-%d)", name, r.Name, a.file, l[0], l[1])
			}
		}
	}
	v31 := Releases[index("v3.1")].Ref
	v30 := Releases[index("v3.0")].Ref
	assert.Contains(t, strings.Join(sourceAt(t, v31, fileMod)[modNoUpdate31[0]-1:modNoUpdate31[1]], "\n"), "updating vnode bitmap in place is not supported")
	assert.Contains(t, strings.Join(sourceAt(t, v30, fileMod)[modNoUpdate30[0]-1:modNoUpdate30[1]], "\n"), "updating vnode bitmap in place is not supported")
	for i, l := range lpRescaleChecks {
		assert.Contains(t, strings.Join(sourceAt(t, v31, fileLP)[l[0]-1:l[1]], "\n"), "assume_no_update_vnode_bitmap", "check %d", i)
	}
	assert.Contains(t, sourceAt(t, v30, fileDispatchLog)[syncLogChecks30[0]-1], "assume_no_update_vnode_bitmap")
	for _, n := range syncLogChecks30[1:] {
		assert.Contains(t, sourceAt(t, v30, fileSyncLog)[n-1], "assume_no_update_vnode_bitmap")
	}
	assert.NotContains(t, strings.Join(sourceAt(t, v30, fileLP), "\n"), "assume_no_update_vnode_bitmap")
	// the releases that cannot produce a message have no such text in the file that raises it at v3.1
	for _, r := range []string{"v2.7", "v2.8", "v3.0"} {
		assert.NotContains(t, strings.Join(sourceAt(t, Releases[index(r)].Ref, fileLP), "\n"), "upstream ended unexpectedly", r)
	}
	for _, r := range []string{"v2.7", "v2.8"} {
		assert.NotContains(t, strings.Join(sourceAt(t, Releases[index(r)].Ref, fileMod), "\n"), "updating vnode bitmap in place", r)
	}
	v27 := Releases[index("v2.7")].Ref
	assert.Contains(t, strings.Join(sourceAt(t, v27, fileMetaProgress)[recover27[0]-1:recover27[1]], "\n"), "BackfillState::ConsumingUpstream(Epoch(0), 0, 0)")
	assert.Contains(t, strings.Join(sourceAt(t, v27, fileMetaProgress)[recover27[0]-1:recover27[1]], "\n"), "CreateType::Background")
	assert.Contains(t, strings.Join(sourceAt(t, v27, fileMetaProgress)[isDone27[0]-1:isDone27[1]], "\n"), "self.done_count == self.states.len()")
	assert.Contains(t, strings.Join(sourceAt(t, v27, fileMetaRPC)[recoverOrder27[0]-1:recoverOrder27[1]], "\n"), "Default::default(),")
	// every citation lies inside its file
	for _, m := range Catalogue {
		var cites []Cite
		for i := range Releases {
			if f := m.Facts[i]; f != nil {
				cites = append(cites, f.Proven...)
			}
			if in := m.Instead[i]; in != nil {
				cites = append(cites, in.Proven...)
			}
		}
		for _, c := range cites {
			src := sourceAt(t, c.Ref, c.File)
			assert.LessOrEqual(t, c.Lines[1], len(src), "%s: %s:%d-%d at %s", m.ID, c.File, c.Lines[0], c.Lines[1], c.Ref)
			assert.LessOrEqual(t, c.Lines[0], c.Lines[1])
		}
	}
}

// TestCitedFilesAreFetched: every file the catalogue or the anchors cite is one that
// `./build.sh sources` fetches (internal/rwsource/files.txt).
func TestCitedFilesAreFetched(t *testing.T) {
	files := rwsource.Files()
	for _, f := range []string{fileLP, fileMod, fileActor, fileExchangeErr, fileExchangeIn, fileExchangeOut, fileStreamError, fileExecError, fileActorMgr, fileMetaWorker, fileSyncLog, fileDispatchLog, filePanicHook, fileOrderControl, fileDistribution, fileMetaProgress, fileMetaRPC} {
		assert.Contains(t, files, f)
	}
	for _, m := range Catalogue {
		for i := range Releases {
			var cites []Cite
			if f := m.Facts[i]; f != nil {
				cites = append(cites, f.Proven...)
			}
			if in := m.Instead[i]; in != nil {
				cites = append(cites, in.Proven...)
			}
			for _, c := range cites {
				assert.Contains(t, files, c.File, m.ID)
			}
		}
	}
}
