package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
	"github.com/backfill-explainer/explainer/session"
)

// TestRescaleMetaLinesHoldWhatTheySay: the scale.rs lines the rescale narration names hold, at
// each release's ref, the lock for creating jobs and the skip (v2.7) or the full-rebuild
// assertions (v2.8 on).
func TestRescaleMetaLinesHoldWhatTheySay(t *testing.T) {
	// what each kind of reason's lines hold, keyed by a phrase of its sentence (a release that
	// shares a reason shares its words)
	words := map[string][][]string{
		"does not reschedule a creating job":  {{"prevent scaling operations on jobs that are in the creating state", "reschedule_lock"}, {"list_background_creating_jobs", "skipping parallelism control of background jobs"}},
		"asserts that none is kept (meta":     {{"kept_ids.is_empty()", "expected full rebuild"}},
		"no vnode bitmap is updated in place": {{"kept_ids.is_empty()", "expected full rebuild"}, {"vnode_bitmap_updates.is_empty()", "expected full rebuild"}},
	}
	for _, r := range engine.Releases {
		var want [][]string
		for phrase, w := range words {
			if strings.Contains(r.RescaleMeta.Why, phrase) {
				want = w
			}
		}
		require.Len(t, want, len(r.RescaleMeta.Lines), "%s: what its meta's lines hold (a new reason: its words here)", r.Name)
		src := releaseSource(t, r.Ref, engine.FileMetaScale)
		for i, l := range r.RescaleMeta.Lines {
			text := strings.Join(src[l[0]-1:l[1]], "\n")
			for _, w := range want[i] {
				assert.Contains(t, text, w, "%s scale.rs:%d-%d", r.Name, l[0], l[1])
			}
		}
	}
}

// TestCorrectedSentences: the sentences corrected against the source (issue "what happens to the
// job", correction 4) are gone, and what replaces them says what the source shows.
func TestCorrectedSentences(t *testing.T) {
	said := func(name, release string, step int) string {
		s, err := session.OpenBuiltin(name)
		require.NoError(t, err)
		require.NoError(t, s.SetRelease(release))
		require.NoError(t, s.Goto(step))
		var out []string
		for _, ex := range s.View().Explanations {
			out = append(out, ex.Text)
		}
		return strings.Join(out, "\n")
	}
	for _, r := range []string{"v2.8", "v3.0", "v3.1"} {
		text := said("crash-while-buffering", r, 8)
		assert.NotContains(t, text, "again fills with the whole scanned table", r)
		assert.Contains(t, text, "keeps every row buffered up to the checkpoint", r)
	}
	for _, r := range []string{"v2.7", "v2.8", "v3.0"} {
		text := said("rescale-mid-backfill", r, 8)
		assert.NotContains(t, text, "keeps reading the vnodes it had", r)
		assert.Contains(t, text, "No such barrier reaches a creating job", r)
	}
	assert.Contains(t, said("rescale-mid-backfill", "v2.7", 8), "does not reschedule a creating job")
	assert.Contains(t, said("rescale-mid-backfill", "v3.0", 8), "full rebuild")
	order := said("happy-path", "v3.1", 1)
	assert.Contains(t, order, "when another locality-provider fragment feeds this one")
	for _, name := range []string{"end-while-buffering", "rescale-mid-backfill"} {
		s, err := session.OpenBuiltin(name)
		require.NoError(t, err)
		all := ""
		for i := 1; i <= s.Steps(); i++ {
			require.NoError(t, s.Goto(i))
			all += s.View().Note + "\n"
		}
		assert.NotContains(t, all, "may behave differently", name)
		assert.NotContains(t, all, "rescaled offline, through a recovery", name)
	}
	for _, f := range failure.Failures {
		for _, l := range f.Inferred {
			assert.NotContains(t, l, "an offline reschedule", f.Kind)
		}
	}
}
