package diagnose

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// The releases are the engine's: the same names and refs, in the same order, each with its
// patch releases.
func TestReleasesAreTheEngines(t *testing.T) {
	require.Len(t, releases(), len(engine.Releases))
	for i, r := range engine.Releases {
		assert.Equal(t, r.Name, releases()[i].Name)
		assert.Equal(t, r.Ref, releases()[i].Ref)
		assert.NotEmpty(t, releases()[i].Patches)
	}
}

// Checks answers a modelled failure with its message's advice, and nothing for a release that
// does not produce the message or an unknown release.
func TestChecks(t *testing.T) {
	id, c := Checks(engine.FailUpstreamEndedBuffering, engine.ErrUpstreamEnded, "v3.1")
	assert.Equal(t, MsgUpstreamEnded, id)
	assert.Equal(t, answer(Lookup(MsgUpstreamEnded), "v3.1").LookNext, c)
	id, c = Checks(engine.FailUpstreamEnded, engine.ErrUpstreamEnded, "v2.8")
	assert.Equal(t, MessageID(""), id)
	assert.Nil(t, c)
	_, c = Checks(engine.FailRescale, engine.ErrRescale, "v9.9")
	assert.Nil(t, c)
}
