package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/view"
)

// TestActorLabelIsOneWordOfTheState: the executor's header shows the actor's label, one word
// (so that it is never cut): the first word of the state, at every end of every failure path
// under every release and create type, and after the recovery that drops a job.
func TestActorLabelIsOneWordOfTheState(t *testing.T) {
	seen := map[string]bool{}
	check := func(t *testing.T, a view.ActorView) {
		seen[a.State] = true
		assert.NotContains(t, a.Label, " ", a.State)
		assert.Equal(t, strings.Fields(a.State)[0], a.Label, a.State)
	}
	for name, steps := range failurePaths {
		for _, rel := range engine.Releases {
			for _, create := range []string{"foreground", "background"} {
				t.Run(name+"/"+rel.Name+"/"+create, func(t *testing.T) {
					s := runScenario(t, header+"create: "+create+"\n"+steps)
					require.NoError(t, s.SetRelease(rel.Name))
					require.NoError(t, s.RunToEnd())
					check(t, s.View().Actor)
					if s.View().Error != nil {
						require.NoError(t, s.Apply("recover"))
						check(t, s.View().Actor)
					}
				})
			}
		}
	}
	for _, st := range []string{view.ActorRunning, view.ActorFailed, view.ActorExited, view.ActorDropped} {
		assert.True(t, seen[st], "no path ends with the actor %s", st)
	}
}
