package wire

import (
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/internal/jsonw/jsontest"
	"github.com/backfill-explainer/explainer/view"
	"github.com/backfill-explainer/explainer/wire/wiretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/workload"
)

func TestAppendJSONAsEncodingJSON(t *testing.T) {
	wiretest.CheckAsEncoder(t, "View", func(x *view.View, b []byte) []byte { return AppendView(b, x) })
	wiretest.CheckAsEncoder(t, "Trace", func(x *engine.Trace, b []byte) []byte { return AppendTrace(b, x) })
	wiretest.CheckAsEncoder(t, "Invariant", func(x *engine.Invariant, b []byte) []byte { return AppendInvariant(b, x) })
	wiretest.CheckAsEncoder(t, "FailureView", func(x *failure.FailureView, b []byte) []byte { return AppendFailureView(b, x) })
	wiretest.CheckAsEncoder(t, "Prediction", func(x *view.Prediction, b []byte) []byte { return AppendPrediction(b, x) })
	wiretest.CheckAsEncoder(t, "[]Action", func(a *[]view.Action, b []byte) []byte { return AppendJSONActions(b, *a) })
	wiretest.CheckAsEncoder(t, "[]BugInfo", func(x *[]engine.BugInfo, b []byte) []byte { return AppendJSONBugs(b, *x) })
	wiretest.CheckAsEncoder(t, "[]GlossaryEntry", func(x *[]glossary.GlossaryEntry, b []byte) []byte { return glossary.AppendJSONGlossary(b, *x) })
	wiretest.CheckAsEncoder(t, "map[string]string", func(x *map[string]string, b []byte) []byte { return glossary.AppendJSONLegend(b, *x) })
}

// The tables the page asks for at start-up, as they are.
func TestTablesAsEncodingJSON(t *testing.T) {
	for name, c := range map[string]struct {
		v   any
		got []byte
	}{
		"Bugs":     {engine.Bugs, AppendJSONBugs(nil, engine.Bugs)},
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
	f := wiretest.Fill(11)
	for i := range 300 {
		var s workload.ScaleSummary
		f.Fill(&s)
		want, err := jsontest.Marshal(&s)
		require.NoError(t, err)
		require.Equal(t, want, string(AppendScaleSummary(nil, &s)), "#%d", i)
		got, err := ScaleSummaryJSON(&s)
		require.NoError(t, err)
		assert.Equal(t, string(indentShallow([]byte(want))), string(got))
	}
}

func TestAppendAnyRefusesWhatItCannotWrite(t *testing.T) {
	assert.PanicsWithValue(t, "engine: AppendAny cannot write a struct {}", func() { AppendAny(nil, struct{}{}, false) })
	assert.Equal(t, `[null,true,1,2,3,4,0.5,"<",-1,[7]]`, string(AppendAny(nil, []any{nil, true, 1, int64(2), int32(3), uint64(4), 0.5, "<", engine.Int(-1), engine.Row{engine.Int(7)}}, false)))
	assert.Equal(t, `"\u003c"`, string(AppendAny(nil, "<", true)))
}
