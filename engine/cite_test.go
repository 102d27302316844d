package engine_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// pinnedCitations is, per narration site (engine/cite.go), what its sentence cites: the file
// and lines that do what it says, or "ours" (the explainer's own check or decision) or
// "outside" (RisingWave does it outside the cited files). Written out by hand, so that a
// change to a citation is a change to this table too.
var pinnedCitations = map[string]string{
	"start.error":                     "executor/mod.rs:1469-1473",
	"start.not-barrier":               "executor/mod.rs:1474-1476",
	"start.not-checkpoint":            "executor/mod.rs:1477-1481",
	"start.first-barrier":             "locality_provider.rs:440-444",
	"start.load":                      "locality_provider.rs:314-368",
	"start.buffer":                    "locality_provider.rs:462-467",
	"start.skip-buffering":            "locality_provider.rs:459-467",
	"start.forward":                   "locality_provider.rs:459-460",
	"fail.stream-closed":              "executor/mod.rs:1469-1473",
	"fail.first-error":                "executor/mod.rs:1469-1473",
	"fail.first-not-barrier":          "executor/mod.rs:1474-1476",
	"fail.first-not-checkpoint":       "executor/mod.rs:1477-1481",
	"fail.panic-abort":                "src/utils/runtime/src/panic_hook.rs:17-35",
	"buffering.chunk":                 "locality_provider.rs:479-482",
	"buffering.watermark":             "locality_provider.rs:476-478",
	"buffering.error":                 "locality_provider.rs:471-473",
	"buffering.end":                   "locality_provider.rs:471-472",
	"buffering.end-fails":             "locality_provider.rs:599-604",
	"buffering.rescale":               "locality_provider.rs:500-501",
	"buffering.commit":                "locality_provider.rs:500-509",
	"buffering.start":                 "locality_provider.rs:486-498",
	"buffering.other-fragment":        "locality_provider.rs:486-498",
	"buffering.mutation-ignored":      "locality_provider.rs:486-498",
	"fail.buffering-error":            "locality_provider.rs:471-473",
	"fail.buffering-rescale":          "locality_provider.rs:500-501",
	"fail.upstream-ended-buffering":   "locality_provider.rs:599-604",
	"backfill.open":                   "locality_provider.rs:568-571",
	"backfill.open-per-vnode":         "locality_provider.rs:226-265",
	"backfill.open-resume":            "locality_provider.rs:230-250",
	"backfill.chunk":                  "locality_provider.rs:592-595",
	"backfill.watermark":              "locality_provider.rs:596-598",
	"backfill.error":                  "locality_provider.rs:586-587",
	"backfill.end":                    "locality_provider.rs:599-604",
	"backfill.row":                    "locality_provider.rs:606-623",
	"backfill.row-full":               "locality_provider.rs:606-620",
	"backfill.rows-summary":           "locality_provider.rs:606-623",
	"backfill.builder-emitted":        "locality_provider.rs:405-425",
	"backfill.snapshot-end":           "locality_provider.rs:624-626",
	"backfill.end-drain":              "locality_provider.rs:627-638",
	"backfill.flush":                  "locality_provider.rs:640-645",
	"backfill.completing":             "locality_provider.rs:741-756",
	"backfill.snapshot-error":         "locality_provider.rs:253-262",
	"backfill.paused":                 "locality_provider.rs:577-606",
	"backfill.throttle":               "locality_provider.rs:553-566",
	"fail.backfill-error":             "locality_provider.rs:586-587",
	"fail.upstream-ended":             "locality_provider.rs:599-604",
	"fail.snapshot-error":             "locality_provider.rs:606",
	"barrier.drain":                   "locality_provider.rs:658-670",
	"barrier.drain-none":              "locality_provider.rs:658-670",
	"barrier.drain-late":              "locality_provider.rs:658-670",
	"barrier.gate":                    "locality_provider.rs:672-687",
	"barrier.gate-unwritten":          "locality_provider.rs:672-682",
	"barrier.mark":                    "locality_provider.rs:672-687",
	"barrier.mark-unwritten":          "locality_provider.rs:672-682",
	"barrier.mark-rows":               "locality_provider.rs:383-398",
	"barrier.rescale":                 "locality_provider.rs:689-690",
	"barrier.mutation-ignored":        "locality_provider.rs:689-690",
	"barrier.commit":                  "locality_provider.rs:689-693",
	"barrier.report":                  "locality_provider.rs:697-713",
	"barrier.persist":                 "locality_provider.rs:715-719",
	"barrier.emit":                    "locality_provider.rs:728",
	"barrier.refresh-check":           "locality_provider.rs:673",
	"barrier.refresh":                 "locality_provider.rs:730-735",
	"barrier.reuse":                   "locality_provider.rs:673",
	"fail.backfill-rescale":           "locality_provider.rs:689-690",
	"bug.no-state-write":              "locality_provider.rs:684-686",
	"bug.mark-before-drain":           "locality_provider.rs:658-682",
	"bug.mark-on-arrival":             "locality_provider.rs:672-682",
	"bug.emit-beyond-pos":             "locality_provider.rs:391-394",
	"bug.cause.no-state-write":        "locality_provider.rs:684-686",
	"bug.cause.mark-before-drain":     "locality_provider.rs:658-682",
	"bug.cause.mark-on-arrival":       "locality_provider.rs:672-682",
	"bug.cause.emit-beyond-pos":       "locality_provider.rs:391-394",
	"completion.chunk":                "locality_provider.rs:789-792",
	"completion.watermark":            "locality_provider.rs:793-796",
	"completion.swallow":              "locality_provider.rs:742-743",
	"completion.then-ends":            "locality_provider.rs:801-804",
	"completion.rescale":              "locality_provider.rs:745-746",
	"completion.mutation-ignored":     "locality_provider.rs:745-746",
	"completion.barrier":              "locality_provider.rs:748-756",
	"completion.never-started":        "locality_provider.rs:121-131",
	"completion.report":               "locality_provider.rs:758-778",
	"completion.persist":              "locality_provider.rs:780-784",
	"completion.emit":                 "locality_provider.rs:786-787",
	"forwarding.chunk":                "locality_provider.rs:828-831",
	"forwarding.watermark":            "locality_provider.rs:828-831",
	"forwarding.error":                "locality_provider.rs:803-804",
	"forwarding.end":                  "locality_provider.rs:801-804",
	"forwarding.rescale":              "locality_provider.rs:807-808",
	"forwarding.mutation-ignored":     "locality_provider.rs:807-808",
	"forwarding.barrier":              "locality_provider.rs:810-826",
	"forwarding.report":               "locality_provider.rs:817-825",
	"fail.completion-rescale":         "locality_provider.rs:745-746",
	"fail.forwarding-error":           "locality_provider.rs:803-804",
	"fail.forwarding-rescale":         "locality_provider.rs:807-808",
	"actor.exited":                    "actor.rs:305-318",
	"actor.stop":                      "actor.rs:316-318",
	"actor.stop-input-ends":           "merge.rs:360-365",
	"start.buffer-order":              "stream/stream_graph/fragment.rs:1395-1433",
	"start.initial":                   "barrier/rpc.rs:812-815",
	"recover.start-signal-again":      "barrier/rpc.rs:894-916",
	"recover.creating-job":            "controller/catalog/mod.rs:634-700",
	"recover.initial-job":             "controller/streaming_job.rs:1204-1226",
	"completion.truncate":             "barrier/progress.rs:156-179",
	"upstream.exchange-closed-local":  "exchange/input.rs:121-123",
	"upstream.exchange-closed-remote": "exchange/input.rs:303-309",
	"recover.rollback":                "outside",
	"recover.reload":                  "locality_provider.rs:314-368",
	"invariant.violated":              "ours",
	"downstream.inconsistent":         "ours",
	"script.adapted":                  "ours",
}

// citeOf renders a site's citation as the table writes it.
func citeOf(file string, lines [2]int, uncited string) string {
	if file == "" {
		return uncited
	}
	if m, ok := strings.CutPrefix(file, "src/meta/src/"); ok {
		return fmt.Sprintf("%s:%s", m, strings.TrimPrefix(citeOf("x", lines, ""), "x:"))
	}
	short := strings.TrimPrefix(file, "src/stream/src/")
	short = strings.TrimPrefix(short, "executor/")
	if short == "mod.rs" {
		short = "executor/mod.rs"
	}
	if lines[0] == lines[1] {
		return fmt.Sprintf("%s:%d", short, lines[0])
	}
	return fmt.Sprintf("%s:%d-%d", short, lines[0], lines[1])
}

// TestEveryNarrationSiteIsPinned: the engine's sites and the table above agree, one to one.
func TestEveryNarrationSiteIsPinned(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range engine.Sites() {
		assert.False(t, seen[s.ID], "site %s declared twice", s.ID)
		seen[s.ID] = true
		want, ok := pinnedCitations[s.ID]
		if s.File != "" && s.Lines == [2]int{} {
			continue // a site of the older releases only (release_cite_test.go pins it)
		}
		if assert.True(t, ok, "site %s is not pinned", s.ID) {
			assert.Equal(t, want, citeOf(s.File, s.Lines, s.Uncited), s.ID)
		}
		if s.File == "" {
			assert.Contains(t, []string{engine.UncitedOurs, engine.UncitedOutside}, s.Uncited, s.ID)
			assert.Equal(t, [2]int{}, s.Lines, s.ID)
		} else {
			assert.Empty(t, s.Uncited, s.ID)
			assert.LessOrEqual(t, s.Lines[0], s.Lines[1], s.ID)
		}
	}
	for id := range pinnedCitations {
		assert.True(t, seen[id], "pinned site %s does not exist", id)
	}
}

// coverageScenarios reach the narration sites no built-in reaches.
var coverageScenarios = map[string]string{
	"end first":                           "steps:\n  - end\n",
	"error first":                         "steps:\n  - error: boom\n",
	"not a checkpoint first":              "steps:\n  - barrier: {epoch: 1, checkpoint: false}\n",
	"error while buffering":               "steps:\n  - barrier: 1\n  - error: boom\n",
	"rescale while buffering":             "steps:\n  - barrier: 1\n  - barrier: {epoch: 2, rescale: true}\n",
	"local exchange closed":               "steps:\n  - barrier: 1\n  - error: exchange channel from local upstream actor 3 closed unexpectedly\n",
	"stop while buffering":                "steps:\n  - barrier: 1\n  - barrier: {epoch: 2, mutation: stop}\n",
	"other fragment and mutations":        "steps:\n  - barrier: {epoch: 1, mutation: pause}\n  - barrier: {epoch: 2, start_backfill: [8]}\n  - barrier: {epoch: 3, mutation: resume}\n",
	"watermark, error while backfilling":  "steps:\n  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - watermark: {column: a, value: 1}\n  - error: boom\n",
	"a long snapshot delivery":            "steps:\n  - barrier: 1\n  - chunk: [\"+ 1 1\", \"+ 2 2\", \"+ 3 3\", \"+ 4 4\", \"+ 5 5\", \"+ 6 6\", \"+ 7 7\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 8\n",
	"completion: rescale":                 "steps:\n  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: {epoch: 3, rescale: true}\n",
	"completion: mutation":                "steps:\n  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: {epoch: 3, mutation: pause}\n  - barrier: {epoch: 4, mutation: resume}\n  - error: boom\n",
	"forwarding: rescale":                 "steps:\n  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n  - barrier: {epoch: 4, rescale: true}\n",
	"started completed":                   "start:\n  state_table: [[1, 100]]\n  progress:\n    - {vnode: 0, pos: [1, 100], finished: true, rows: 1}\n    - {vnode: 1, pos: [null, null], finished: true, rows: 0}\nsteps:\n  - barrier: 5\n  - barrier: 6\n",
	"no state write, nothing in progress": "bug: no-state-write\nsteps:\n  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - chunk: [\"+ 2 101\"]\n  - barrier: 3\n",
	"emit beyond pos, then a delete":      "bug: emit-beyond-pos\nchunk_size: 2\nsteps:\n  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 2 101\", \"+ 3 102\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 2\n  - chunk: [\"- 3 102\"]\n  - barrier: 3\n",
}

// TestCitationsAreThePinnedOnes runs every built-in under every bug mode, and the coverage
// scenarios, and checks that every sentence said carries its site's pinned citation, with a
// link exactly when it cites lines. Every site must be said somewhere.
func TestCitationsAreThePinnedOnes(t *testing.T) {
	said := map[string]int{}
	byBuiltins := map[string]bool{}
	check := func(where string, s *session.Session) {
		for s.Timeline().Pos() < s.Steps() {
			require.NoError(t, s.Step(), where)
			for _, ef := range s.View().Explanations {
				require.NotEmpty(t, ef.Site, "%s: %q has no site", where, ef.Text)
				want, ok := pinnedCitations[ef.Site]
				require.True(t, ok, "%s: site %s is not pinned", where, ef.Site)
				assert.Equal(t, want, citeOf(ef.File, ef.Lines, ef.Uncited), "%s: %s: %q", where, ef.Site, ef.Text)
				if ef.File == "" {
					assert.Empty(t, ef.URL, "%s: %s", where, ef.Site)
				} else {
					assert.Equal(t, engine.FileURL(ef.File, ef.Lines), ef.URL, "%s: %s", where, ef.Site)
				}
				said[ef.Site]++
			}
		}
	}
	modes := []string{"none"}
	for _, b := range engine.Bugs {
		modes = append(modes, b.Name)
	}
	for _, name := range scenarios.BuiltinNames() {
		for _, mode := range modes {
			s, err := session.OpenBuiltin(name)
			require.NoError(t, err)
			require.NoError(t, s.SetBug(mode))
			check(name+" --bug "+mode, s)
		}
	}
	for id := range said {
		byBuiltins[id] = true
	}
	for name, steps := range coverageScenarios {
		s, err := session.Load(name+".yaml", []byte(header+steps))
		require.NoError(t, err, name)
		check(name, s)
	}
	var missing []string
	for _, s := range engine.Sites() {
		if said[s.ID] == 0 && s.Lines != [2]int{} || s.File == "" && said[s.ID] == 0 {
			missing = append(missing, s.ID)
		}
	}
	sort.Strings(missing)
	t.Logf("narration sites said: %d of %d by the built-ins (under every bug mode), %d of %d with the coverage scenarios",
		len(byBuiltins), len(engine.Sites()), len(engine.Sites())-len(missing), len(engine.Sites()))
	assert.Empty(t, missing, "sites never said")
}

// anchors are, per cited range, words that must appear inside it in RisingWave's source at
// SourceCommit: identifiers and keywords of what the sentence claims the lines do.
var anchors = map[string][]string{
	// executor/mod.rs
	"executor/mod.rs:676-681":   {"fn assume_no_update_vnode_bitmap", "updating vnode bitmap in place is not supported"},
	"executor/mod.rs:1466-1483": {"fn expect_first_barrier", "into_barrier", "assert!"},
	"executor/mod.rs:1469-1473": {"stream", ".next()", "failed to extract the first message: stream closed unexpectedly", "??"},
	"executor/mod.rs:1474-1476": {"into_barrier()", ".expect(", "the first message must be a barrier"},
	"executor/mod.rs:1477-1481": {"assert!", "BarrierKind::Checkpoint", "BarrierKind::Initial"},
	// locality_provider.rs: the source map
	"locality_provider.rs:40-150":               {"enum LocalityBackfillProgress", "NotStarted", "InProgress", "Completed", "fn update_progress", "fn finish_vnode"},
	"locality_provider.rs:121-131":              {"fn finish_vnode", "LocalityBackfillProgress::NotStarted", "vec![None; pk_len]", "LocalityBackfillProgress::Completed", "total_rows: 0"},
	"locality_provider.rs:220-266":              {"fn make_snapshot_stream", "iter_with_vnode", "yield (vnode, row)"},
	"locality_provider.rs:226-265":              {"for vnode in reader.vnodes().iter_vnodes()", ".iter_with_vnode(", "vnode,", "yield (vnode, row)"},
	"locality_provider.rs:230-250":              {"NotStarted => None", "continue", "Bound::Excluded"},
	"locality_provider.rs:253-262":              {"iter_with_vnode", "await?", "try_next().await?"},
	"locality_provider.rs:268-312":              {"fn persist_backfill_state", "NotStarted => continue", "progress_table.update", "progress_table.insert"},
	"locality_provider.rs:314-368":              {"fn load_backfill_state", "get_row", "is_finished", "NotStarted"},
	"locality_provider.rs:370-403":              {"fn mark_chunk", "compact_vis", "cmp_datum_iter", "is_le()"},
	"locality_provider.rs:383-398":              {"for row in data.rows()", "compute_vnode_by_pk(pk)", "Completed { .. } => true", "NotStarted => false", "cmp_datum_iter(pk.iter(), current_pos.iter()", "is_le()", "new_visibility.append(visible)"},
	"locality_provider.rs:391-394":              {"InProgress { current_pos, .. }", "cmp_datum_iter", "is_le()"},
	"locality_provider.rs:405-425":              {"fn handle_snapshot_chunk", "Op::Insert", "update_progress"},
	"locality_provider.rs:437-465":              {"expect_first_barrier", "yield Message::Barrier(first_barrier)", "load_backfill_state", "need_buffering"},
	"locality_provider.rs:439-440":              {"expect_first_barrier"},
	"locality_provider.rs:440-444":              {"expect_first_barrier", "yield Message::Barrier(first_barrier)"},
	"locality_provider.rs:459-460":              {"need_backfill = !backfill_state.is_completed()", "report_finished_on_first_barrier = !need_backfill"},
	"locality_provider.rs:459-467":              {"need_backfill", "need_buffering", "NotStarted", "if need_buffering"},
	"locality_provider.rs:462-467":              {"need_buffering", "NotStarted", "if need_buffering"},
	"locality_provider.rs:466-518":              {"need_buffering", "write_chunk", "StartFragmentBackfill", "yield Message::Barrier(barrier)", "break"},
	"locality_provider.rs:471-472":              {"for_await", "upstream.by_ref()"},
	"locality_provider.rs:471-473":              {"upstream.by_ref()", "msg?"},
	"locality_provider.rs:476-478":              {"Message::Watermark", "Ignore watermarks"},
	"locality_provider.rs:479-482":              {"Message::Chunk", "write_chunk"},
	"locality_provider.rs:486-498":              {"Mutation::StartFragmentBackfill", "fragment_ids.contains(&self.fragment_id)", "start_backfill = true"},
	"locality_provider.rs:500-501":              {"assume_no_update_vnode_bitmap"},
	"locality_provider.rs:500-509":              {"assume_no_update_vnode_bitmap", "state_table", "progress_table", "commit_assert_no_update_vnode_bitmap", "yield Message::Barrier(barrier)"},
	"locality_provider.rs:546-571":              {"if need_backfill", "create_builder", "make_snapshot_stream"},
	"locality_provider.rs:546-656":              {"if need_backfill", "'backfill_loop", "select(upstream_next, snapshot_next)"},
	"locality_provider.rs:553-566":              {"create_builder", "RateLimit::Disabled", "self.chunk_size"},
	"locality_provider.rs:568-571":              {"flushed_snapshot_reader()", "Self::make_snapshot_stream(snapshot_reader.clone(), backfill_state.clone())", "pin_mut!(snapshot_stream)"},
	"locality_provider.rs:577-586":              {"Prefer upstream", "select(upstream_next, snapshot_next)"},
	"locality_provider.rs:577-606":              {"Prefer upstream", "select(upstream_next, snapshot_next)", "FutureEither::Left", "Some(Message::Barrier(barrier))", "break barrier", "Some(Message::Chunk(chunk))", "Some(Message::Watermark(_))", "None =>", "FutureEither::Right"},
	"locality_provider.rs:586-587":              {"select(upstream_next, snapshot_next)", "FutureEither::Left", "msg.transpose()?"},
	"locality_provider.rs:592-595":              {"Message::Chunk", "upstream_chunk_buffer.push", "compact_vis"},
	"locality_provider.rs:596-598":              {"Message::Watermark", "Ignore watermark"},
	"locality_provider.rs:599-604":              {"None =>", "locality provider upstream ended unexpectedly during backfill"},
	"locality_provider.rs:606":                  {"FutureEither::Right", "msg.transpose()?"},
	"locality_provider.rs:606-620":              {"FutureEither::Right", "append_one_row", "handle_snapshot_chunk", "yield Message::Chunk(chunk)"},
	"locality_provider.rs:606-623":              {"FutureEither::Right", "append_one_row", "handle_snapshot_chunk"},
	"locality_provider.rs:624-626":              {"None =>", "End of the snapshot read stream"},
	"locality_provider.rs:627-638":              {"for (vnode, builder) in &mut builders", "consume_all", "handle_snapshot_chunk", "yield Message::Chunk(chunk)"},
	"locality_provider.rs:640-645":              {"upstream_chunk_buffer.drain(..)", "yield Message::Chunk(chunk)"},
	"locality_provider.rs:657-735":              {"consume_all", "mark_chunk", "write_chunk", "persist_backfill_state", "yield Message::Barrier(barrier)", "make_snapshot_stream"},
	"locality_provider.rs:658-670":              {"Consume remaining rows from builders at barrier", "consume_all", "handle_snapshot_chunk"},
	"locality_provider.rs:658-682":              {"consume_all", "has_progress", "mark_chunk"},
	"locality_provider.rs:658-687":              {"consume_all", "mark_chunk", "write_chunk"},
	"locality_provider.rs:658-690":              {"consume_all", "mark_chunk", "write_chunk", "assume_no_update_vnode_bitmap"},
	"locality_provider.rs:672-682":              {"should_refresh_snapshot", "has_progress", "mark_chunk", "yield Message::Chunk(marked_chunk)"},
	"locality_provider.rs:673":                  {"let should_refresh_snapshot = !upstream_chunk_buffer.is_empty()"},
	"locality_provider.rs:672-687":              {"should_refresh_snapshot", "has_progress", "mark_chunk", "write_chunk"},
	"locality_provider.rs:684-686":              {"Persist buffered upstream chunk into state table", "write_chunk"},
	"locality_provider.rs:689-690":              {"assume_no_update_vnode_bitmap"},
	"locality_provider.rs:689-693":              {"assume_no_update_vnode_bitmap", "state_table", "commit_assert_no_update_vnode_bitmap"},
	"locality_provider.rs:689-719":              {"state_table", "commit_assert_no_update_vnode_bitmap", "persist_backfill_state", "progress_table"},
	"locality_provider.rs:697-713":              {"processed_rows", ".sum()", "update_with_buffered_rows"},
	"locality_provider.rs:715-719":              {"persist_backfill_state", "progress_table", "commit_assert_no_update_vnode_bitmap"},
	"locality_provider.rs:728":                  {"yield Message::Barrier(barrier)"},
	"locality_provider.rs:730-735":              {"if should_refresh_snapshot", "make_snapshot_stream"},
	"locality_provider.rs:741-756":              {"need_backfill && !backfill_state.is_completed()", "Message::Barrier", "finish_vnode"},
	"locality_provider.rs:741-799":              {"while let Some(Ok(msg))", "finish_vnode", "finish_with_buffered_rows", "persist_backfill_state"},
	"locality_provider.rs:742-743":              {"while let Some(Ok(msg))"},
	"locality_provider.rs:743":                  {"while let Some(Ok(msg))"},
	"locality_provider.rs:745-746":              {"Message::Barrier", "assume_no_update_vnode_bitmap"},
	"locality_provider.rs:748-756":              {"commit_assert_no_update_vnode_bitmap", "finish_vnode"},
	"locality_provider.rs:758-778":              {"total_rows", ".sum()", "finish_with_buffered_rows"},
	"locality_provider.rs:780-784":              {"persist_backfill_state", "progress_table", "commit_assert_no_update_vnode_bitmap"},
	"locality_provider.rs:786-787":              {"yield Message::Barrier(barrier)", "break"},
	"locality_provider.rs:789-792":              {"Message::Chunk", "yield Message::Chunk(chunk)"},
	"locality_provider.rs:793-796":              {"Message::Watermark", "yield Message::Watermark(watermark)"},
	"locality_provider.rs:801-804":              {"for msg in upstream", "msg?"},
	"stream/stream_graph/fragment.rs:1395-1433": {"2. Add dependencies: all backfill fragments should run before LocalityProvider fragments", "This ensures backfill completes before any LocalityProvider starts", ".extend(locality_provider_root_fragments", "3. Add LocalityProvider internal dependencies", ".extend(downstream_fragments)"},
	"barrier/rpc.rs:812-815":                    {"let barrier_info = BarrierInfo", "kind: BarrierKind::Initial"},
	"controller/streaming_job.rs:1204-1226":     {"fn post_collect_job_fragments", "Mark job as CREATING", "JobStatus::Creating"},
	"controller/catalog/mod.rs:634-700":         {"fn clean_dirty_creating_jobs", "clean_all_foreground_jobs_on_recovery", "JobStatus::Creating", "contains_non_recoverable_fragment()"},
	"barrier/rpc.rs:894-916":                    {"extend_fragment_backfill_ordering_with_locality_backfill", "BackfillOrderState::recover_from_fragment_infos", "CreateMviewProgressTracker::recover"},
	"barrier/progress.rs:156-179":               {"BackfillState::Done", "finish_actor(actor)", "truncate_locality_provider_state_tables"},
	"exchange/input.rs:303-309":                 {"ExchangeChannelClosed::remote_input(up_down_ids.0, Some(e))", "Always emit an error outside the loop", "ExchangeChannelClosed::remote_input(up_down_ids.0, None)"},
	"exchange/input.rs:121-123":                 {"Always emit an error outside the loop", "ExchangeChannelClosed::local_input(upstream_actor_id)"},
	"merge.rs:360-365":                          {"let is_stop = barrier.is_stop(actor_id)", "yield msg;", "break;"},
	"merge.rs:287-288":                          {"#[try_stream(ok = Message, error = StreamExecutorError)]", "async fn execute_inner("},
	"actor.rs:305-318":                          {"Ok(None) => break Err(anyhow!(\"actor exited unexpectedly\")", "barrier.is_stop(id)"},
	"actor.rs:316-318":                          {"if barrier.is_stop(id)", "break Ok(barrier);"},
	"src/utils/runtime/src/panic_hook.rs:17-35": {"std::panic::update_hook", "default_hook(info)", "if !risingwave_common::util::panic::is_catching_unwind()", "std::process::abort()"},
	"locality_provider.rs:801-833":              {"for msg in upstream", "assume_no_update_vnode_bitmap", "yield msg"},
	"locality_provider.rs:803-804":              {"for msg in upstream", "msg?"},
	"locality_provider.rs:807-808":              {"Message::Barrier", "assume_no_update_vnode_bitmap"},
	"locality_provider.rs:810-826":              {"state_table", "progress_table", "commit_assert_no_update_vnode_bitmap", "yield Message::Barrier(barrier)"},
	"locality_provider.rs:817-825":              {"if report_finished_on_first_barrier", "finish_with_buffered_rows", "report_finished_on_first_barrier = false"},
	"locality_provider.rs:828-831":              {"yield msg"},
}

// citedRanges lists every range the engine cites: its narration sites, the failure table,
// the bug modes and the exported line ranges.
func citedRanges() map[string]bool {
	r := map[string]bool{}
	add := func(file string, lines [2]int) { r[citeOf(file, lines, "")] = true }
	for _, s := range engine.Sites() {
		if s.File != "" && s.Lines != [2]int{} {
			add(s.File, s.Lines)
		}
	}
	for _, f := range failure.Failures {
		for _, c := range f.Proven {
			add(c.File, c.Lines)
		}
		for _, c := range f.ProvenIn {
			add(c.File, c.Lines)
		}
	}
	for _, b := range engine.Bugs {
		add(engine.FileLocalityProvider, b.Lines)
	}
	for _, l := range [][2]int{engine.LinesProgressStates, engine.LinesSnapshotStream, engine.LinesPersist, engine.LinesLoad,
		engine.LinesMarking, engine.LinesSnapshotChunk, engine.LinesFirstBarrier, engine.LinesBuffering, engine.LinesBackfillLoop,
		engine.LinesFatalEnd, engine.LinesBackfillBarrier, engine.LinesMarkWhen, engine.LinesCompletion, engine.LinesForwarding} {
		add(engine.FileLocalityProvider, l)
	}
	for _, l := range [][2]int{failure.LinesModExpectFirstBarrier, failure.LinesModStreamClosed, failure.LinesModExpectBarrier,
		failure.LinesModAssertCheckpoint, failure.LinesModNoUpdateBitmap} {
		add(engine.FileExecutorMod, l)
	}
	add(engine.FileActor, engine.LinesActorLoop)
	add(engine.FileActor, engine.LinesActorStop)
	return r
}

// metaFiles are the meta service's files the narration cites.
var metaFiles = []string{engine.FileMetaRPC, engine.FileMetaProgress, engine.FileMetaFragment, engine.FileMetaCatalog, engine.FileMetaStreamingJob}

// TestEveryCitedRangeHasAnchors: no citation escapes the anchor check below, and no anchor
// entry is left over from a range nothing cites any more.
func TestEveryCitedRangeHasAnchors(t *testing.T) {
	cited := citedRanges()
	for r := range cited {
		assert.NotEmpty(t, anchors[r], "cited range %s has no anchor words", r)
	}
	for r := range anchors {
		assert.True(t, cited[r], "anchor entry %s: nothing cites this range", r)
	}
}

// source reads a RisingWave file at SourceCommit (release_cite_test.go: from RISINGWAVE_GIT or
// RISINGWAVE_SRC; the test skips, saying how to enable it, when neither has it).
func source(t *testing.T, file string) []string {
	t.Helper()
	return releaseSource(t, engine.SourceCommit, file)
}

// TestCitedRangesHoldWhatTheyClaim: every cited range of RisingWave's source contains its anchor
// words (when the source is on this machine).
func TestCitedRangesHoldWhatTheyClaim(t *testing.T) {
	files := map[string][]string{
		"locality_provider.rs": source(t, engine.FileLocalityProvider),
		"executor/mod.rs":      source(t, engine.FileExecutorMod),
		"actor.rs":             source(t, engine.FileActor),
		"merge.rs":             source(t, engine.FileMerge),
		"exchange/input.rs":    source(t, engine.FileExchangeInput),
		citeOf(engine.FilePanicHook, [2]int{1, 1}, "")[:len(citeOf(engine.FilePanicHook, [2]int{1, 1}, ""))-2]: source(t, engine.FilePanicHook),
	}
	for _, f := range metaFiles {
		files[citeOf(f, [2]int{1, 1}, "")[:len(citeOf(f, [2]int{1, 1}, ""))-2]] = source(t, f)
	}
	for r, words := range anchors {
		file, span, _ := strings.Cut(r, ":")
		var a, b int
		if _, err := fmt.Sscanf(span, "%d-%d", &a, &b); err != nil {
			_, err = fmt.Sscanf(span, "%d", &a)
			require.NoError(t, err, r)
			b = a
		}
		lines := files[file]
		require.NotNil(t, lines, r)
		require.LessOrEqual(t, b, len(lines), r)
		text := strings.Join(lines[a-1:b], "\n")
		for _, w := range words {
			assert.Contains(t, text, w, "%s should contain %q", r, w)
		}
	}
}
