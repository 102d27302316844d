package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// TestEverySiteIsOnOneCodeLine: every narration site is on exactly one line of the code map, and
// a line's cited sites are in one file.
func TestEverySiteIsOnOneCodeLine(t *testing.T) {
	on := map[string][]string{}
	ids := map[string]bool{}
	for _, id := range engine.CodeLineIDs() {
		require.False(t, ids[id], "line %s twice", id)
		ids[id] = true
		sites := engine.CodeLineSites(id)
		require.NotEmpty(t, sites, "line %s covers no site", id)
		file := ""
		for _, s := range sites {
			on[s.ID] = append(on[s.ID], id)
			if s.File == "" {
				continue
			}
			if file == "" {
				file = s.File
			}
			assert.Equal(t, file, s.File, "line %s cites two files", id)
		}
	}
	for _, s := range engine.Sites() {
		assert.Len(t, on[s.ID], 1, "site %s should be on exactly one code-map line, is on %v", s.ID, on[s.ID])
		assert.Equal(t, firstOr(on[s.ID]), engine.CodeLineOf(s.ID), s.ID)
	}
}

func firstOr(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}

// TestCodeMapPerRelease: a release's map has exactly the lines one of whose sites it says, each
// cited line with its lines in that release, spanning every site's lines there, linked at its ref.
func TestCodeMapPerRelease(t *testing.T) {
	for _, r := range engine.Releases {
		byID := map[string]engine.CodeLine{}
		for _, l := range r.CodeMap() {
			byID[l.ID] = l
		}
		for _, id := range engine.CodeLineIDs() {
			l, has := byID[id]
			says, cites := false, false
			for _, s := range engine.CodeLineSites(id) {
				sl, ok := r.SiteLines(s)
				if !ok {
					continue
				}
				says = true
				if s.File == "" {
					continue
				}
				cites = true
				require.True(t, has, "%s: line %s", r.Name, id)
				assert.Equal(t, s.File, l.File, "%s %s", r.Name, id)
				assert.True(t, l.Lines[0] <= sl[0] && sl[1] <= l.Lines[1], "%s: line %s %v should span %s %v", r.Name, id, l.Lines, s.ID, sl)
			}
			assert.Equal(t, says, has, "%s: line %s is in the map exactly when the release says one of its sites", r.Name, id)
			if has && cites {
				assert.NotZero(t, l.Lines[0], "%s %s", r.Name, id)
				assert.Equal(t, r.URL(l.File, l.Lines), l.URL, "%s %s", r.Name, id)
			}
			if has && !cites {
				assert.Equal(t, [2]int{}, l.Lines, "%s %s", r.Name, id)
				assert.Empty(t, l.URL, "%s %s", r.Name, id)
			}
		}
	}
	has := func(r *engine.Release, id string) bool {
		for _, l := range r.CodeMap() {
			if l.ID == id {
				return true
			}
		}
		return false
	}
	assert.True(t, has(engine.ReleaseV31, "back-end"))
	assert.False(t, has(engine.ReleaseV31, "back-end-silent"))
	for _, r := range []*engine.Release{engine.ReleaseV27, engine.ReleaseV28, engine.ReleaseV30} {
		assert.False(t, has(r, "back-end"), r.Name)
		assert.True(t, has(r, "back-end-silent"), r.Name)
		assert.False(t, has(r, "bar-refresh"), r.Name)
		assert.True(t, has(r, "reopen"), r.Name)
	}
}

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
				id := engine.CodeLineOf(ef.Site)
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
			assert.Equal(t, r.CodeMap(), v.CodeMap, where)
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
