package engine

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/internal/jsonw/jsontest"
)

// ---- the encodings as they were, with encoding/json, to check the hand-written ones against ----

// oldRow is Row with Row's MarshalJSON as it was: integers as numbers, strings by json.Marshal.
type oldRow Row

func (r oldRow) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	out := []byte{'['}
	for i, v := range r {
		if i > 0 {
			out = append(out, ',')
		}
		b, err := oldValue(v).MarshalJSON()
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return append(out, ']'), nil
}

// oldValue is Value with Value's MarshalJSON as it was.
type oldValue Value

func (v oldValue) MarshalJSON() ([]byte, error) {
	switch v.Kind {
	case KindInt:
		return json.Marshal(v.I)
	case KindStr:
		return json.Marshal(v.S)
	}
	return []byte("null"), nil
}

type oldOutRow struct {
	Op      string `json:"op"`
	Values  oldRow `json:"values"`
	Visible bool   `json:"visible"`
	Vnode   int    `json:"vnode"`
	Why     string `json:"why,omitempty"`
}

// oldOutput is Output's MarshalJSON as it was.
func oldOutput(o Output) ([]byte, error) {
	switch o.Type {
	case OutBarrier:
		return json.Marshal(struct {
			Type       string `json:"type"`
			Epoch      int64  `json:"epoch"`
			Checkpoint bool   `json:"checkpoint"`
			Step       int    `json:"step"`
		}{"barrier", o.Epoch, o.Checkpoint, o.Step})
	case OutChunk:
		rows := make([]oldOutRow, len(o.Rows))
		for i, r := range o.Rows {
			rows[i] = oldOutRow{r.Op.String(), oldRow(r.Row), r.Visible, r.Vnode, r.Why}
		}
		return json.Marshal(struct {
			Type   string      `json:"type"`
			Rows   []oldOutRow `json:"rows"`
			Step   int         `json:"step"`
			Source string      `json:"source"`
		}{"chunk", rows, o.Step, o.Source})
	case OutWatermark:
		return json.Marshal(struct {
			Type   string   `json:"type"`
			Column string   `json:"column"`
			Value  oldValue `json:"value"`
			Step   int      `json:"step"`
		}{"watermark", o.Column, oldValue(o.Value), o.Step})
	}
	return json.Marshal(struct {
		Type  string `json:"type"`
		Epoch int64  `json:"epoch"`
		Step  int    `json:"step"`
	}{"recovery", o.Epoch, o.Step})
}

// ---- random values ----

func randomValue(r *rand.Rand) Value {
	switch r.IntN(4) {
	case 0:
		return Null()
	case 1:
		return Str(jsontest.Strings[r.IntN(len(jsontest.Strings))])
	}
	return Int(int64(r.IntN(2000)) - 1000)
}

func randomRow(r *rand.Rand) Row {
	if r.IntN(6) == 0 {
		return nil
	}
	row := make(Row, r.IntN(4))
	for i := range row {
		row[i] = randomValue(r)
	}
	return row
}

// filler fills the engine's types: values and rows of every kind, progress-table tuples of the
// types they hold (int, Value, bool, int64), fault kinds that exist.
func filler(seed uint64) *jsontest.Filler {
	f := jsontest.New(seed)
	f.Special[reflect.TypeFor[Value]()] = func(r *rand.Rand) any { return randomValue(r) }
	f.Special[reflect.TypeFor[Row]()] = func(r *rand.Rand) any { return randomRow(r) }
	f.Special[reflect.TypeFor[FaultKind]()] = func(r *rand.Rand) any { return FaultKind(r.IntN(len(FaultKinds))) }
	f.Special[reflect.TypeFor[[]any]()] = func(r *rand.Rand) any {
		if r.IntN(8) == 0 {
			return nil
		}
		t := []any{r.IntN(256)}
		for i := r.IntN(3); i > 0; i-- {
			t = append(t, randomValue(r))
		}
		return append(t, r.IntN(2) == 0, int64(r.IntN(1e6)))
	}
	return f
}

// ---- the tests ----

func TestValueRowOutputAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		v := randomValue(r)
		want, err := oldValue(v).MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, string(want), string(v.AppendJSON(nil)))
		row := randomRow(r)
		want, err = oldRow(row).MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, string(want), string(row.AppendJSON(nil)))
	}
	f := filler(9)
	for range 2000 {
		var o Output
		f.Fill(&o)
		o.Type %= 5 // every kind, and one past them (written as a recovery, as before)
		want, err := oldOutput(o)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(o.AppendJSON(nil)), "%+v", o)
		got, err := json.Marshal(o)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "MarshalJSON, for the command line")
	}
}

// encoderCase is a type the bridge answers with, written by AppendJSON: it must match the
// bridge's encoding/json Encoder (no HTML escaping) on values with every field set at random.
func checkAsEncoder[T any](t *testing.T, name string, appendJSON func(*T, []byte) []byte) {
	t.Helper()
	f := filler(uint64(len(name)))
	for i := range 300 {
		var v T
		f.Fill(&v)
		want, err := jsontest.Encoder(&v)
		require.NoError(t, err)
		if !assert.Equal(t, want, string(appendJSON(&v, nil)), "%s #%d", name, i) {
			return
		}
	}
}

func TestAppendJSONAsEncodingJSON(t *testing.T) {
	checkAsEncoder(t, "View", (*View).AppendJSON)
	checkAsEncoder(t, "Trace", (*Trace).AppendJSON)
	checkAsEncoder(t, "Invariant", (*Invariant).AppendJSON)
	checkAsEncoder(t, "FailureView", (*FailureView).AppendJSON)
	checkAsEncoder(t, "Prediction", (*Prediction).AppendJSON)
	checkAsEncoder(t, "[]Action", func(a *[]Action, b []byte) []byte { return AppendJSONActions(b, *a) })
	checkAsEncoder(t, "[]BugInfo", func(x *[]BugInfo, b []byte) []byte { return AppendJSONBugs(b, *x) })
	checkAsEncoder(t, "[]GlossaryEntry", func(x *[]glossary.GlossaryEntry, b []byte) []byte { return glossary.AppendJSONGlossary(b, *x) })
	checkAsEncoder(t, "map[string]string", func(x *map[string]string, b []byte) []byte { return glossary.AppendJSONLegend(b, *x) })
}

// The tables the page asks for at start-up, as they are.
func TestTablesAsEncodingJSON(t *testing.T) {
	for name, c := range map[string]struct {
		v   any
		got []byte
	}{
		"Bugs":     {Bugs, AppendJSONBugs(nil, Bugs)},
		"Glossary": {glossary.Glossary, glossary.AppendJSONGlossary(nil, glossary.Glossary)},
		"Legend":   {glossary.Legend, glossary.AppendJSONLegend(nil, glossary.Legend)},
	} {
		want, err := jsontest.Encoder(c.v)
		require.NoError(t, err)
		assert.Equal(t, want, string(c.got), name)
	}
}

// The scale summary is written as json.Marshal wrote it (escaping HTML), then indented.
func TestScaleSummaryAsMarshal(t *testing.T) {
	f := filler(11)
	for i := range 300 {
		var s ScaleSummary
		f.Fill(&s)
		want, err := jsontest.Marshal(&s)
		require.NoError(t, err)
		require.Equal(t, want, string(s.AppendJSON(nil)), "#%d", i)
		got, err := s.JSON()
		require.NoError(t, err)
		assert.Equal(t, string(indentShallow([]byte(want))), string(got))
	}
}

func oldRows(rows []Row) []oldRow {
	if rows == nil {
		return nil
	}
	out := make([]oldRow, len(rows))
	for i, r := range rows {
		out[i] = oldRow(r)
	}
	return out
}

func oldTuples(ts [][]any) [][]any {
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
			if v, ok := x.(Value); ok {
				x = oldValue(v)
			}
			out[i][j] = x
		}
	}
	return out
}

func TestAppendAnyRefusesWhatItCannotWrite(t *testing.T) {
	assert.PanicsWithValue(t, "engine: AppendAny cannot write a struct {}", func() { AppendAny(nil, struct{}{}, false) })
	assert.Equal(t, `[null,true,1,2,3,4,0.5,"<",-1,[7]]`, string(AppendAny(nil, []any{nil, true, 1, int64(2), int32(3), uint64(4), 0.5, "<", Int(-1), Row{Int(7)}}, false)))
	assert.Equal(t, `"\u003c"`, string(AppendAny(nil, "<", true)))
}
