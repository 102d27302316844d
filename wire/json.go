// Package wire writes the JSON the bridge and the command line answer with: the model's
// views, traces, failures and tables (package engine's types) as functions, byte for byte as
// encoding/json writes them.
package wire

import (
	"fmt"
	"strconv"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw"
)

// The engine's JSON, written by jsonw.Value from the types' json tags (no encoding/json in the
// wasm), byte for byte as encoding/json writes it (json_test.go here and session's check both,
// on every built-in and on values with every field set). A value, a row, an output and a fault
// kind write themselves (their AppendJSON methods in engine/json.go). A field added to a type
// needs nothing here.
//
// Strings are written as the bridge's Encoder writes them (no HTML escaping), except where the
// old encoding went through json.Marshal and so escaped <, > and &: a row's values (Value,
// Row), an output (Output), the scale summary and the explorer's outcome key. Escaped or not,
// the page reads the same string.

// AppendRows writes a list of rows (nil: null).
func AppendRows(b []byte, rows []engine.Row) []byte { return jsonw.Value(b, &rows, false) }

// AppendAny writes the values a view gives as tuples ([]any: a progress table's rows) and a
// form's defaults: nil, bool, the integers, float64, string (escaped as json.Marshal escapes it
// when html), Value and Row. Any other type is a programming error: it panics, naming it.
func AppendAny(b []byte, v any, html bool) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return jsonw.Bool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case float64:
		return jsonw.Float(b, x)
	case string:
		if html {
			return jsonw.StringHTML(b, x)
		}
		return jsonw.String(b, x)
	case engine.Value:
		return x.AppendJSON(b)
	case engine.Row:
		return x.AppendJSON(b)
	case []any:
		return appendTuple(b, x, html)
	}
	panic(fmt.Sprintf("engine: AppendAny cannot write a %T", v))
}

func appendTuple(b []byte, t []any, html bool) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range t {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendAny(b, v, html)
	}
	return append(b, ']')
}

// AppendTuples writes a table given as tuples (a progress table's rows).
func AppendTuples(b []byte, rows [][]any, html bool) []byte { return jsonw.Value(b, &rows, html) }

// AppendJSONOutputs appends a list of outputs (the bridge's answer to `outputs`).
func AppendJSONOutputs(b []byte, outs []engine.Output) []byte { return jsonw.Value(b, &outs, false) }

// AppendView writes the view (docs/view.md).
func AppendView(b []byte, v *engine.View) []byte { return jsonw.Value(b, v, false) }

// AppendInvariant writes the invariant's last check.
func AppendInvariant(b []byte, inv *engine.Invariant) []byte { return jsonw.Value(b, inv, false) }

// AppendFailure writes the error that stopped the executor (null when there is none).
func AppendFailure(b []byte, f *engine.Failure) []byte { return jsonw.Value(b, f, false) }

// AppendFailureHTML writes the failure with its strings escaped as json.Marshal escapes them.
func AppendFailureHTML(b []byte, f *engine.Failure) []byte { return jsonw.Value(b, f, true) }

// AppendFailureView writes a failure's explanation (null when there is none).
func AppendFailureView(b []byte, f *engine.FailureView) []byte { return jsonw.Value(b, f, false) }

// AppendPrediction writes the next barrier that marks the buffer (null when none comes).
func AppendPrediction(b []byte, p *engine.Prediction) []byte { return jsonw.Value(b, p, false) }

// AppendChanged writes which panels the last step changed.
func AppendChanged(b []byte, c *engine.Changed) []byte { return jsonw.Value(b, c, false) }

// AppendChangedVnodes writes the vnodes whose part of each panel changed.
func AppendChangedVnodes(b []byte, c *engine.ChangedVnodes) []byte { return jsonw.Value(b, c, false) }

// AppendJSONActions writes a list of actions (nil: null).
func AppendJSONActions(b []byte, actions []engine.Action) []byte {
	return jsonw.Value(b, &actions, false)
}

// AppendJSONBugs writes the list of bug modes (Bugs).
func AppendJSONBugs(b []byte, bugs []engine.BugInfo) []byte { return jsonw.Value(b, &bugs, false) }

// AppendMarks writes the timeline's marks.
func AppendMarks(b []byte, marks []engine.Mark) []byte { return jsonw.Value(b, &marks, false) }

// AppendCodeLines writes code-map lines (the bridge's answer to `code_map`).
func AppendCodeLines(b []byte, lines []engine.CodeLine) []byte {
	return jsonw.Value(b, &lines, false)
}

// AppendTrace writes the trace contract's object (the page's state()).
func AppendTrace(b []byte, t *engine.Trace) []byte { return jsonw.Value(b, t, false) }

// AppendScaleSummary writes the summary as compact JSON, escaped as json.Marshal escapes it
// (`backfill run --json` prints it; ScaleSummaryJSON indents it).
func AppendScaleSummary(b []byte, s *engine.ScaleSummary) []byte { return jsonw.Value(b, s, true) }
