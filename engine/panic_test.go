package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/session"
)

// TestPanicAbortsTheNode: at every release, a panic's narration, actor, failure entry and data
// say that the panic hook aborts the compute node (panic_hook.rs:17-35 at every ref), and none
// says an "actor exit with error" line follows or that the panic's effect is decided elsewhere.
func TestPanicAbortsTheNode(t *testing.T) {
	for _, name := range []string{"first-message-not-barrier", "first-barrier-not-checkpoint"} {
		for _, r := range engine.Releases {
			s, err := session.OpenBuiltin(name)
			require.NoError(t, err)
			require.NoError(t, s.SetRelease(r.Name))
			require.NoError(t, s.Step())
			v := s.View()
			var said []string
			cited := false
			for _, ex := range v.Explanations {
				said = append(said, ex.Text)
				if ex.File == engine.FilePanicHook {
					cited = true
					assert.Contains(t, ex.URL, "/blob/"+r.Ref+"/"+engine.FilePanicHook+"#L17-L35", name)
				}
			}
			assert.True(t, cited, "%s %s: no sentence cites the panic hook", name, r.Name)
			text := strings.Join(said, "\n")
			assert.Contains(t, text, "aborts the compute node", name, r.Name)
			require.NotNil(t, v.Failure, name)
			all := text + "\n" + v.Actor.Text + "\n" + strings.Join(v.Failure.Inferred, "\n") + "\n" + v.Failure.Data.Headline
			assert.NotContains(t, all, "decided outside", "%s %s", name, r.Name)
			assert.NotContains(t, all, "recover as after an error", "%s %s", name, r.Name)
			hook := false
			for _, c := range v.Failure.Proven {
				hook = hook || c.File == engine.FilePanicHook
			}
			assert.True(t, hook, "%s %s: the failure's proofs leave out the panic hook", name, r.Name)
		}
	}
}
