//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
	"github.com/backfill-explainer/explainer/wire"
)

// oldOK is the answer the bridge gave when it encoded results with encoding/json.
func oldOK(t *testing.T, result any) string {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString(`{"ok":`)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(result))
	buf.Truncate(buf.Len() - 1)
	buf.WriteByte('}')
	return buf.String()
}

// The bridge's answers, byte for byte as encoding/json wrote them: every step of every built-in
// (its view), then its state, actions, export, forms, and the tables, in the wasm.
func TestAnswersAsEncodingJSON(t *testing.T) {
	b := &bridge{}
	assert.Equal(t, oldOK(t, scenarios.Builtins()), b.call("scenarios", ""))
	assert.Equal(t, oldOK(t, engine.Bugs), b.call("bugs", ""))
	legend := maps.Clone(glossary.Legend) // with the engine's pill for each kind of step
	maps.Copy(legend, view.EventLegend())
	assert.Equal(t, oldOK(t, legend), b.call("legend", ""))
	assert.Equal(t, oldOK(t, glossary.Glossary), b.call("glossary", ""))
	assert.Equal(t, oldOK(t, scenarios.Workloads()), b.call("workloads", ""))
	assert.Equal(t, `{"ok":null}`, b.call("scale_cancel", ""))
	for _, name := range scenarios.BuiltinNames() {
		got := b.call("open", mustJSON(t, name))
		s := b.s
		require.NotNil(t, s, name)
		assert.Equal(t, oldOK(t, s.View()), got, name)
		for s.Timeline().Pos() < s.Steps() {
			got = b.call("step", "")
			if !assert.Equal(t, oldOK(t, s.View()), got, "%s step %d", name, s.Timeline().Pos()) {
				break
			}
		}
		assert.Equal(t, oldOK(t, s.Steps()), b.call("steps", ""))
		assert.Equal(t, oldOK(t, s.Trace()), b.call("state", ""), name)
		assert.Equal(t, oldOK(t, s.Actions()), b.call("actions", ""), name)
		assert.Equal(t, oldOK(t, s.Export()), b.call("export", ""), name)
		assert.Equal(t, oldOK(t, s.StepForms()), b.call("step_forms", ""), name)
		c, err := s.CompareBug("mark-before-drain")
		require.NoError(t, err)
		assert.Equal(t, oldOK(t, c), b.call("compare_bug", `"mark-before-drain"`), name)
		x, err := s.Explore(300)
		require.NoError(t, err)
		assert.Equal(t, oldOK(t, x), b.call("explore", "300"), name)
	}
	text, err := scenarios.WorkloadText("million-rows")
	require.NoError(t, err)
	assert.Equal(t, oldOK(t, string(text)), b.call("workload_text", `"million-rows"`))
	// scale answered json.RawMessage(the summary's indented text), which the Encoder compacted
	sum, err := scenarios.Scale("", []byte(smallWorkload), nil)
	require.NoError(t, err)
	indented, err := wire.ScaleSummaryJSON(sum)
	require.NoError(t, err)
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, indented))
	assert.Equal(t, `{"ok":`+compact.String()+`}`, b.call("scale", mustJSON(t, smallWorkload)))
	assert.Equal(t, oldOK(t, "barrier: {epoch: 9, start_backfill: [7]}"),
		b.call("format_step", `{"kind":"barrier","epoch":9,"mutation":"start_backfill","fragments":"7"}`))
}

// Errors as encoding/json wrote them, positioned or not.
func TestErrorAnswersAsEncodingJSON(t *testing.T) {
	old := func(err error) string {
		a := answerError{Message: err.Error()}
		var se *scenarios.Error
		if errors.As(err, &se) {
			line, col := se.Line, se.Col
			a = answerError{Message: fmt.Sprintf("%d:%d: %s", line, col, se.Msg), Line: &line, Column: &col}
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(struct {
			Error answerError `json:"error"`
		}{a}))
		return strings.TrimSuffix(buf.String(), "\n")
	}
	_, err := session.Load("", []byte(BAD))
	require.Error(t, err)
	for _, e := range []error{err, errors.New("plain <b>&</b> \"quoted\"\n\u2028 \xff"), &scenarios.Error{Line: 3, Col: 9, Msg: "x"}} {
		assert.Equal(t, old(e), errorAnswer(e))
	}
}

// ---- the arguments, read as encoding/json read them ----

// oldText is how a string argument was read.
func oldText(arg string) (string, bool) {
	var s string
	if arg == "" || json.Unmarshal([]byte(arg), &s) != nil {
		return "", false
	}
	return s, true
}

// oldIntArg is how an integer argument was read (a json.Decoder: it took a value followed by
// ] or } too, which intArg refuses).
func oldIntArg(arg string) (int, string) {
	d := json.NewDecoder(strings.NewReader(arg))
	d.UseNumber()
	var v any
	if arg == "" || d.Decode(&v) != nil || d.More() {
		return 0, "bad"
	}
	n, isNumber := v.(json.Number)
	if !isNumber {
		return 0, "bad"
	}
	i, err := n.Int64()
	if err != nil || int64(int(i)) != i {
		return 0, "not " + string(n)
	}
	return int(i), ""
}

// oldObject is how format_step's object was read.
func oldObject(arg string) (map[string]any, bool) {
	var values map[string]any
	if json.Unmarshal([]byte(arg), &values) != nil || values == nil {
		return nil, false
	}
	return values, true
}

var argCases = []string{
	``, `null`, `"happy-path"`, `"esc \" \\ \/ \n \u00e9 \ud83d\ude00 \ud800"`, "\"bad \xff utf8\"", `""`, `"a" `,
	`7`, `-1`, `0`, `-0`, `2.7`, `1e30`, `1e2`, `99999999999999999999`, `"7"`, `[4]`, `{}`, `true`, `nul`,
	`{"kind":"barrier","epoch":9,"checkpoint":false,"rows":"+ 1 2\n+ 3 4"}`, `{"kind":"snapshot","count":3.5}`,
	`{"a":{"b":[1,2,{"c":1e3}]}}`, `{"big":1e999}`, `{"a":1,"a":"two"}`, `{"a":1,}`, `{a:1}`, `[1,2]`, `"unterminated`,
	`'single'`, `5 6`, `"a" "b"`, `{} {}`, "\t 12 \n", `01`, `-`, `1.`, `{"n":-0.0}`,
}

func TestArgumentsAsEncodingJSON(t *testing.T) {
	for _, arg := range argCases {
		// a string: the same string, or the same refusal (but null: a method that takes a string
		// needs one now, where null was read as "")
		want, wantOK := oldText(arg)
		wantOK = wantOK && strings.TrimSpace(arg) != "null"
		var got string
		err := decodeArg(arg, &got)
		assert.Equal(t, wantOK, err == nil, "text %q", arg)
		if wantOK {
			assert.Equal(t, want, got, "text %q", arg)
		}
		// an integer: the same integer, or the same refusal and message
		n, why := oldIntArg(arg)
		var i int
		err = decodeArg(arg, &i)
		switch why {
		case "":
			if assert.NoError(t, err, "intArg %q", arg) {
				assert.Equal(t, n, i, "intArg %q", arg)
			}
		case "bad":
			assert.EqualError(t, err, "the argument must be an integer", "intArg %q", arg)
		default:
			assert.EqualError(t, err, "the argument must be an integer, "+why, "intArg %q", arg)
		}
		// format_step's object: the same map (numbers as float64), or the same refusal
		wantM, wantMOK := oldObject(arg)
		gotM, gotMOK := objectArg(arg)
		assert.Equal(t, wantMOK, gotMOK, "object %q", arg)
		if wantMOK {
			assert.Equal(t, wantM, gotM, "object %q", arg)
		}
	}
}

// The one difference: a number followed by ] or } was taken as that number (json.Decoder read
// the value and More saw no next one); it is refused now, as every other trailing text is.
func TestIntArgRefusesTrailingBrackets(t *testing.T) {
	for _, arg := range []string{"5]", "5}", "5 ]"} {
		n, why := oldIntArg(arg)
		assert.Equal(t, 5, n, "the old reading of %q", arg)
		assert.Empty(t, why)
		_, err := intArg(arg)
		assert.EqualError(t, err, "the argument must be an integer", arg)
	}
}
