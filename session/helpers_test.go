package session

import (
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/stretchr/testify/require"
)

// every built-in, as written and under every bug mode: the runs the view parts are checked on.
func everyRun(t *testing.T, each func(t *testing.T, s *Session)) {
	t.Helper()
	for _, name := range scenarios.BuiltinNames() {
		for _, bug := range append([]string{""}, bugNames()...) {
			t.Run(name+"/"+bug, func(t *testing.T) {
				s, err := OpenBuiltin(name)
				require.NoError(t, err)
				if bug != "" {
					require.NoError(t, s.SetBug(bug))
					require.NoError(t, s.Goto(0))
				}
				each(t, s)
			})
		}
	}
}

func bugNames() []string {
	var n []string
	for _, b := range engine.Bugs {
		n = append(n, b.Name)
	}
	return n
}
