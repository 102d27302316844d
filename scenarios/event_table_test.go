package scenarios_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/view"
)

// TestAFictionalEventKindReachesEverySurface: a kind of step added to the engine's table (in
// memory) is read by the parser, written back by the formatter, described in the narration's
// words, and its pill is in the legend the page is sent; nothing else names it.
func TestAFictionalEventKindReachesEverySurface(t *testing.T) {
	saved := engine.Events
	t.Cleanup(func() { engine.Events = saved })
	const kind = engine.EventKind(200)
	engine.Events = append(slices.Clip(saved), engine.EventInfo{Kind: kind, Key: "fictional", By: "upstream", Takes: engine.TakesText,
		Example: "fictional: a thing happened", Says: "fictional event %q", Label: "the fictional thing happens: %q", Pill: "✦ fictional", Term: "upstream"})

	sc, err := scenarios.Parse("f.yaml", []byte("title: f\ntable: {columns: [a, b], locality: [a], stream_key: [b]}\nvnodes: {count: 2}\nsteps:\n  - barrier: 1\n  - fictional: a thing happened\n"))
	require.NoError(t, err)
	st := sc.Steps[1]
	assert.Equal(t, kind, st.Kind)
	assert.Equal(t, "a thing happened", st.Message)
	assert.True(t, st.Kind.IsUpstream())
	assert.Equal(t, `fictional: "a thing happened"`, scenarios.FormatStep(sc.Config, st))
	st.Note = "n"
	back, err := scenarios.ParseStep(sc.Config, scenarios.FormatStep(sc.Config, st))
	require.NoError(t, err)
	assert.Equal(t, st, back)
	assert.Equal(t, `fictional event "a thing happened"`, st.Describe(sc.Config.Columns))

	_, err = scenarios.ParseStep(sc.Config, "fictional")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "step fictional needs a value, e.g. fictional: a thing happened")
	_, err = scenarios.ParseStep(sc.Config, "nonsense")
	require.Error(t, err)
	assert.Contains(t, err.Error(), ", recover, fictional")
	assert.Contains(t, scenarios.EventKeys(), "fictional")

	var legend map[string]string // as the bridge's `legend` writes it
	require.NoError(t, json.Unmarshal(glossary.AppendJSONLegend(nil, glossary.Legend, view.EventLegend()), &legend))
	assert.Equal(t, "✦ fictional", legend["message.fictional"])
}

// TestEveryEventKind: each kind is in the table once, with a glossary entry that defines it and
// a key the parser reads; an upstream message has a pill on the page.
func TestEveryEventKind(t *testing.T) {
	sc, err := scenarios.Parse("f.yaml", []byte("title: f\ntable: {columns: [a, b], locality: [a], stream_key: [b]}\nvnodes: {count: 2}\nsteps: []\n"))
	require.NoError(t, err)
	seen := map[engine.EventKind]bool{}
	for _, ev := range engine.Events {
		assert.False(t, seen[ev.Kind], "%s twice", ev.Key)
		seen[ev.Kind] = true
		assert.Same(t, ev.Kind.Info(), ev.Kind.Info())
		assert.Equal(t, ev.Key, ev.Kind.Info().Key)
		_, ok := glossary.LookupTerm(ev.Term)
		assert.True(t, ok, "%s: no glossary entry %q", ev.Key, ev.Term)
		assert.Contains(t, []string{"upstream", "snapshot", "recover"}, ev.By, ev.Key)
		assert.Equal(t, ev.By == "upstream", ev.Pill != "", "%s: an upstream message has a pill, and only it", ev.Key)
		if ev.Takes != engine.TakesNone {
			_, err := scenarios.ParseStep(sc.Config, ev.Key)
			require.Error(t, err, ev.Key)
			assert.True(t, strings.HasSuffix(err.Error(), "e.g. "+ev.Example), "%s: %v", ev.Key, err)
		}
	}
	assert.Len(t, seen, int(engine.EventSnapshotError)+1)
}
