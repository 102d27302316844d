package session

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw/jsontest"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/wire"
)

// asEncoder checks a hand-written encoding against the bridge's encoding/json Encoder.
func asEncoder(t *testing.T, v any, got []byte, what string, args ...any) bool {
	t.Helper()
	want, err := jsontest.Encoder(v)
	require.NoError(t, err)
	return assert.Equal(t, want, string(got), append([]any{what}, args...)...)
}

// Every view, trace and action list of every built-in, as written and under every bug mode, at
// every step; the export, the forms and a comparison at the end.
func TestSessionJSONAsEncodingJSON(t *testing.T) {
	everyRun(t, func(t *testing.T, s *Session) {
		for {
			v := s.View()
			if !asEncoder(t, v, wire.AppendView(nil, v), "view at step %d", v.Step) {
				return
			}
			tr := s.Trace()
			asEncoder(t, tr, wire.AppendTrace(nil, &tr), "trace at step %d", v.Step)
			as := s.Actions()
			asEncoder(t, as, wire.AppendJSONActions(nil, as), "actions at step %d", v.Step)
			if s.tl.Pos() == s.Steps() {
				break
			}
			require.NoError(t, s.Step())
		}
		ex := s.Export()
		asEncoder(t, ex, ex.AppendJSON(nil), "export")
		forms := s.StepForms()
		asEncoder(t, forms, AppendJSONStepForms(nil, forms), "step forms")
		c, err := s.CompareBug("no-state-write")
		require.NoError(t, err)
		asEncoder(t, c, c.AppendJSON(nil), "comparison")
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
			asEncoder(t, r, r.AppendJSON(nil), "%s explored within %d states", name, budget)
		}
	}
}

func randomValue(r *rand.Rand) engine.Value {
	switch r.IntN(3) {
	case 0:
		return engine.Null()
	case 1:
		return engine.Str(jsontest.Strings[r.IntN(len(jsontest.Strings))])
	}
	return engine.Int(int64(r.IntN(2000)) - 1000)
}

func filler(seed uint64) *jsontest.Filler {
	f := jsontest.New(seed)
	f.Special[reflect.TypeFor[engine.Value]()] = func(r *rand.Rand) any { return randomValue(r) }
	f.Special[reflect.TypeFor[engine.Row]()] = func(r *rand.Rand) any {
		if r.IntN(5) == 0 {
			return nil
		}
		row := make(engine.Row, r.IntN(3))
		for i := range row {
			row[i] = randomValue(r)
		}
		return row
	}
	f.Special[reflect.TypeFor[[]any]()] = func(r *rand.Rand) any { return []any{r.IntN(9), randomValue(r), true, int64(r.IntN(99))} }
	f.Special[reflect.TypeFor[any]()] = func(r *rand.Rand) any { // a form field's default
		return []any{nil, int64(r.IntN(99)), r.IntN(99), "text <x>", r.IntN(2) == 0}[r.IntN(5)]
	}
	return f
}

func checkFilled[T any](t *testing.T, seed uint64, appendJSON func(*T, []byte) []byte) {
	t.Helper()
	f := filler(seed)
	for i := range 300 {
		var v T
		f.Fill(&v)
		if !asEncoder(t, &v, appendJSON(&v, nil), "%T #%d", v, i) {
			return
		}
	}
}

// Values with every field set at random: a key added to a type and not to its AppendJSON fails.
func TestAppendJSONAsEncodingJSON(t *testing.T) {
	checkFilled(t, 2, func(x *[]StepForm, b []byte) []byte { return AppendJSONStepForms(b, *x) })
	checkFilled(t, 3, (*Export).AppendJSON)
	checkFilled(t, 4, (*ExploreReport).AppendJSON)
	checkFilled(t, 5, (*ExploreOutcome).AppendJSON)
	checkFilled(t, 6, (*Comparison).AppendJSON)
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
