package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/diagnose"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
	"github.com/backfill-explainer/explainer/scenarios"
)

// TestFailureChecksAreTheDiagnosis: at every failure of every built-in under every release, the
// view's "what to check" is exactly the diagnosis's "where to look next" for the message the
// failure prints at that release (not a second copy of the advice), and the CLI's explanation
// (FailureExplanation) carries the same.
func TestFailureChecksAreTheDiagnosis(t *testing.T) {
	failures := 0
	for _, name := range scenarios.BuiltinNames() {
		for _, rel := range engine.Releases {
			s, err := OpenBuiltin(name)
			require.NoError(t, err)
			require.NoError(t, s.SetRelease(rel.Name))
			for n := 0; n <= s.Steps(); n++ {
				require.NoError(t, s.Goto(n))
				f := s.View().Failure
				if f == nil {
					continue
				}
				failures++
				a, err := diagnose.Diagnose(f.Message, rel.Name)
				require.NoError(t, err)
				if f.Kind == engine.FailSnapshotError { // the storage's own text: printed as "Storage error: …"
					a, err = diagnose.Diagnose("Storage error: "+f.Message, rel.Name)
					require.NoError(t, err)
				}
				require.True(t, a.Recognised, "%s step %d: %q", name, n, f.Message)
				assert.Equal(t, a.Matches[0].LookNext, f.Checks, "%s step %d at %s", name, n, rel.Name)
				assert.Contains(t, f.ChecksFrom, rel.Name)
				assert.Equal(t, f.Checks, s.FailureExplanation().Checks)
			}
		}
	}
	assert.Greater(t, failures, 8)
}

// An upstream error whose text the diagnosis does not know gets no checks (the details keep the
// engine's likely causes); one it knows gets that message's.
func TestUpstreamErrorChecksFollowItsText(t *testing.T) {
	f := &failure.FailureView{Kind: engine.FailUpstreamError, Message: "boom", Release: "v3.1"}
	attachChecks(f)
	assert.Nil(t, f.Checks)
	f = &failure.FailureView{Kind: engine.FailUpstreamError, Message: "exchange channel from remote upstream actor 5 closed unexpectedly", Release: "v2.8"}
	attachChecks(f)
	require.NotEmpty(t, f.Checks)
	assert.Contains(t, f.Checks[0], "Upstream actor 5's own failure first", "the actor the message names")
}
