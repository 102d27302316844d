package engine_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
)

// failurePaths are scripts that end in a failure, one or more per kind and phase.
var failurePaths = map[string]string{
	"end while backfilling": `chunk_size: 2
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101", "+ 3 102", "+ 4 103", "+ 11 200"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 2
  - barrier: 3
  - snapshot: 3
  - chunk: ["+ 5 104", "+ 12 201"]
  - end
`,
	"end while buffering":        "steps:\n  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - end\n",
	"stream closed first":        "steps:\n  - end\n",
	"chunk first":                "steps:\n  - chunk: [\"+ 1 100\"]\n",
	"non-checkpoint first":       "steps:\n  - barrier: {epoch: 1, checkpoint: false}\n",
	"rescale while buffering":    "steps:\n  - barrier: 1\n  - barrier: {epoch: 2, rescale: true}\n",
	"error while buffering":      "steps:\n  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - error: boom\n",
	"error on the first message": "steps:\n  - error: boom\n",
	"rescale at a backfill barrier": `steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - chunk: ["+ 3 102"]
  - barrier: {epoch: 3, rescale: true}
`,
	"error while backfilling": `steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - error: exchange closed
`,
	"snapshot read error": `steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 2 101"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - chunk: ["+ 11 200"]
  - snapshot_error: object store timed out
`,
	"rescale in completion": `steps:
  - barrier: 1
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - barrier: {epoch: 3, rescale: true}
`,
	"error while forwarding": `steps:
  - barrier: 1
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - barrier: 3
  - barrier: 4
  - error: boom
`,
}

var epochRe = regexp.MustCompile(`The recovery returns to (e(\d+)|the job's start)`)

// TestFailureDataFollowsTheRecovery: for every failure path under every release where it fails,
// the view says what happens to the data, and what it says is what the recovery then does: the
// checkpoint it returns to, what it discards (the buffer and the builders the view shows), and
// the phase the restarted executor takes at its first barrier (buffering, backfilling with no
// start signal, or forwarding). No row is ever said lost.
func TestFailureDataFollowsTheRecovery(t *testing.T) {
	seen := map[string]bool{} // kind/phase/release
	for name, steps := range failurePaths {
		for _, rel := range engine.Releases {
			t.Run(name+"/"+rel.Name, func(t *testing.T) {
				s := runScenario(t, header+"create: background\n"+steps) // (create_test.go: foreground)
				require.NoError(t, s.SetRelease(rel.Name))
				require.NoError(t, s.RunToEnd())
				v := s.View()
				f := v.Failure
				if f == nil {
					all := engine.PhasesOf(engine.PhaseBuffering, engine.PhaseBackfilling, engine.PhaseCompleting, engine.PhaseForwarding)
					assert.False(t, rel.EndFails && rel.RescaleFails == all, "only a release that ends silently or ignores a rescale somewhere goes on here")
					return
				}
				seen[fmt.Sprintf("%s/%s/%s", f.Kind, f.Phase, f.Release)] = true
				d := f.Data
				assert.Equal(t, rel.Name, f.Release)
				if beforeACheckpoint[name] {
					// still initial: dropped whatever the create type (TestRecoveryDropsACreatingForegroundJob)
					assert.True(t, d.Dropped, d.Headline)
					return
				}
				assert.False(t, d.Lost)
				assert.Contains(t, d.Headline, "no row is lost")
				assert.NotContains(t, d.Headline+d.Until+d.After, " lost ", "no row is said lost: "+d.Until)
				assert.True(t, strings.HasPrefix(d.Until, "Until the recovery: "), d.Until)
				assert.NotEmpty(t, f.PhaseLabel)
				if f.Panic {
					assert.Contains(t, d.Headline, "The panic aborts the compute node")
				}
				// what is discarded is what the stage shows in memory
				rows := 0
				for _, b := range v.Builders {
					rows += len(b.Rows)
				}
				if rows > 0 {
					assert.Contains(t, d.Until, fmt.Sprintf("the %d row", rows))
					assert.Contains(t, d.Until, "in the builders")
				} else {
					assert.NotContains(t, d.Until, "in the builders")
				}
				if len(v.Buffer) > 0 {
					assert.Contains(t, d.Until, fmt.Sprintf("%d chunk", len(v.Buffer)))
				} else {
					assert.NotContains(t, d.Until, "buffered from the upstream")
				}
				if f.Phase == "buffering" {
					assert.Contains(t, d.After, "buffers again and waits for a new start signal")
				}
				m := epochRe.FindStringSubmatch(d.After)
				require.NotNil(t, m, d.After)
				// the recovery returns where the data says
				require.NoError(t, s.Apply("recover"))
				after := s.View()
				rec := after.Outputs[len(after.Outputs)-1]
				assert.Equal(t, engine.OutRecovery, rec.Type)
				if m[2] != "" {
					assert.Equal(t, m[2], strconv.FormatInt(rec.Epoch, 10))
				} else {
					assert.Equal(t, int64(0), rec.Epoch)
				}
				// and the restarted executor does what the data says at its first barrier
				require.NoError(t, s.Apply("barrier: 9"))
				phase := s.View().Phase
				switch {
				case strings.Contains(d.After, "buffers again"):
					assert.Equal(t, "buffering", phase, d.After)
				case strings.Contains(d.After, "needs no start signal"):
					assert.Equal(t, "backfilling", phase, d.After)
				case strings.Contains(d.After, "forwards everything"):
					assert.Equal(t, "forwarding", phase, d.After)
				default:
					t.Errorf("the data says nothing of how the executor restarts: %s", d.After)
				}
			})
		}
	}
	// every phase that can fail is covered, with the buffering and backfilling ends apart
	for _, k := range []string{
		"upstream-ended/backfilling/v3.1", "upstream-ended-while-buffering/buffering/v3.1",
		"stream-closed/starting/v2.7", "first-message-not-barrier/starting/v3.0", "first-barrier-not-checkpoint/starting/v2.8",
		"rescale/buffering/v3.1", "rescale/backfilling/v3.1", "rescale/completing/v3.1",
		"upstream-error/starting/v2.7", "upstream-error/buffering/v2.8", "upstream-error/backfilling/v3.0", "upstream-error/forwarding/v3.1",
		"snapshot-error/backfilling/v2.7",
	} {
		assert.True(t, seen[k], "no failure path covers %s", k)
	}
}

// The two ends are told apart: the phase, its label and what the data says.
func TestEndWhileBufferingIsNotEndWhileBackfilling(t *testing.T) {
	buf := runScenario(t, header+failurePaths["end while buffering"]).View().Failure
	back := runScenario(t, header+failurePaths["end while backfilling"]).View().Failure
	assert.Equal(t, "buffering", buf.Phase)
	assert.Equal(t, "backfilling", back.Phase)
	assert.Contains(t, buf.PhaseLabel, "while buffering")
	assert.Equal(t, "while backfilling", back.PhaseLabel)
	assert.Contains(t, buf.Data.Until, "buffered upstream row written to the state table since the last barrier was never committed: the recovery drops it; the state table keeps what the checkpoint e1 committed")
	assert.Contains(t, buf.Data.After, "a vnode not started is never persisted")
	assert.Contains(t, back.Data.Until, "the 1 row in the builders and the 1 chunk buffered from the upstream (2 rows) are discarded with the executor's memory")
	assert.Contains(t, back.Data.After, "needs no start signal and resumes the snapshot after the persisted positions (vnode 0 after (2,101))")
}

// words are a sentence's words without their punctuation.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" .,;:", r) })
}

// isSubsequence: every word of short is in long, in the same order.
func isSubsequence(short, long []string) bool {
	i := 0
	for _, w := range long {
		if i < len(short) && short[i] == w {
			i++
		}
	}
	return i == len(short)
}

// TestShortHeadlineIsTheHeadlineWithoutItsWhy: for every failure kind under every release, both
// create types and with and without a bug mode, the data's short headline (the failure panel's
// lead) is the headline without its reason. The rule: short's words are the headline's, in order,
// and fewer (a true shortening, nothing added); it keeps the verdict on the job (kept or dropped),
// the sentence on the rows (whether one is lost), the cost, and a panic's first sentence; it is
// whole sentences (ends with a full stop).
func TestShortHeadlineIsTheHeadlineWithoutItsWhy(t *testing.T) {
	kinds := map[engine.FailureKind]bool{}
	rels := map[string]bool{}
	for name, steps := range failurePaths {
		for _, rel := range engine.Releases {
			for _, create := range []string{"foreground", "background"} {
				for _, bug := range []string{"", engine.Bugs[0].Name} {
					t.Run(name+"/"+rel.Name+"/"+create+"/"+bug, func(t *testing.T) {
						s := runScenario(t, header+"create: "+create+"\n"+steps)
						require.NoError(t, s.SetRelease(rel.Name))
						if bug != "" {
							require.NoError(t, s.SetBug(bug))
						}
						require.NoError(t, s.RunToEnd())
						f := s.View().Failure
						if f == nil {
							return
						}
						kinds[f.Kind], rels[rel.Name] = true, true
						datas := []failure.FailureData{f.Data}
						if f.Data.Dropped {
							require.NoError(t, s.Apply("recover"))
							require.NotNil(t, s.View().Dropped)
							datas = append(datas, *s.View().Dropped)
						}
						for _, d := range datas {
							h, short := d.Headline, d.Short
							require.NotEmpty(t, short, h)
							assert.True(t, isSubsequence(words(short), words(h)), "short %q is not the headline's words in order: %q", short, h)
							assert.Less(t, len(words(short)), len(words(h)), "short is no shorter: %q", short)
							assert.True(t, strings.HasSuffix(short, "."), short)
							verdict := "The job is kept"
							if d.Dropped {
								verdict = "The job is dropped"
							}
							assert.Contains(t, h, verdict)
							assert.Contains(t, short, verdict)
							for _, kept := range []string{"no row is lost", "No row is lost", "cost", "The panic aborts the compute node"} {
								assert.Equal(t, strings.Contains(h, kept), strings.Contains(short, kept), "%q in the headline and not the short one (or the reverse): %q", kept, short)
							}
							if f.Panic && !d.Dropped { // (a drop's headline is the drop's alone)
								assert.True(t, strings.HasPrefix(short, "The panic aborts the compute node"), short)
							}
						}
					})
				}
			}
		}
	}
	for _, k := range []engine.FailureKind{engine.FailUpstreamEnded, engine.FailUpstreamEndedBuffering, engine.FailStreamClosed,
		engine.FailFirstNotBarrier, engine.FailFirstNotCheckpoint, engine.FailRescale, engine.FailUpstreamError, engine.FailSnapshotError} {
		assert.True(t, kinds[k], "no failure of kind %s", k)
	}
	for _, rel := range engine.Releases {
		assert.True(t, rels[rel.Name], "no failure under %s", rel.Name)
	}
}
