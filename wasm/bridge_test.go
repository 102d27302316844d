//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/codemap"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/wasm/api"
	"github.com/backfill-explainer/explainer/wire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answer decodes a bridge answer, checking it is exactly one of ok/error.
func answer(t *testing.T, raw string) (ok json.RawMessage, e *answerError) {
	t.Helper()
	var a map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(raw), &a), raw)
	require.Len(t, a, 1, raw)
	if er, has := a["error"]; has {
		e = &answerError{}
		require.NoError(t, json.Unmarshal(er, e))
		require.NotEmpty(t, e.Message)
		return nil, e
	}
	ok, has := a["ok"]
	require.True(t, has, raw)
	return ok, nil
}

func errText(e *answerError) string {
	if e == nil {
		return ""
	}
	return e.Message
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return string(raw)
}

// BAD has three values for a two-column table at line 7, column 22.
const BAD = "title: Bad widths\ntable:\n  columns: [a, id]\n  locality: [a]\n  stream_key: [id]\nsteps:\n  - chunk: [\"+ 1 100 7\"]\n"

func TestCallBeforeOpen(t *testing.T) {
	b := &bridge{}
	for _, m := range []string{"step", "back", "view", "steps", "actions", "state", "export", "text", "step_forms"} {
		_, e := answer(t, b.call(m, ""))
		assert.Equal(t, "no scenario is open", errText(e), m)
	}
	for _, c := range [][2]string{{"goto", "1"}, {"apply", `"barrier: 1"`}, {"bug", `"none"`}, {"explore", "null"},
		{"compare_bug", `"none"`}, {"format_step", `{"kind":"end"}`}, {"release", `"v3.0"`}, {"create", `"background"`}, {"compare", `{}`}} {
		_, e := answer(t, b.call(c[0], c[1]))
		assert.Equal(t, "no scenario is open", errText(e), c[0])
	}
	ok, e := answer(t, b.call("scenarios", ""))
	require.Nil(t, e)
	var list []struct{ Name, Title, Summary string }
	require.NoError(t, json.Unmarshal(ok, &list))
	assert.Equal(t, "happy-path", list[0].Name)
}

// TestEveryMethod: each method of the table over the real scenarios, and what it refuses.
func TestEveryMethod(t *testing.T) {
	tests := []struct {
		name  string
		calls [][2]string // method, arg; all but the last must succeed
		check func(t *testing.T, ok json.RawMessage)
		err   string // or the error the last call must give
	}{
		{"open", [][2]string{{"open", `"happy-path"`}}, stepIs(0), ""},
		{"lessons", [][2]string{{"lessons", ""}}, contains(`{"name":"workshop","title":"The locality provider's backfill: a 45-minute workshop",`), ""},
		{"lesson", [][2]string{{"lesson", `"workshop"`}}, contains(`"stops":[0,1,2,3,4,5,6,7,8,9,10],"minutes":7,`), ""},
		{"lesson unknown", [][2]string{{"lesson", `"nope"`}}, nil, `no built-in lesson named "nope"`},
		{"lesson_text", [][2]string{{"lesson_text", mustJSON(t, "title: t\nsections:\n  - {title: s, minutes: 2, scenario: happy-path, steps: [3, 6]}\n")}}, contains(`"stops":[3,6]`), ""},
		{"lesson_text error", [][2]string{{"lesson_text", mustJSON(t, "title: t\nsections:\n  - {title: s, minutes: 2, scenario: happy-path, steps: [3, 60]}\n")}}, nil, "3:61: section 1 steps: stop 60 is past the scenario's last step (it has 18 steps)"},
		{"open unknown", [][2]string{{"open", `"nope"`}}, nil, `no built-in scenario named "nope"`},
		{"load", [][2]string{{"load", mustJSON(t, "title: x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: [barrier: 1]\n")}}, stepIs(0), ""},
		{"load error", [][2]string{{"load", mustJSON(t, BAD)}}, nil, "7:22: row has 3 values; the table has 2 columns (a, id)"},
		{"builtin_text", [][2]string{{"builtin_text", `"happy-path"`}}, contains(`"title: \"The happy path: a whole backfill`), ""},
		{"schema", [][2]string{{"schema", ""}}, keys("$schema", "properties", "$defs"), ""},
		{"builtin_text unknown", [][2]string{{"builtin_text", `"nope"`}}, nil, `no built-in scenario named "nope"`},
		{"load open_at", [][2]string{{"load", mustJSON(t, "title: x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: [barrier: 1, barrier: 2, barrier: 3]\nopen_at: 2\n")}}, stepIs(2), ""},
		{"load open_at past the end", [][2]string{{"load", mustJSON(t, "title: x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: [barrier: 1]\nopen_at: 2\n")}}, nil, "4:10: open_at must be in 0..1, found 2"},
		{"step", [][2]string{{"open", `"happy-path"`}, {"step", ""}}, stepIs(1), ""},
		{"step with null", [][2]string{{"open", `"happy-path"`}, {"step", "null"}}, stepIs(1), ""},
		{"step past the end", [][2]string{{"open", `"happy-path"`}, {"goto", "18"}, {"step", ""}}, nil, "already at the last step (18)"},
		{"back", [][2]string{{"open", `"happy-path"`}, {"step", ""}, {"step", ""}, {"back", ""}}, stepIs(1), ""},
		{"back at the start", [][2]string{{"open", `"happy-path"`}, {"back", ""}}, nil, "already at the first step"},
		{"goto", [][2]string{{"open", `"happy-path"`}, {"goto", " 7 "}}, stepIs(7), ""},
		{"goto out of range", [][2]string{{"open", `"happy-path"`}, {"goto", "99"}}, nil, "step 99 is outside 0..18"},
		{"goto negative", [][2]string{{"open", `"happy-path"`}, {"goto", "-1"}}, nil, "step -1 is outside 0..18"},
		{"goto a fraction", [][2]string{{"open", `"happy-path"`}, {"goto", "2.7"}}, nil, "goto: the argument must be an integer, not 2.7 (usage: goto(n: integer) → View)"},
		{"goto a string", [][2]string{{"open", `"happy-path"`}, {"goto", `"7"`}}, nil, "goto: the argument must be an integer (usage: goto(n: integer) → View)"},
		{"goto a list", [][2]string{{"open", `"happy-path"`}, {"goto", `[4]`}}, nil, "goto: the argument must be an integer (usage: goto(n: integer) → View)"},
		{"goto null", [][2]string{{"open", `"happy-path"`}, {"goto", `null`}}, nil, "goto: the argument must be an integer (usage: goto(n: integer) → View)"},
		{"goto huge", [][2]string{{"open", `"happy-path"`}, {"goto", "1e30"}}, nil, "goto: the argument must be an integer, not 1e30 (usage: goto(n: integer) → View)"},
		{"apply", [][2]string{{"open", `"happy-path"`}, {"goto", "6"}, {"apply", mustJSON(t, `chunk: ["+ 5 104"]`)}}, stepIs(7), ""},
		{"apply error", [][2]string{{"open", `"happy-path"`}, {"goto", "6"}, {"apply", mustJSON(t, "barrier: 2")}}, nil, "1:1: epoch 2 does not increase: the last barrier carried epoch 3"},
		{"apply not a string", [][2]string{{"open", `"happy-path"`}, {"apply", `{"step":"x"}`}}, nil, "the argument must be a JSON string"},
		{"steps", [][2]string{{"open", `"happy-path"`}, {"steps", ""}}, equals(`18`), ""},
		{"actions", [][2]string{{"open", `"happy-path"`}, {"actions", ""}}, contains(`"id":"next"`), ""},
		{"state", [][2]string{{"open", `"happy-path"`}, {"goto", "3"}, {"state", ""}}, keys("title", "outputs", "error", "phase", "progress_table", "downstream", "step"), ""},
		{"view takes no argument", [][2]string{{"open", `"happy-path"`}, {"view", `1`}}, nil, "view: it takes no argument (usage: view() → View)"},
		{"scenarios takes no argument", [][2]string{{"scenarios", `"x"`}}, nil, "scenarios: it takes no argument (usage: scenarios() → ScenariosInfo[])"},
		{"open bad JSON", [][2]string{{"open", `happy-path`}}, nil, "the argument must be a JSON string"},
		{"load missing", [][2]string{{"load", ``}}, nil, "the argument must be a JSON string"},
		{"bug", [][2]string{{"open", `"happy-path"`}, {"bug", `"mark-before-drain"`}}, contains(`"name":"mark-before-drain"`), ""},
		{"bug unknown", [][2]string{{"open", `"happy-path"`}, {"bug", `"nonsense"`}}, nil, "unknown bug mode"},
		{"release", [][2]string{{"open", `"fatal-upstream-end"`}, {"goto", "10"}, {"release", `"v3.0"`}}, contains(`"step":10,`, `"phase":"ended"`, `"error":null`, `"release":"v3.0","releases":[{"name":"v2.7"`), ""},
		{"release back to the default", [][2]string{{"open", `"fatal-upstream-end"`}, {"goto", "10"}, {"release", `"v3.0"`}, {"release", `"v3.1"`}}, contains(`"phase":"failed"`, `"release":"v3.1"`), ""},
		{"create foreground drops on v3.0", [][2]string{{"open", `"fatal-upstream-end"`}, {"release", `"v3.0"`}, {"goto", "11"}}, contains(`"phase":"dropped"`, `"create":"foreground"`, `"dropped":{"lost":false,"dropped":true,`, `SET BACKGROUND_DDL = true`), ""},
		{"create background resumes on v3.0", [][2]string{{"open", `"fatal-upstream-end"`}, {"release", `"v3.0"`}, {"create", `"background"`}, {"goto", "11"}}, contains(`"phase":"starting"`, `"create":"background"`, `"dropped":null`), ""},
		{"create in state", [][2]string{{"open", `"fatal-upstream-end"`}, {"create", `"background"`}, {"state", ""}}, contains(`"create":"background"`), ""},
		{"create unknown", [][2]string{{"open", `"happy-path"`}, {"create", `"later"`}}, nil, `unknown create type "later": expected one of foreground, background`},
		{"compare foreground and background", [][2]string{{"open", `"fatal-upstream-end"`}, {"compare", `{"left": {"release": "v3.0"}, "right": {"release": "v3.0", "create": "background"}}`}}, contains(`"left":"foreground","right":"background"`, `{"step":11,"panels":["phase"`), ""},
		{"release unknown", [][2]string{{"open", `"happy-path"`}, {"release", `"v9"`}}, nil, `unknown release "v9": expected one of ` + scenarios.ReleaseNames()},
		{"release not a string", [][2]string{{"open", `"happy-path"`}, {"release", `3`}}, nil, "the argument must be a JSON string"},
		{"compare two releases", [][2]string{{"open", `"fatal-upstream-end"`}, {"compare", `{"left": {"release": "v3.0"}, "right": {}}`}}, contains(`"left":"v3.0","right":"v3.1"`, `"differ":[{"step":10,"panels":["phase",`), ""},
		{"compare release unknown", [][2]string{{"open", `"happy-path"`}, {"compare", `{"right": {"release": "3.0"}}`}}, nil, `right run: unknown release "3.0": write v3.0`},
		{"compare_release is gone", [][2]string{{"open", `"happy-path"`}, {"compare_release", `"v3.0"`}}, nil, `unknown method`},
		{"step_forms", [][2]string{{"open", `"happy-path"`}, {"step_forms", ""}}, contains(`"kind":"barrier"`), ""},
		{"format_step", [][2]string{{"open", `"happy-path"`}, {"format_step", `{"kind":"barrier","epoch":9,"mutation":"start_backfill","fragments":"7"}`}}, equals(`"barrier: {epoch: 9, start_backfill: [7]}"`), ""},
		{"format_step error", [][2]string{{"open", `"happy-path"`}, {"format_step", `{"kind":"chunk","rows":"+ 1"}`}}, nil, "row has 1 value; the table has 2 columns (a, id)"},
		{"format_step not an object", [][2]string{{"open", `"happy-path"`}, {"format_step", `"end"`}}, nil, "format_step: the argument must be a JSON object"},
		{"glossary", [][2]string{{"glossary", ""}}, contains(`{"term":"vnode","aliases":["vnodes","virtual node"],"definition":"One of a fixed number of buckets`), ""},
		{"glossary takes no argument", [][2]string{{"glossary", `"vnode"`}}, nil, "glossary: it takes no argument (usage: glossary() → GlossaryEntry[])"},
		{"unknown method", [][2]string{{"frobnicate", ""}}, nil, `unknown method "frobnicate"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &bridge{}
			for _, c := range tc.calls[:len(tc.calls)-1] {
				_, e := answer(t, b.call(c[0], c[1]))
				require.Nil(t, e, "%s(%s)", c[0], c[1])
			}
			last := tc.calls[len(tc.calls)-1]
			ok, e := answer(t, b.call(last[0], last[1]))
			if tc.err != "" {
				require.NotNil(t, e, "%s must fail", last[0])
				assert.Contains(t, e.Message, tc.err)
				return
			}
			require.Nil(t, e)
			tc.check(t, ok)
		})
	}
}

func stepIs(n int) func(*testing.T, json.RawMessage) {
	return func(t *testing.T, ok json.RawMessage) {
		var v struct {
			Step int `json:"step"`
		}
		require.NoError(t, json.Unmarshal(ok, &v))
		assert.Equal(t, n, v.Step)
	}
}

func equals(want string) func(*testing.T, json.RawMessage) {
	return func(t *testing.T, ok json.RawMessage) { assert.JSONEq(t, want, string(ok)) }
}

func contains(want ...string) func(*testing.T, json.RawMessage) {
	return func(t *testing.T, ok json.RawMessage) {
		for _, w := range want {
			assert.Contains(t, string(ok), w)
		}
	}
}

func keys(want ...string) func(*testing.T, json.RawMessage) {
	return func(t *testing.T, ok json.RawMessage) {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(ok, &m))
		for _, k := range want {
			assert.Contains(t, m, k)
		}
	}
}

// TestErrorsCarryLineAndColumn: a scenario error crosses as {message, line, column}, its message
// "line:column: text" without a file name; other errors have no position.
func TestErrorsCarryLineAndColumn(t *testing.T) {
	b := &bridge{}
	_, e := answer(t, b.call("load", mustJSON(t, BAD)))
	require.NotNil(t, e)
	require.NotNil(t, e.Line)
	require.NotNil(t, e.Column)
	assert.Equal(t, 7, *e.Line)
	assert.Equal(t, 22, *e.Column)
	assert.Equal(t, "7:22: row has 3 values; the table has 2 columns (a, id)", e.Message)
	raw := b.call("open", `"nope"`)
	assert.Contains(t, raw, `"line":null,"column":null`)
	_, e = answer(t, b.call("compare_text", mustJSON(t, BAD)))
	assert.Equal(t, "no scenario is open", e.Message)
	_, e = answer(t, b.call("open", `"happy-path"`))
	require.Nil(t, e)
	_, e = answer(t, b.call("compare_text", mustJSON(t, BAD)))
	require.NotNil(t, e.Line)
	assert.Equal(t, 7, *e.Line)
}

func TestFailedOpenKeepsTheOpenScenario(t *testing.T) {
	b := &bridge{}
	_, e := answer(t, b.call("open", `"happy-path"`))
	require.Nil(t, e)
	_, e = answer(t, b.call("step", ""))
	require.Nil(t, e)
	s := b.s
	_, e = answer(t, b.call("open", `"nope"`))
	require.NotNil(t, e)
	_, e = answer(t, b.call("load", mustJSON(t, BAD)))
	require.NotNil(t, e)
	assert.Same(t, s, b.s)
	ok, _ := answer(t, b.call("state", ""))
	assert.Contains(t, string(ok), `"step":1`)
}

// TestEveryBuiltin: open, go to the end, state() and actions() for each built-in scenario.
func TestEveryBuiltin(t *testing.T) {
	b := &bridge{}
	ok, _ := answer(t, b.call("scenarios", ""))
	var list []struct{ Name string }
	require.NoError(t, json.Unmarshal(ok, &list))
	require.NotEmpty(t, list)
	for _, sc := range list {
		_, e := answer(t, b.call("open", mustJSON(t, sc.Name)))
		require.Nil(t, e, sc.Name)
		ok, _ = answer(t, b.call("steps", ""))
		var steps int
		require.NoError(t, json.Unmarshal(ok, &steps))
		ok, e = answer(t, b.call("goto", mustJSON(t, steps)))
		require.Nil(t, e, sc.Name)
		stepIs(steps)(t, ok)
		ok, _ = answer(t, b.call("state", ""))
		keys("title", "outputs", "error", "phase", "progress_table", "downstream", "step")(t, ok)
		ok, _ = answer(t, b.call("actions", ""))
		assert.Equal(t, byte('['), ok[0], "actions is an array")
	}
}

// TestTeachingMethods: bug modes, explore, compare and export over the real scenarios.
func TestTeachingMethods(t *testing.T) {
	b := &bridge{}
	ok, e := answer(t, b.call("bugs", ""))
	require.Nil(t, e)
	var bugs []struct{ Name string }
	require.NoError(t, json.Unmarshal(ok, &bugs))
	require.Len(t, bugs, 4)

	_, e = answer(t, b.call("open", `"builder-fills-mid-epoch"`))
	require.Nil(t, e)
	_, e = answer(t, b.call("bug", `"mark-before-drain"`))
	require.Nil(t, e)
	ok, e = answer(t, b.call("explore", "1000"))
	require.Nil(t, e)
	var x struct {
		InvariantHeld bool `json:"invariant_held"`
		Outcomes      []struct {
			Example string `json:"example"`
		} `json:"outcomes"`
	}
	require.NoError(t, json.Unmarshal(ok, &x))
	assert.False(t, x.InvariantHeld)
	require.NotEmpty(t, x.Outcomes)
	ok, e = answer(t, b.call("compare_text", mustJSON(t, x.Outcomes[0].Example)))
	require.Nil(t, e)
	assert.Contains(t, string(ok), `"rows"`)
	ok, e = answer(t, b.call("compare_bug", `"none"`))
	require.Nil(t, e)
	assert.Contains(t, string(ok), `"as RisingWave does it"`)
	ok, e = answer(t, b.call("export", ""))
	require.Nil(t, e)
	var ex struct{ Scenario string }
	require.NoError(t, json.Unmarshal(ok, &ex))
	assert.Contains(t, ex.Scenario, "bug: mark-before-drain")
	_, e = answer(t, b.call("load", mustJSON(t, ex.Scenario)))
	require.Nil(t, e, "the exported scenario loads")
}

// TestAnswersAreNotHTMLEscaped: the page gets scenario text as written.
func TestAnswersAreNotHTMLEscaped(t *testing.T) {
	b := &bridge{}
	raw := b.call("load", mustJSON(t, "title: \"<b>&'\\\"</b>\"\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n"))
	assert.Contains(t, raw, `"title":"<b>&'\"</b>"`)
	assert.Contains(t, errorAnswer(assert.AnError), `"message":"assert.AnError general error for testing"`)
}

// A result that cannot be written (here a value AppendAny does not know) answers as an error,
// and the bridge answers the next call as before.
func TestUnencodableResultIsAnError(t *testing.T) {
	b := &bridge{}
	unwritable := func(buf []byte) []byte { return wire.AppendAny(buf, make(chan int), false) }
	assert.Equal(t, `{"error":{"message":"internal error: encoding the result: engine: AppendAny cannot write a chan int","line":null,"column":null}}`, b.okAnswer(unwritable))
	_, e := answer(t, b.call("open", `"happy-path"`))
	assert.Nil(t, e)
}

// Every view the bridge answers is whole, in its final shape (session.View written as it is): its
// marks the timeline's, its code map the release's, its outputs the log's from outputs_first
// on, through steps, back, goto, branches, bug modes, releases and a log longer than a view's
// window; the methods that answered parts of a view by revision are gone.
func TestEveryViewIsWhole(t *testing.T) {
	b := &bridge{}
	obj := func(raw string) map[string]json.RawMessage {
		ok, e := answer(t, raw)
		require.Nil(t, e, raw)
		var v map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(ok, &v))
		return v
	}
	walk := [][2]string{{"load", mustJSON(t, manyOutputs())}, {"step", ""}, {"goto", "300"}, {"step", ""}, {"back", ""},
		{"goto", "100"}, {"apply", mustJSON(t, `chunk: ["+ 500 500"]`)}, {"bug", `"no-state-write"`}, {"release", `"v3.0"`},
		{"open", `"fatal-upstream-end"`}, {"goto", "11"}, {"apply", `"recover"`}}
	for _, c := range walk {
		v := obj(b.call(c[0], c[1]))
		where := c[0] + " " + c[1][:min(len(c[1]), 20)]
		s := b.s
		assert.JSONEq(t, string(wire.AppendMarks(nil, s.Timeline().Marks())), string(v["marks"]), where)
		assert.JSONEq(t, string(wire.AppendCodeLines(nil, codemap.Of(s.Timeline().Engine().Release()))), string(v["code_map"]), where)
		var first int
		require.NoError(t, json.Unmarshal(v["outputs_first"], &first))
		assert.JSONEq(t, string(wire.AppendJSONOutputs(nil, append([]engine.Output{}, s.Timeline().Engine().Outputs()[first:]...))), string(v["outputs"]), where)
		again := obj(b.call("view", ""))
		assert.Equal(t, v, again, "%s: view() answers the same view", where)
	}
	for _, gone := range []string{"lean", "marks", "code_map", "outputs"} {
		_, e := answer(t, b.call(gone, "1"))
		require.NotNil(t, e, gone)
		assert.Equal(t, `unknown method "`+gone+`"`, e.Message)
	}
}

// Every declared method (api.All) is bound once, and nothing else is.
func TestEveryDeclaredMethodIsBound(t *testing.T) {
	var declared []string
	for _, m := range api.All() {
		declared = append(declared, m.Name())
		bound, ok := methods[m.Name()]
		if assert.True(t, ok, "%s is declared and not bound", m.Name()) {
			assert.Equal(t, m.Usage(), bound.decl.Usage())
		}
	}
	assert.ElementsMatch(t, declared, slices.Collect(maps.Keys(methods)))
}

// Each method refuses a wrong call, a missing, extra or wrongly typed argument, with its usage:
// "NAME: what is wrong (usage: NAME(arg: type) → Result)", before it looks for an open scenario.
func TestUsageOfEveryMethod(t *testing.T) {
	for _, m := range api.All() {
		var wrong []string // arguments the method's declaration refuses
		switch at := m.ArgType(); {
		case at == reflect.TypeFor[api.None]():
			wrong = []string{"1", `"x"`, `{}`}
		case at.Kind() == reflect.String:
			wrong = []string{"", "null", "1", `{}`, `["x"]`}
		case at.Kind() == reflect.Int:
			wrong = []string{"", "null", `"1"`, "1.5", `{}`}
		case at.Kind() == reflect.Pointer:
			wrong = []string{`"1"`, "1.5", `[]`}
		case at.Kind() == reflect.Map:
			wrong = []string{"", "null", `"x"`, "1", `[]`}
		case at.Kind() == reflect.Struct:
			wrong = []string{"", "null", `"x"`, "1", `[]`, `{"nonsense": "x"}`}
			for i := range at.NumField() {
				name, optional := api.FieldName(at.Field(i))
				wrong = append(wrong, fmt.Sprintf(`{%q: 1}`, name))
				if !optional {
					wrong = append(wrong, `{}`)
				}
			}
		default:
			t.Fatalf("%s: an argument of type %s has no wrong calls here", m.Name(), at)
		}
		for _, arg := range wrong {
			_, e := answer(t, (&bridge{}).call(m.Name(), arg))
			if assert.NotNil(t, e, "%s(%s) must be refused", m.Name(), arg) {
				assert.True(t, strings.HasPrefix(e.Message, m.Name()+": "), "%s(%s): %s", m.Name(), arg, e.Message)
				assert.True(t, strings.HasSuffix(e.Message, " (usage: "+m.Usage()+")"), "%s(%s): %s", m.Name(), arg, e.Message)
			}
		}
	}
}

// manyOutputs is a scenario whose log outgrows a view's window of 200 outputs.
func manyOutputs() string {
	var s strings.Builder
	s.WriteString("title: many outputs\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4, rule: modulo}\nfragment: 7\nsteps:\n")
	s.WriteString("  - barrier: 1\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n")
	for i := 0; i < 160; i++ {
		fmt.Fprintf(&s, "  - chunk: [\"+ %d %d\"]\n  - barrier: %d\n", i, 1000+i, 3+i)
	}
	return s.String()
}

// TestCompareStages: compare lays two runs side by side, compare_at answers both views at a step
// and what differs; a bad run is refused, and a new scenario forgets the comparison.
func TestCompareStages(t *testing.T) {
	b := &bridge{}
	_, e := answer(t, b.call("open", `"builder-fills-mid-epoch"`))
	require.Nil(t, e)
	ok, e := answer(t, b.call("compare", `{"left": {}, "right": {"bug": "mark-before-drain"}}`))
	require.Nil(t, e)
	var st struct {
		Left, Right string
		Steps       int
		Differ      []struct {
			Step   int
			Panels []string
		}
	}
	require.NoError(t, json.Unmarshal(ok, &st))
	assert.Equal(t, "as RisingWave does it", st.Left)
	assert.Equal(t, "bug mode mark-before-drain", st.Right)
	require.NotEmpty(t, st.Differ)
	assert.Equal(t, 8, st.Differ[0].Step)
	ok, e = answer(t, b.call("compare_at", "8"))
	require.Nil(t, e)
	var at struct {
		Step        int
		Left, Right struct{ Step int }
		Differs     struct {
			Panels   map[string]bool
			OnlyLeft []json.RawMessage `json:"only_left"`
		}
	}
	require.NoError(t, json.Unmarshal(ok, &at))
	assert.Equal(t, 8, at.Left.Step)
	assert.Equal(t, 8, at.Right.Step)
	assert.True(t, at.Differs.Panels["outputs"])
	assert.False(t, at.Differs.Panels["buffer"])

	for _, bad := range []string{`"x"`, `{"left": 3}`, `{"right": {"bug": 1}}`, `{"right": {"releases": "v2.7"}}`, `{"right": {"release": 3}}`, `{"right": {"release": "v9"}}`, `{"right": {"bug": "nonsense"}}`} {
		_, e = answer(t, b.call("compare", bad))
		assert.NotNil(t, e, bad)
	}
	_, e = answer(t, b.call("compare_at", "99"))
	assert.NotNil(t, e, "out of range")
	_, e = answer(t, b.call("open", `"happy-path"`))
	require.Nil(t, e)
	_, e = answer(t, b.call("compare_at", "1"))
	assert.NotNil(t, e, "a new scenario forgets the comparison")
}
