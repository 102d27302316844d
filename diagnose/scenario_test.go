package diagnose_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/diagnose"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/lessons"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
)

// The engine models v3.1. Each message's built-in, run through it, stops at the step the
// diagnosis names: the failure (or the actor's exit) happens at that step and not before.
var failsAs = map[diagnose.MessageID]func(v *view.View) bool{
	diagnose.MsgUpstreamEnded:   func(v *view.View) bool { return v.Error != nil && v.Error.Message == engine.ErrUpstreamEnded },
	diagnose.MsgRescale:         func(v *view.View) bool { return v.Error != nil && v.Error.Message == engine.ErrRescale },
	diagnose.MsgFirstNotBarrier: func(v *view.View) bool { return v.Failure != nil && v.Failure.Kind == engine.FailFirstNotBarrier },
	diagnose.MsgStorage:         func(v *view.View) bool { return v.Failure != nil && v.Failure.Kind == engine.FailSnapshotError },
	diagnose.MsgActorExited:     func(v *view.View) bool { return said(v, "actor.exited") },
	diagnose.MsgStreamClosed:    func(v *view.View) bool { return v.Error != nil && v.Error.Message == engine.ErrStreamClosed },
	diagnose.MsgNotCheckpoint:   func(v *view.View) bool { return v.Failure != nil && v.Failure.Kind == engine.FailFirstNotCheckpoint },
	diagnose.MsgExchangeUpstream: func(v *view.View) bool {
		return v.Error != nil && strings.HasPrefix(v.Error.Message, "exchange channel from ") && strings.HasSuffix(v.Error.Message, " closed unexpectedly")
	},
}

func said(v *view.View, site string) bool {
	for _, e := range v.Explanations {
		if e.Site == site {
			return true
		}
	}
	return false
}

func viewAt(t *testing.T, name string, step int) *view.View {
	t.Helper()
	s, err := session.OpenBuiltin(name)
	require.NoError(t, err)
	require.NoError(t, s.Goto(step))
	return s.View()
}

func TestEachOpenIsTheFailureStep(t *testing.T) {
	for _, m := range diagnose.Catalogue() {
		for _, rel := range diagnose.ReleaseNames() {
			a, err := diagnose.Diagnose(m.Text, rel)
			require.NoError(t, err)
			if m.ID == diagnose.MsgExchangeUpstream || m.ID == diagnose.MsgExchangeDown {
				a, err = diagnose.Diagnose("exchange channel "+map[diagnose.MessageID]string{diagnose.MsgExchangeUpstream: "from local upstream", diagnose.MsgExchangeDown: "to downstream"}[m.ID]+" actor 5 closed unexpectedly", rel)
				require.NoError(t, err)
			}
			require.True(t, a.Recognised, "%s: its own text", m.ID)
			o := a.Matches[0].Open
			if o == nil {
				continue
			}
			t.Run(string(m.ID)+"/"+rel, func(t *testing.T) {
				assert.Equal(t, rel, o.Release)
				v := viewAt(t, o.Scenario, o.Step)
				check := failsAs[m.ID]
				switch {
				case m.ID == diagnose.MsgUpstreamEnded && !m.Produces(rel):
					// that release has no fatal error: the step is the upstream's end
					assert.True(t, said(v, "backfill.end"), "%s step %d is the upstream's end mid-backfill", o.Scenario, o.Step)
				case m.ID == diagnose.MsgRescale && rel != "v3.1":
					// the step is the rescale barrier (the v3.1 model fails there)
					assert.True(t, check(v), "%s step %d is the rescale barrier", o.Scenario, o.Step)
				default:
					require.NotNil(t, check, "no check for %s", m.ID)
					assert.True(t, check(v), "%s step %d: the failure", o.Scenario, o.Step)
					assert.False(t, check(viewAt(t, o.Scenario, o.Step-1)), "%s: not before step %d", o.Scenario, o.Step)
					if v.Error != nil {
						assert.Equal(t, o.Step, v.Error.Step)
					}
				}
			})
		}
	}
}

// The end while buffering, named in the fatal error's answer, is end-while-buffering's step 5.
func TestEndWhileBufferingStep(t *testing.T) {
	v := viewAt(t, "end-while-buffering", 5)
	require.NotNil(t, v.Error)
	assert.Equal(t, engine.ErrUpstreamEnded, v.Error.Message)
	assert.Equal(t, engine.FailUpstreamEndedBuffering, v.Failure.Kind)
	assert.Equal(t, 5, v.Error.Step)
}

// TestMetThisErrorLink: the lesson the answer links is the built-in, as named.
func TestMetThisErrorLink(t *testing.T) {
	l, err := lessons.OpenBuiltin(diagnose.MetThisError.Name)
	require.NoError(t, err)
	assert.Equal(t, diagnose.MetThisError.Title, l.Title)
	assert.Equal(t, diagnose.MetThisError.Minutes, l.Minutes())
}
