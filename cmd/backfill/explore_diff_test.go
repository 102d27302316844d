package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command line says how each outcome differs, in the words the page shows (the session's
// report), and which schedules a capped search left unfinished.
func TestExploreCommandSaysHowOutcomesDiffer(t *testing.T) {
	for _, tc := range []struct {
		args []string
		max  int
	}{
		{[]string{"explore", "fatal-upstream-end"}, 0},
		{[]string{"explore", "--max-states", "50", "happy-path"}, 50},
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run(tc.args, &stdout, &stderr), stderr.String())
		s, err := session.OpenBuiltin(tc.args[len(tc.args)-1])
		require.NoError(t, err)
		r, err := s.Explore(tc.max)
		require.NoError(t, err)
		out := stdout.String()
		unfinished := 0
		for i, o := range r.Outcomes {
			require.Positive(t, o.Diff.Versus)
			assert.Contains(t, out, fmt.Sprintf("outcome %d: %d schedules", i+1, o.Schedules))
			assert.Contains(t, out, "  positions: "+strings.Join(o.Diff.Positions, " · ")+"\n")
			assert.Contains(t, out, fmt.Sprintf("  differs from outcome %d: %s\n", o.Diff.Versus, strings.Join(o.Diff.Differs, "; ")))
			if !o.Diff.Finished {
				unfinished++
			}
		}
		assert.Equal(t, unfinished, strings.Count(out, "unfinished: the search stopped before this schedule ended"), "%v", tc.args)
		assert.NotEmpty(t, r.Outcomes, "%v", tc.args)
		assert.Zero(t, unfinished, "a capped search lists only schedules it played to the end")
	}
}
