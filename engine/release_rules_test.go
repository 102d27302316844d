package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// runUnder runs a scenario text to its end under a release.
func runUnder(t *testing.T, release, steps string) *session.Session {
	t.Helper()
	s, err := session.Load("t.yaml", []byte(header+"release: "+release+"\nsteps:\n"+steps))
	require.NoError(t, err)
	require.NoError(t, s.RunToEnd())
	return s
}

// The release rules' held-out cases are files: scenarios/testdata/heldout (each with its rules per
// release, checked by scenarios/heldout_test.go). What stays here is used by world_test.go.

// endForwarding: the upstream ends while forwarding (the actor exits unexpectedly in every release).
const endForwarding = "  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n  - end\n"

// TestReleaseKeyErrors: an unknown release is an error at its value, saying what to write.
func TestReleaseKeyErrors(t *testing.T) {
	for text, want := range map[string]string{
		"release: 3.0\n":    "5:10: release: unknown release \"3.0\": write v3.0",
		"release: v3.0.2\n": "5:10: release: unknown release \"v3.0.2\": write v3.0",
		"release: v2.6\n":   "5:10: release: unknown release \"v2.6\": expected one of " + scenarios.ReleaseNames(),
	} {
		_, err := session.Load("t.yaml", []byte(header+text+"steps:\n  - barrier: 1\n"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), want)
	}
}
