package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIgnoredMutationsChangeNothing: pause, resume and throttle on a barrier in any phase leave
// every output, the tables and downstream exactly as without them, and the narration says that
// the executor ignores the mutation (and, while backfilling, what that means for the snapshot).
func TestIgnoredMutationsChangeNothing(t *testing.T) {
	script := func(m string, at int) string {
		bars := []string{"barrier: 1", "barrier: 2", "barrier: {epoch: 3, start_backfill: [7]}", "barrier: 4", "barrier: 5", "barrier: 6"}
		if m != "" {
			bars[at] = fmt.Sprintf("barrier: {epoch: %d, mutation: %s}", at+1, m)
		}
		return header + "chunk_size: 2\nsteps:\n" +
			"  - " + bars[0] + "\n" + // starting
			"  - chunk: [\"+ 1 100\", \"+ 2 101\", \"+ 3 102\", \"+ 11 200\"]\n" +
			"  - " + bars[1] + "\n" + // buffering
			"  - " + bars[2] + "\n" +
			"  - snapshot: 3\n" +
			"  - chunk: [\"+ 4 103\"]\n" +
			"  - " + bars[3] + "\n" + // backfilling
			"  - snapshot: 3\n" +
			"  - " + bars[4] + "\n" + // completing
			"  - chunk: [\"+ 5 104\"]\n" +
			"  - " + bars[5] + "\n" // forwarding
	}
	plain := runScenario(t, script("", 0))
	phases := map[int]string{0: "starting", 1: "buffering", 3: "backfilling", 4: "completing", 5: "forwarding"}
	for _, m := range []string{"pause", "resume", "{throttle: 1}"} {
		for at, phase := range phases {
			t.Run(m+" while "+phase, func(t *testing.T) {
				s, err := session.Load("t.yaml", []byte(script(m, at)))
				require.NoError(t, err)
				var said string
				for s.Timeline().Pos() < s.Steps() {
					require.NoError(t, s.Step())
					if st := s.Scenario.Steps[s.Timeline().Pos()-1]; st.Barrier.Mutation != 0 {
						for _, ef := range s.View().Explanations {
							said += ef.Text + "\n"
						}
					}
				}
				assert.Equal(t, testutil.MustJSON(plain.Trace()), testutil.MustJSON(s.Trace()), "the mutation changes nothing")
				if phase == "starting" {
					assert.Contains(t, said, "is not looked at")
				} else {
					assert.Contains(t, said, "which the executor ignores")
				}
				if phase == "backfilling" && m == "pause" {
					assert.Contains(t, said, "the snapshot still delivers")
				}
				if phase == "backfilling" && m != "pause" && m != "resume" {
					assert.Contains(t, said, "the builders were created with the rate limit disabled")
				}
			})
		}
	}
}

// TestPausedSnapshotStillDelivers: after a pause, each snapshot delivery says the executor
// ignores it, until a resume.
func TestPausedSnapshotStillDelivers(t *testing.T) {
	s, err := session.OpenBuiltin("pause-and-throttle")
	require.NoError(t, err)
	paused := 0
	for s.Timeline().Pos() < s.Steps() {
		require.NoError(t, s.Step())
		for _, ef := range s.View().Explanations {
			if strings.Contains(ef.Text, "The job is paused (since barrier e3)") {
				paused++
			}
		}
	}
	assert.Equal(t, 1, paused, "one snapshot delivery between the pause (e3) and the resume (e5)")
	assert.Equal(t, "holds", s.View().Invariant.Status)
}
