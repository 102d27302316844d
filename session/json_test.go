package session

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/wire"
	"github.com/backfill-explainer/explainer/wire/wiretest"
)

// Every view, trace and action list of every built-in, as written and under every bug mode, at
// every step; the export, the forms and a comparison at the end (-short: every third built-in,
// under one mode).
func TestSessionJSONAsEncodingJSON(t *testing.T) {
	everyRunOrSome(t, func(t *testing.T, s *Session) {
		for {
			v := s.View()
			if !wiretest.AsEncoder(t, v, wire.AppendView(nil, v), "view at step %d", v.Step) {
				return
			}
			tr := s.Trace()
			wiretest.AsEncoder(t, tr, wire.AppendTrace(nil, &tr), "trace at step %d", v.Step)
			as := s.Actions()
			wiretest.AsEncoder(t, as, wire.AppendJSONActions(nil, as), "actions at step %d", v.Step)
			if s.tl.Pos() == s.Steps() {
				break
			}
			require.NoError(t, s.Step())
		}
		ex := s.Export()
		wiretest.AsEncoder(t, ex, ex.AppendJSON(nil), "export")
		forms := s.StepForms()
		wiretest.AsEncoder(t, forms, AppendJSONStepForms(nil, forms), "step forms")
		c, err := s.CompareBug("no-state-write")
		require.NoError(t, err)
		wiretest.AsEncoder(t, c, c.AppendJSON(nil), "comparison")
	})
}

// The explorer's report on every built-in (a small budget: the capped reports too).
func TestExploreReportJSONAsEncodingJSON(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		s, err := OpenBuiltin(name)
		require.NoError(t, err)
		for _, budget := range []int{50, 2000} {
			r, err := s.Explore(budget)
			require.NoError(t, err)
			wiretest.AsEncoder(t, r, r.AppendJSON(nil), "%s explored within %d states", name, budget)
		}
	}
}

// Values with every field set at random: a key added to a type and not to its AppendJSON fails.
func TestAppendJSONAsEncodingJSON(t *testing.T) {
	wiretest.CheckFilled(t, 2, func(x *[]StepForm, b []byte) []byte { return AppendJSONStepForms(b, *x) })
	wiretest.CheckFilled(t, 3, (*Export).AppendJSON)
	wiretest.CheckFilled(t, 4, (*ExploreReport).AppendJSON)
	wiretest.CheckFilled(t, 5, (*ExploreOutcome).AppendJSON)
	wiretest.CheckFilled(t, 6, (*Comparison).AppendJSON)
}

// appendStepJSON writes what json.Marshal wrote of the steps FormatForm makes.
func TestAppendStepJSONAsMarshal(t *testing.T) {
	for _, v := range []any{
		map[string]any{"barrier": map[string]any{"epoch": int64(9), "start_backfill": []int64{7, 8}, "checkpoint": false}},
		map[string]any{"barrier": map[string]any{"epoch": int64(1), "rescale": true, "mutation": "pause"}},
		map[string]any{"barrier": map[string]any{"epoch": int64(1), "mutation": map[string]any{"throttle": int64(100)}}},
		map[string]any{"barrier": map[string]any{"epoch": int64(2), "start_backfill": []int64{}}},
		map[string]any{"chunk": []string{"+ 1 <2>", "- 3 'x & y'"}},
		map[string]any{"watermark": map[string]any{"column": "a", "value": int64(-7)}},
		map[string]any{"watermark": map[string]any{"column": "s", "value": "\u2028 ✓"}},
		map[string]any{"snapshot": int64(3)},
		map[string]any{"error": "boom \"quoted\""},
		map[string]any{"end": nil},
	} {
		want, err := json.Marshal(v)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendStepJSON(nil, v)))
	}
	assert.Panics(t, func() { appendStepJSON(nil, 1.5) })
}
