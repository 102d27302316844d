package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
)

// jargon is what an outsider cannot follow: the team's spec files and section signs, "the
// seed", and the engine's shorthand for source lines.
var jargon = []string{"protocol.md", "scenario-format", "design.md", "§", "the seed", "seed's", "LP:", "worked example", "hazard "}

func assertPlain(t *testing.T, where, text string) {
	t.Helper()
	for _, j := range jargon {
		assert.NotContains(t, text, j, "%s uses %q", where, j)
	}
}

// TestBuiltinsSpeakPlainly: titles, summaries, notes and everything the engine says while
// running every built-in (under every bug mode) are free of the team's jargon.
func TestBuiltinsSpeakPlainly(t *testing.T) {
	modes := []string{"none"}
	for _, b := range engine.Bugs {
		modes = append(modes, b.Name)
		assertPlain(t, "bug mode "+b.Name, b.Summary+" "+b.Why+" "+b.History)
	}
	for _, name := range scenarios.BuiltinNames() {
		s, err := OpenBuiltin(name)
		require.NoError(t, err)
		c := s.Scenario.Config
		assertPlain(t, name+" title", c.Title)
		assertPlain(t, name+" summary", c.Summary)
		for i, st := range s.Scenario.Steps {
			assertPlain(t, fmt.Sprintf("%s note of step %d", name, i+1), st.Note)
		}
		for _, mode := range modes {
			require.NoError(t, s.SetBug(mode))
			require.NoError(t, s.Goto(0))
			for s.Timeline().Pos() < s.Steps() {
				require.NoError(t, s.Step())
				v := s.View()
				var said []string
				for _, ef := range v.Explanations {
					said = append(said, ef.Text)
				}
				for _, o := range v.Outputs {
					for _, r := range o.Rows {
						said = append(said, r.Why)
					}
				}
				if f := v.Failure; f != nil {
					said = append(said, f.Meaning, f.LeftBehind, f.Recovery)
					said = append(said, f.Inferred...)
					for _, p := range f.Proven {
						said = append(said, p.Text)
					}
				}
				assertPlain(t, name+" --bug "+mode, strings.Join(said, "\n"))
			}
		}
	}
}
