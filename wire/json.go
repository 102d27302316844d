// Package wire writes the JSON the bridge and the command line answer with: the model's
// views, traces, failures and tables (package engine's types) as functions, byte for byte as
// encoding/json writes them.
package wire

import (
	"fmt"
	"strconv"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw"
	"github.com/backfill-explainer/explainer/view"
)

//go:generate go run ../internal/tools/jsongen -o json_gen.go

// The engine's JSON, without reflection or encoding/json in the wasm: every struct the page
// gets has its Append function in json_gen.go, generated from the json tags (go generate
// ./wire; internal/tools/jsongen), byte for byte as encoding/json writes it (json_test.go here
// and session's check both, on every built-in and on values with every field set). A field
// added to a type needs only `go generate ./wire`. A value, a row, an output and a fault kind
// write themselves (their AppendJSON methods in engine/json.go, for their MarshalJSON); the
// lists, tuples and any-values are written here.
//
// Strings are written as the bridge's Encoder writes them (jsonw.String: no HTML escaping),
// except where the old encoding went through json.Marshal and so escaped <, > and &: a row's
// values (Value, Row), an output (Output), the scale summary and the explorer's outcome key.
// Escaped or not, the page reads the same string.

// AppendRows writes a list of rows (nil: null).
func AppendRows(b []byte, rows []engine.Row) []byte {
	if rows == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.AppendJSON(b)
	}
	return append(b, ']')
}

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
func AppendTuples(b []byte, rows [][]any, html bool) []byte {
	if rows == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, t := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTuple(b, t, html)
	}
	return append(b, ']')
}

// AppendJSONOutputs appends a list of outputs (the bridge's answer to `outputs`).
func AppendJSONOutputs(b []byte, outs []engine.Output) []byte {
	return jsonw.List(b, outs, (*engine.Output).AppendJSON)
}

// AppendJSONActions writes a list of actions (nil: null).
func AppendJSONActions(b []byte, actions []view.Action) []byte {
	return jsonw.Each(b, len(actions), actions == nil, func(b []byte, i int) []byte { return AppendAction(b, &actions[i]) })
}

// AppendJSONBugs writes the list of bug modes (Bugs).
func AppendJSONBugs(b []byte, bugs []engine.BugInfo) []byte {
	return jsonw.Each(b, len(bugs), bugs == nil, func(b []byte, i int) []byte { return AppendBugInfo(b, &bugs[i]) })
}

// AppendCodeLines writes code-map lines (the bridge's answer to `code_map`).
func AppendCodeLines(b []byte, lines []view.CodeLine) []byte {
	return jsonw.Each(b, len(lines), lines == nil, func(b []byte, i int) []byte { return AppendCodeLine(b, &lines[i]) })
}

// AppendMarks writes the timeline's marks.
func AppendMarks(b []byte, marks []engine.Mark) []byte {
	return jsonw.Each(b, len(marks), marks == nil, func(b []byte, i int) []byte { return AppendMark(b, &marks[i]) })
}
