package scenarios

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw/jsontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asEncoder checks a hand-written encoding against the bridge's encoding/json Encoder.
func asEncoder(t *testing.T, v any, got []byte, what string, args ...any) bool {
	t.Helper()
	want, err := jsontest.Encoder(v)
	require.NoError(t, err)
	return assert.Equal(t, want, string(got), append([]any{what}, args...)...)
}

func TestListsAsEncodingJSON(t *testing.T) {
	b := Builtins()
	asEncoder(t, b, AppendJSONInfos(nil, b), "builtins")
	w := Workloads()
	asEncoder(t, w, AppendJSONInfos(nil, w), "workloads")
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
	checkFilled(t, 1, func(x *[]Info, b []byte) []byte { return AppendJSONInfos(b, *x) })
}
