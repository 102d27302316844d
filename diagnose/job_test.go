package diagnose

import (
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheJobPerRelease: an engineer who pastes "actor exited unexpectedly" learns what the recovery
// did to the job under their release, in the answer's first part: dropped and to be rerun where the
// meta service drops a creating foreground job, kept elsewhere; its lines are cited.
func TestTheJobPerRelease(t *testing.T) {
	for _, r := range engine.Releases {
		a, err := Diagnose("2026-12-07T10:00:00Z ERROR actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: actor exited unexpectedly", r.Name)
		require.NoError(t, err)
		require.NotEmpty(t, a.Matches, r.Name)
		m := a.Matches[0]
		if r.DropsCreatingForeground {
			assert.Contains(t, m.Job, "it is dropped by "+r.Name+"'s recovery", r.Name)
			assert.Contains(t, m.Job, "run the whole CREATE again", r.Name)
			assert.Contains(t, m.Job, "SET BACKGROUND_DDL = true", r.Name)
		} else {
			assert.Contains(t, m.Job, "The failed actor's job is kept", r.Name)
			assert.NotContains(t, m.Job, "dropped", r.Name)
		}
		text := a.Text()
		assert.Less(t, strings.Index(text, "The job: "), strings.Index(text, "Left behind: "), r.Name)
		assert.Less(t, strings.Index(text, "The job: "), strings.Index(text, "Where to look next"), r.Name)
		var cited bool
		for _, c := range m.Proven {
			cited = cited || c.File == engine.FileMetaCatalog
		}
		assert.True(t, cited, "%s: the job's lines are cited", r.Name)
	}
}
