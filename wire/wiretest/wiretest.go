// Package wiretest holds what the tests of the model's JSON share: a filler of the model's
// types and their encodings as they were with encoding/json, to check the hand-written ones
// against.
package wiretest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw/jsontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/workload"
)

// ---- the encodings as they were, with encoding/json, to check the hand-written ones against ----

// OldRow is Row with Row's MarshalJSON as it was: integers as numbers, strings by json.Marshal.
type OldRow engine.Row

// MarshalJSON writes the row as Row's MarshalJSON did.
func (r OldRow) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	out := []byte{'['}
	for i, v := range r {
		if i > 0 {
			out = append(out, ',')
		}
		b, err := OldValue(v).MarshalJSON()
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return append(out, ']'), nil
}

// OldValue is Value with Value's MarshalJSON as it was.
type OldValue engine.Value

// MarshalJSON writes the value as Value's MarshalJSON did.
func (v OldValue) MarshalJSON() ([]byte, error) {
	switch v.Kind {
	case engine.KindInt:
		return json.Marshal(v.I)
	case engine.KindStr:
		return json.Marshal(v.S)
	}
	return []byte("null"), nil
}

type OldOutRow struct {
	Op      string `json:"op"`
	Values  OldRow `json:"values"`
	Visible bool   `json:"visible"`
	Vnode   int    `json:"vnode"`
	Why     string `json:"why,omitempty"`
}

// OldOutput is Output's MarshalJSON as it was.
func OldOutput(o engine.Output) ([]byte, error) {
	switch o.Type {
	case engine.OutBarrier:
		return json.Marshal(struct {
			Type       string `json:"type"`
			Epoch      int64  `json:"epoch"`
			Checkpoint bool   `json:"checkpoint"`
			Step       int    `json:"step"`
		}{"barrier", o.Epoch, o.Checkpoint, o.Step})
	case engine.OutChunk:
		rows := make([]OldOutRow, len(o.Rows))
		for i, r := range o.Rows {
			rows[i] = OldOutRow{r.Op.String(), OldRow(r.Row), r.Visible, r.Vnode, r.Why}
		}
		return json.Marshal(struct {
			Type   string      `json:"type"`
			Rows   []OldOutRow `json:"rows"`
			Step   int         `json:"step"`
			Source string      `json:"source"`
		}{"chunk", rows, o.Step, o.Source})
	case engine.OutWatermark:
		return json.Marshal(struct {
			Type   string   `json:"type"`
			Column string   `json:"column"`
			Value  OldValue `json:"value"`
			Step   int      `json:"step"`
		}{"watermark", o.Column, OldValue(o.Value), o.Step})
	}
	return json.Marshal(struct {
		Type  string `json:"type"`
		Epoch int64  `json:"epoch"`
		Step  int    `json:"step"`
	}{"recovery", o.Epoch, o.Step})
}

// ---- random values ----

func RandomValue(r *rand.Rand) engine.Value {
	switch r.IntN(4) {
	case 0:
		return engine.Null()
	case 1:
		return engine.Str(jsontest.Strings[r.IntN(len(jsontest.Strings))])
	}
	return engine.Int(int64(r.IntN(2000)) - 1000)
}

func RandomRow(r *rand.Rand) engine.Row {
	if r.IntN(6) == 0 {
		return nil
	}
	row := make(engine.Row, r.IntN(4))
	for i := range row {
		row[i] = RandomValue(r)
	}
	return row
}

// Fill fills the engine's types: values and rows of every kind, progress-table tuples of the
// types they hold (int, Value, bool, int64), fault kinds that exist.
func Fill(seed uint64) *jsontest.Filler {
	f := jsontest.New(seed)
	f.Special[reflect.TypeFor[engine.Value]()] = func(r *rand.Rand) any { return RandomValue(r) }
	f.Special[reflect.TypeFor[engine.Row]()] = func(r *rand.Rand) any { return RandomRow(r) }
	f.Special[reflect.TypeFor[workload.FaultKind]()] = func(r *rand.Rand) any { return workload.FaultKind(r.IntN(len(workload.FaultKinds))) }
	f.Special[reflect.TypeFor[[]any]()] = func(r *rand.Rand) any {
		if r.IntN(8) == 0 {
			return nil
		}
		t := []any{r.IntN(256)}
		for i := r.IntN(3); i > 0; i-- {
			t = append(t, RandomValue(r))
		}
		return append(t, r.IntN(2) == 0, int64(r.IntN(1e6)))
	}
	f.Special[reflect.TypeFor[any]()] = func(r *rand.Rand) any { // a form field's default
		return []any{nil, int64(r.IntN(99)), r.IntN(99), "text <x>", r.IntN(2) == 0}[r.IntN(5)]
	}
	return f
}

func OldRows(rows []engine.Row) []OldRow {
	if rows == nil {
		return nil
	}
	out := make([]OldRow, len(rows))
	for i, r := range rows {
		out[i] = OldRow(r)
	}
	return out
}

func OldTuples(ts [][]any) [][]any {
	if ts == nil {
		return nil
	}
	out := make([][]any, len(ts))
	for i, t := range ts {
		if t == nil {
			continue
		}
		out[i] = make([]any, len(t))
		for j, x := range t {
			if v, ok := x.(engine.Value); ok {
				x = OldValue(v)
			}
			out[i][j] = x
		}
	}
	return out
}

// AsEncoder checks a hand-written encoding, got, of v against the bridge's encoding/json Encoder
// (no HTML escaping); what and args say which value failed.
func AsEncoder(t *testing.T, v any, got []byte, what string, args ...any) bool {
	t.Helper()
	want, err := jsontest.Encoder(v)
	require.NoError(t, err)
	return assert.Equal(t, want, string(got), append([]any{what}, args...)...)
}

// CheckAsEncoder: a type the bridge answers with, written by AppendJSON, must match the
// bridge's encoding/json Encoder on values with every field set at random (seeded by name).
func CheckAsEncoder[T any](t *testing.T, name string, appendJSON func(*T, []byte) []byte) {
	t.Helper()
	checkFilled(t, Fill(uint64(len(name))), name, appendJSON)
}

// CheckFilled is CheckAsEncoder seeded by seed.
func CheckFilled[T any](t *testing.T, seed uint64, appendJSON func(*T, []byte) []byte) {
	t.Helper()
	checkFilled(t, Fill(seed), fmt.Sprintf("%T", *new(T)), appendJSON)
}

func checkFilled[T any](t *testing.T, f *jsontest.Filler, name string, appendJSON func(*T, []byte) []byte) {
	t.Helper()
	for i := range 300 {
		var v T
		f.Fill(&v)
		if !AsEncoder(t, &v, appendJSON(&v, nil), "%s #%d", name, i) {
			return
		}
	}
}
