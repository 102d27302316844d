package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
	"github.com/backfill-explainer/explainer/internal/rwsource"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// releaseSource reads a RisingWave file at a git ref (internal/rwsource: RISINGWAVE_GIT or
// RISINGWAVE_SRC); the test skips, saying how to enable it, when neither has the file.
func releaseSource(t *testing.T, ref, file string) []string {
	t.Helper()
	return rwsource.Lines(t, ref, file)
}

// anchorsBefore31 replaces, for v2.7–v3.0, the anchor words of a range (keyed as at SourceCommit)
// whose code reads differently there; the other ranges keep their anchors.
var anchorsBefore31 = map[string][]string{
	"locality_provider.rs:220-266":          {"fn make_snapshot_stream", "iter_with_vnode", "yield Some((vnode, row))", "yield None"},
	"locality_provider.rs:226-265":          {"for vnode in state_table.vnodes().iter_vnodes()", ".iter_with_vnode(", "vnode,", "yield Some((vnode, row))"},
	"locality_provider.rs:500-509":          {"state_table.commit(epoch)", "progress_table.commit(epoch)", "yield Message::Barrier(barrier)", "post_yield_barrier(None)"},
	"locality_provider.rs:546-571":          {"if need_backfill", "create_builder", "make_snapshot_stream"},
	"locality_provider.rs:546-656":          {"if need_backfill", "'backfill_loop", "select_with_strategy"},
	"locality_provider.rs:568-571":          {"Self::make_snapshot_stream(&state_table, backfill_state.clone(),)", "pin!("},
	"locality_provider.rs:577-586":          {"select_with_strategy", "PollNext::Left", "Prefer to select upstream"},
	"locality_provider.rs:577-606":          {"Prefer to select upstream", "select_with_strategy", "PollNext::Left", "for either in &mut backfill_stream", "Either::Left(msg)", "Message::Barrier(barrier)", "pending_barrier = Some(barrier)", "Message::Chunk(chunk)", "Message::Watermark(_)", "Either::Right(msg)"},
	"locality_provider.rs:586-587":          {"Either::Left(msg)", "msg?"},
	"locality_provider.rs:606":              {"Either::Right(msg)", "msg?"},
	"locality_provider.rs:606-620":          {"Some((vnode, row))", "append_one_row", "handle_snapshot_chunk", "yield Message::Chunk(chunk)"},
	"locality_provider.rs:606-623":          {"Some((vnode, row))", "append_one_row", "handle_snapshot_chunk"},
	"locality_provider.rs:624-626":          {"None =>", "End of the snapshot read stream"},
	"locality_provider.rs:657-735":          {"consume_all", "mark_chunk", "write_chunk", "persist_backfill_state", "yield Message::Barrier(barrier)"},
	"locality_provider.rs:658-670":          {"Consume remaining rows from builders at barrier", "consume_all", "handle_snapshot_chunk"},
	"locality_provider.rs:672-682":          {"has_progress", "mark_chunk", "yield Message::Chunk(marked_chunk)"},
	"locality_provider.rs:672-687":          {"has_progress", "mark_chunk", "write_chunk"},
	"locality_provider.rs:689-693":          {"state_table.commit(barrier.epoch)"},
	"locality_provider.rs:689-719":          {"state_table.commit(barrier.epoch)", "persist_backfill_state", "progress_table.commit(barrier_epoch)"},
	"locality_provider.rs:715-719":          {"persist_backfill_state", "progress_table.commit(barrier_epoch)"},
	"locality_provider.rs:741-799":          {"while let Some(Ok(msg))", "finish_vnode", "finish_with_buffered_rows", "persist_backfill_state"},
	"locality_provider.rs:780-784":          {"persist_backfill_state", "progress_table.commit(barrier.epoch)"},
	"locality_provider.rs:786-787":          {"yield Message::Barrier(barrier)", "break"},
	"locality_provider.rs:801-833":          {"for msg in upstream", "commit_assert_no_update_vnode_bitmap", "yield msg"},
	"locality_provider.rs:810-826":          {"state_table", "progress_table", "commit_assert_no_update_vnode_bitmap", "yield Message::Barrier(barrier)"},
	"exchange/input.rs:307-309":             {"Always emit an error outside the loop", "ExchangeChannelClosed::remote_input(up_down_ids.0, None)"},
	"controller/streaming_job.rs:1204-1226": {"fn post_collect_job_fragments", "Mark job as CREATING", "JobStatus::Creating"},
	"controller/catalog/mod.rs:634-700":     {"fn clean_dirty_creating_jobs", "JobStatus::Initial", "JobStatus::Creating", "CreateType::Foreground"},
	// the sites only these releases say
	"site:buffering.rescale-ignored":   {"state_table.commit(epoch)", "yield Message::Barrier(barrier)", "post_commit1.post_yield_barrier(None)"},
	"site:buffering.end-silent":        {"select_with_strategy", "PollNext::Left"},
	"site:backfill.end-silent":         {"select_with_strategy", "PollNext::Left"},
	"site:backfill.row-ended":          {"Prefer to select upstream", "select_with_strategy", "PollNext::Left"},
	"site:backfill.open-as-written":    {"make_snapshot_stream(&state_table"},
	"site:barrier.rebuild":             {"'backfill_loop: loop", "make_snapshot_stream(&state_table"},
	"site:barrier.rescale-ignored":     {"yield Message::Barrier(barrier)", "post_commit1.post_yield_barrier(None)"},
	"site:barrier.mutation-ignored":    {"yield Message::Barrier(barrier)", "post_commit1.post_yield_barrier(None)"},
	"site:completion.rescale-ignored":  {"Message::Barrier(barrier)", "commit_assert_no_update_vnode_bitmap"},
	"site:completion.mutation-ignored": {"Message::Barrier(barrier)", "commit_assert_no_update_vnode_bitmap"},
	"site:forwarding.rescale-ignored":  {"Message::Barrier(barrier)", "commit_assert_no_update_vnode_bitmap"},
	"site:forwarding.mutation-ignored": {"Message::Barrier(barrier)", "commit_assert_no_update_vnode_bitmap"},
	"site:buffering.report":            {"update_with_buffered_rows", "buffered_rows"},
	"site:recover.no-start-signal":     {"CreateMviewProgressTracker::recover(", "Default::default(),"},
	"site:completion.no-truncate":      {"CreateMviewProgressTracker::recover(", "Default::default(),"},
	"site:recover.never-done":          {"pub fn recover(", "let create_type = CreateType::Background;", "tracking_progress_actor_ids", "BackfillState::ConsumingUpstream(Epoch(0), 0, 0)"},
}

// only27 are the sites only v2.7 says (its progress reports while buffering, its meta service's
// recovery of a creating job with an empty backfill order).
var only27 = map[string]bool{"buffering.report": true, "recover.no-start-signal": true, "completion.no-truncate": true, "recover.never-done": true}

// shortOf names a file as the line tables key it.
func shortOf(file string) string {
	c := citeOf(file, [2]int{1, 1}, "")
	return c[:len(c)-len(":1")]
}

// anchors27 replaces anchors further for v2.7, whose progress reports differ.
var anchors27 = map[string][]string{
	"locality_provider.rs:459-460": {"need_backfill = !backfill_state.is_completed()"},
	"locality_provider.rs:697-713": {"processed_rows", ".sum()", "update_with_buffered_rows", "buffered_rows,"},
	"locality_provider.rs:758-778": {"total_rows", ".sum()", "finish_with_buffered_rows", "buffered_rows,"},
}

// oldSites are the sites only v2.7–v3.0 say.
func oldSites() []*engine.Site {
	var out []*engine.Site
	for _, s := range engine.Sites() {
		if s.File != "" && s.Lines == [2]int{} {
			out = append(out, s)
		}
	}
	return out
}

// TestReleaseCitedRangesHoldWhatTheyClaim: in every release, every cited range that the release
// has (moved to its own lines) holds its anchor words in that release's own file, read at its ref.
func TestReleaseCitedRangesHoldWhatTheyClaim(t *testing.T) {
	for _, r := range engine.Releases {
		if r.AtSource {
			continue // TestCitedRangesHoldWhatTheyClaim
		}
		t.Run(r.Name, func(t *testing.T) {
			files := map[string][]string{}
			for short, file := range map[string]string{"locality_provider.rs": engine.FileLocalityProvider, "executor/mod.rs": engine.FileExecutorMod,
				"actor.rs": engine.FileActor, "merge.rs": engine.FileMerge, "exchange/input.rs": engine.FileExchangeInput} {
				files[short] = releaseSource(t, r.Ref, file)
			}
			files[engine.FilePanicHook] = releaseSource(t, r.Ref, engine.FilePanicHook)
			for _, f := range metaFiles {
				files[shortOf(f)] = releaseSource(t, r.Ref, f)
			}
			check := func(key, file string, lines [2]int, words []string) {
				src := files[file]
				require.NotNil(t, src, key)
				require.LessOrEqual(t, lines[1], len(src), key)
				text := strings.Join(src[lines[0]-1:lines[1]], "\n")
				for _, w := range words {
					assert.Contains(t, text, w, "%s %s (at %s:%d-%d) should contain %q", r.Name, key, file, lines[0], lines[1], w)
				}
			}
			ranges := citedRanges()
			ranges["exchange/input.rs:307-309"] = true // (moved inside a citation's text)
			checked := 0
			for key := range ranges {
				file, span, _ := strings.Cut(key, ":")
				var a, b int
				if _, err := fmt.Sscanf(span, "%d-%d", &a, &b); err != nil {
					_, err = fmt.Sscanf(span, "%d", &a)
					require.NoError(t, err, key)
					b = a
				}
				full := map[string]string{"locality_provider.rs": engine.FileLocalityProvider, "executor/mod.rs": engine.FileExecutorMod,
					"actor.rs": engine.FileActor, "merge.rs": engine.FileMerge, "exchange/input.rs": engine.FileExchangeInput}[file]
				for _, f := range metaFiles {
					if shortOf(f) == file {
						full = f
					}
				}
				if file == engine.FilePanicHook {
					full = file
				}
				l, ok := r.At(full, [2]int{a, b})
				if !ok {
					continue // code this release does not have
				}
				words := anchors[key]
				if w, ok := anchorsBefore31[key]; ok {
					words = w
				}
				if w, ok := anchors27[key]; ok && r.Name == "v2.7" {
					words = w
				}
				check(key, file, l, words)
				checked++
			}
			for _, s := range oldSites() {
				l, ok := r.SiteLines(s)
				if only27[s.ID] && r != engine.ReleaseV27 {
					require.False(t, ok, "%s does not say %s", r.Name, s.ID)
					continue
				}
				require.True(t, ok, "%s has no lines for %s", r.Name, s.ID)
				check("site:"+s.ID, shortOf(s.File), l, anchorsBefore31["site:"+s.ID])
				checked++
			}
			for _, id := range []string{"barrier.mutation-ignored", "completion.mutation-ignored", "forwarding.mutation-ignored"} {
				for _, s := range engine.Sites() {
					if s.ID == id {
						l, ok := r.SiteLines(s)
						require.True(t, ok)
						check("site:"+id, "locality_provider.rs", l, anchorsBefore31["site:"+id])
					}
				}
			}
			t.Logf("%s: %d cited ranges checked against its own file at %s", r.Name, checked, r.Ref)
		})
	}
}

// TestEveryReleaseCitesItsOwnLines runs every built-in and the coverage scenarios under every
// release: no step errs, and every sentence cites the lines its site has in that release, linked
// at the release's own ref.
func TestEveryReleaseCitesItsOwnLines(t *testing.T) {
	for _, r := range engine.Releases {
		said := map[string]bool{}
		run := func(where string, s *session.Session) {
			require.NoError(t, s.SetRelease(r.Name), where)
			for s.Timeline().Pos() < s.Steps() {
				require.NoError(t, s.Step(), "%s under %s", where, r.Name)
				for _, ef := range s.View().Explanations {
					said[ef.Site] = true
					if ef.File == "" {
						continue
					}
					assert.NotZero(t, ef.Lines, "%s %s: %s has no lines in this release", where, r.Name, ef.Site)
					assert.Contains(t, ef.URL, "/blob/"+r.Ref+"/", "%s %s: %s", where, r.Name, ef.Site)
				}
			}
		}
		for _, name := range scenarios.BuiltinNames() {
			s, err := session.OpenBuiltin(name)
			require.NoError(t, err)
			run(name, s)
		}
		for name, steps := range coverageScenarios {
			s, err := session.Load(name+".yaml", []byte(header+steps))
			require.NoError(t, err, name)
			run(name, s)
		}
		n := 0
		for _, s := range engine.Sites() {
			if _, ok := r.SiteLines(s); ok && s.File != "" {
				n++
			}
		}
		t.Logf("%s: %d narration sites cited in this release, %d said by the built-ins and coverage scenarios", r.Name, n, len(said))
	}
}

// TestCitedFilesAreFetched: every file a narration site or the failure table cites is one that
// `./build.sh sources` fetches (internal/rwsource/files.txt).
func TestCitedFilesAreFetched(t *testing.T) {
	files := rwsource.Files()
	for _, s := range engine.Sites() {
		if s.File != "" {
			assert.Contains(t, files, s.File, s.ID)
		}
	}
	for _, f := range failure.Failures {
		for _, c := range f.Proven {
			assert.Contains(t, files, c.File, f.Kind)
		}
		for _, c := range f.ProvenIn {
			assert.Contains(t, files, c.File, f.Kind)
		}
	}
}
