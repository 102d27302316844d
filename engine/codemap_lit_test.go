package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/codemap"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// TestCodeMapLightsTheStepsSites: at every step of every built-in, under every bug mode and every
// release (and of the coverage scenarios), the lit lines are exactly the lines of the sites the
// step's explanations came from, in the map's order, and a step that says something lights one.
func TestCodeMapLightsTheStepsSites(t *testing.T) {
	steps := 0
	check := func(where string, s *session.Session, r *engine.Release) {
		for s.Timeline().Pos() < s.Steps() {
			require.NoError(t, s.Step(), where)
			v := s.View()
			want := map[string]bool{}
			for _, ef := range v.Explanations {
				id := codemap.LineOf(ef.Site)
				require.NotEmpty(t, id, "%s step %d: site %q is on no line", where, v.Step, ef.Site)
				want[id] = true
			}
			var order []string
			for _, l := range v.CodeMap {
				if want[l.ID] {
					order = append(order, l.ID)
				}
			}
			assert.Len(t, order, len(want), "%s step %d: a lit line is not in %s's map", where, v.Step, r.Name)
			if len(order) == 0 {
				assert.Empty(t, v.CodeLit, "%s step %d", where, v.Step)
			} else {
				assert.Equal(t, order, v.CodeLit, "%s step %d", where, v.Step)
			}
			if len(v.Explanations) > 0 {
				assert.NotEmpty(t, v.CodeLit, "%s step %d says something", where, v.Step)
			}
			assert.Equal(t, codemap.Of(r), v.CodeMap, where)
			steps++
		}
	}
	modes := append([]string{"none"}, bugNames()...)
	for ri, r := range engine.Releases {
		for i, name := range scenarios.BuiltinNames() {
			for j, bug := range modes {
				if testing.Short() && j != (i+ri)%len(modes) {
					continue // -short: each built-in under one mode a release, the modes in turn
				}
				s, err := session.OpenBuiltin(name)
				require.NoError(t, err)
				require.NoError(t, s.SetRelease(r.Name))
				if bug != "none" {
					require.NoError(t, s.SetBug(bug))
				}
				check(name+" "+r.Name+" bug "+bug, s, r)
			}
		}
		for name, text := range coverageScenarios {
			s, err := session.Load(name+".yaml", []byte(header+text))
			require.NoError(t, err, name)
			require.NoError(t, s.SetRelease(r.Name))
			check(name+" "+r.Name, s, r)
		}
	}
	t.Logf("%d steps checked", steps)
}
