package session

import (
	"fmt"
	"strconv"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw"
	"github.com/backfill-explainer/explainer/wire"
)

// The JSON of what the page gets from a session, written by hand as the engine's is
// (wire/json.go): byte for byte as the bridge's encoding/json Encoder wrote it (no HTML
// escaping), keys in field order; json_test.go checks every type against encoding/json.

// AppendJSON writes an injection form.
func (f *StepForm) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"kind":`, f.Kind)
	b = jsonw.KeyString(b, `,"label":`, f.Label)
	b = jsonw.KeyString(b, `,"hint":`, f.Hint)
	b = jsonw.Key(b, `,"fields":`)
	b = jsonw.List(b, f.Fields, (*FormField).AppendJSON)
	return append(b, '}')
}

// AppendJSONStepForms writes the injection forms (StepForms).
func AppendJSONStepForms(b []byte, forms []StepForm) []byte {
	return jsonw.List(b, forms, (*StepForm).AppendJSON)
}

// AppendJSON writes a form's field.
func (f *FormField) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"name":`, f.Name)
	b = jsonw.KeyString(b, `,"label":`, f.Label)
	b = jsonw.KeyString(b, `,"type":`, f.Type)
	b = jsonw.Key(b, `,"default":`)
	b = wire.AppendAny(b, f.Default, false)
	if len(f.Options) > 0 {
		b = jsonw.Key(b, `,"options":`)
		b = jsonw.List(b, f.Options, (*FormOption).AppendJSON)
	}
	if f.Placeholder != "" {
		b = jsonw.KeyString(b, `,"placeholder":`, f.Placeholder)
	}
	if f.Hint != "" {
		b = jsonw.KeyString(b, `,"hint":`, f.Hint)
	}
	if f.When != nil {
		b = jsonw.KeyString(b, `,"when":{"field":`, f.When.Field)
		b = jsonw.KeyString(b, `,"value":`, f.When.Value)
		b = append(b, '}')
	}
	return append(b, '}')
}

// AppendJSON writes a choice's option.
func (o *FormOption) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"value":`, o.Value)
	b = jsonw.KeyString(b, `,"label":`, o.Label)
	return append(b, '}')
}

// AppendJSON writes the export: the scenario file, the traces and the positions.
func (e *Export) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"scenario":`, e.Scenario)
	b = jsonw.Key(b, `,"trace":`)
	b = wire.AppendTrace(b, &e.Trace)
	b = jsonw.Key(b, `,"positions":`)
	b = jsonw.Ints(b, e.Positions)
	b = jsonw.Key(b, `,"whole_trace":`)
	b = wire.AppendTrace(b, &e.Whole)
	return append(b, '}')
}

// AppendJSON writes the explorer's report: the exploration's keys (its outcomes replaced by
// the report's, as encoding/json writes a struct that embeds another), then the outcomes.
func (r *ExploreReport) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	if r.Exploration != nil {
		b = r.Exploration.AppendJSONFields(b)
		b = append(b, ',')
	}
	b = jsonw.Key(b, `"outcomes":`)
	b = jsonw.List(b, r.Outcomes, (*ExploreOutcome).AppendJSON)
	return append(b, '}')
}

// AppendJSON writes an outcome with its example and how it differs.
func (o *ExploreOutcome) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	b = o.Outcome.AppendJSONFields(b)
	b = jsonw.KeyString(b, `,"example":`, o.Example)
	b = jsonw.Key(b, `,"diff":`)
	b = o.Diff.AppendJSON(b)
	return append(b, '}')
}

// AppendJSON writes how an outcome differs from another.
func (d *OutcomeDiff) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"versus":`, int64(d.Versus))
	b = jsonw.KeyBool(b, `,"finished":`, d.Finished)
	b = jsonw.Key(b, `,"positions":`)
	b = jsonw.Strings(b, d.Positions)
	b = jsonw.Key(b, `,"differs":`)
	b = jsonw.Strings(b, d.Differs)
	b = jsonw.Key(b, `,"only_here":`)
	b = appendRows(b, d.OnlyHere)
	b = jsonw.Key(b, `,"not_here":`)
	b = appendRows(b, d.NotHere)
	return append(b, '}')
}

// AppendJSON writes a comparison of two runs.
func (c *Comparison) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"left":`, c.Left)
	b = jsonw.KeyString(b, `,"right":`, c.Right)
	b = jsonw.Key(b, `,"rows":`)
	b = jsonw.List(b, c.Rows, (*CompareRow).AppendJSON)
	return append(b, '}')
}

// AppendJSON writes a step of a comparison.
func (r *CompareRow) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"step":`, int64(r.Step))
	b = jsonw.Key(b, `,"left":`)
	b = r.Left.AppendJSON(b)
	b = jsonw.Key(b, `,"right":`)
	b = r.Right.AppendJSON(b)
	b = jsonw.KeyBool(b, `,"outputs_differ":`, r.OutputsDiffer)
	b = jsonw.KeyBool(b, `,"progress_differs":`, r.ProgressDiffers)
	b = jsonw.KeyBool(b, `,"downstream_differs":`, r.DownstreamDiffers)
	b = jsonw.Key(b, `,"only_left":`)
	b = appendRows(b, r.OnlyLeft)
	b = jsonw.Key(b, `,"only_right":`)
	b = appendRows(b, r.OnlyRight)
	return append(b, '}')
}

// AppendJSON writes one side of a step of a comparison.
func (s *CompareSide) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"step":`, s.Step)
	b = jsonw.Key(b, `,"outputs":`)
	b = jsonw.Strings(b, s.Outputs)
	b = jsonw.Key(b, `,"progress":`)
	b = jsonw.Strings(b, s.Progress)
	b = jsonw.KeyInt(b, `,"downstream":`, int64(s.Downstream))
	b = jsonw.KeyString(b, `,"invariant":`, s.Invariant)
	b = jsonw.KeyString(b, `,"phase":`, s.Phase)
	b = jsonw.KeyString(b, `,"error":`, s.Error)
	return append(b, '}')
}

func appendRows(b []byte, rows []engine.Row) []byte {
	return jsonw.List(b, rows, func(r *engine.Row, b []byte) []byte { return r.AppendJSON(b) })
}

// appendStepJSON writes a step FormatForm made (what json.Marshal wrote of it: map keys sorted,
// HTML escaped), for the parser to read back: nil, bool, int64, string, []int64, []string and
// map[string]any of them. Any other type is a programming error: it panics, naming it.
func appendStepJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return jsonw.Bool(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case string:
		return jsonw.StringHTML(b, x)
	case []int64:
		return jsonw.Int64s(b, x)
	case []string:
		if x == nil {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonw.StringHTML(b, s)
		}
		return append(b, ']')
	case map[string]any:
		return jsonw.Map(b, x, jsonw.StringHTML, appendStepJSON)
	}
	panic(fmt.Sprintf("scenarios: appendStepJSON cannot write a %T", v))
}
