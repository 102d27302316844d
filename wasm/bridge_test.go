//go:build js && wasm

package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answer decodes a bridge answer, checking it is exactly one of ok/error.
func answer(t *testing.T, raw string) (ok json.RawMessage, errText string) {
	t.Helper()
	var a map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(raw), &a), raw)
	require.Len(t, a, 1, raw)
	if e, has := a["error"]; has {
		require.NoError(t, json.Unmarshal(e, &errText))
		require.NotEmpty(t, errText)
		return nil, errText
	}
	ok, has := a["ok"]
	require.True(t, has, raw)
	return ok, ""
}

func openBridge(t *testing.T) (*Bridge, *fakeSession) {
	t.Helper()
	b := NewBridge(&fakeLibrary{})
	_, e := answer(t, b.Call("open", `"happy-path"`))
	require.Empty(t, e)
	return b, b.sess.(*fakeSession)
}

func TestCallBeforeOpen(t *testing.T) {
	b := NewBridge(&fakeLibrary{})
	for _, method := range []string{"step", "back", "view", "steps", "actions", "state"} {
		_, e := answer(t, b.Call(method, ""))
		assert.Equal(t, "no scenario is open", e, method)
	}
	_, e := answer(t, b.Call("goto", "1"))
	assert.Equal(t, "no scenario is open", e)
	_, e = answer(t, b.Call("apply", `"barrier: 1"`))
	assert.Equal(t, "no scenario is open", e)

	ok, e := answer(t, b.Call("scenarios", ""))
	require.Empty(t, e)
	assert.JSONEq(t, `[{"name":"happy-path","title":"Happy path","summary":"Backfill finishes."},
		{"name":"upstream-ends","title":"Upstream ends","summary":"The fatal path."}]`, string(ok))
}

func TestDispatchEveryMethod(t *testing.T) {
	tests := []struct {
		name   string
		calls  [][2]string // method, arg; all but the last must succeed
		ok     string      // JSON the last call's result must equal
		errMsg string      // or the error it must give
	}{
		{"open", [][2]string{{"open", `"happy-path"`}}, `{"step":0,"steps":3,"note":"<b>&'\"</b>"}`, ""},
		{"open unknown keeps error text", [][2]string{{"open", `"nope"`}}, "", `unknown scenario "nope"`},
		{"open nil session", [][2]string{{"open", `"nil"`}}, "", "open returned no session"},
		{"load", [][2]string{{"load", `"steps:\n - a\n - b\n"`}}, `{"step":0,"steps":2,"note":"<b>&'\"</b>"}`, ""},
		{"load error is line:column", [][2]string{{"load", `"title: ["`}}, "", "1:1: expected a mapping with title, table, steps"},
		{"step", [][2]string{{"open", `"happy-path"`}, {"step", ""}}, `{"step":1,"steps":3,"note":"<b>&'\"</b>"}`, ""},
		{"step with null arg", [][2]string{{"open", `"happy-path"`}, {"step", "null"}}, `{"step":1,"steps":3,"note":"<b>&'\"</b>"}`, ""},
		{"step past the end", [][2]string{{"open", `"happy-path"`}, {"goto", "3"}, {"step", ""}}, "", "at the last step"},
		{"back", [][2]string{{"open", `"happy-path"`}, {"step", ""}, {"step", ""}, {"back", ""}}, `{"step":1,"steps":3,"note":"<b>&'\"</b>"}`, ""},
		{"back at start", [][2]string{{"open", `"happy-path"`}, {"back", ""}}, "", "at the first step"},
		{"goto", [][2]string{{"open", `"happy-path"`}, {"goto", " 2 "}}, `{"step":2,"steps":3,"note":"<b>&'\"</b>"}`, ""},
		{"goto out of range", [][2]string{{"open", `"happy-path"`}, {"goto", "7"}}, "", "step 7 is outside 0..3"},
		{"goto not integer", [][2]string{{"open", `"happy-path"`}, {"goto", "1.5"}}, "", "goto: the argument must be an integer step number, not 1.5"},
		{"goto string", [][2]string{{"open", `"happy-path"`}, {"goto", `"2"`}}, "", "goto: the argument must be an integer step number"},
		{"goto missing", [][2]string{{"open", `"happy-path"`}, {"goto", ""}}, "", "goto: the argument must be an integer step number"},
		{"goto two values", [][2]string{{"open", `"happy-path"`}, {"goto", "1 2"}}, "", "goto: the argument must be an integer step number"},
		{"goto huge", [][2]string{{"open", `"happy-path"`}, {"goto", "1e30"}}, "", "goto: the argument must be an integer step number, not 1e30"},
		{"apply", [][2]string{{"open", `"happy-path"`}, {"apply", `"chunk: [\"+ 5 104\"]"`}}, `{"step":1,"steps":1,"note":"<b>&'\"</b>"}`, ""},
		{"apply error", [][2]string{{"open", `"happy-path"`}, {"apply", `""`}}, "", "empty step"},
		{"apply not a string", [][2]string{{"open", `"happy-path"`}, {"apply", `{"step":"x"}`}}, "", "apply: the argument must be a JSON string"},
		{"steps", [][2]string{{"open", `"happy-path"`}, {"steps", ""}}, `3`, ""},
		{"actions", [][2]string{{"open", `"happy-path"`}, {"actions", ""}}, `[{"id":"next","step":"barrier: 4"}]`, ""},
		{"view", [][2]string{{"open", `"happy-path"`}, {"step", ""}, {"view", ""}}, `{"step":1,"steps":3,"note":"<b>&'\"</b>"}`, ""},
		{"state adds step", [][2]string{{"open", `"happy-path"`}, {"step", ""}, {"step", ""}, {"state", ""}},
			`{"title":"Happy path","outputs":[],"error":null,"phase":"starting","progress_table":[],"downstream":[],"step":2}`, ""},
		{"view takes no argument", [][2]string{{"open", `"happy-path"`}, {"view", `1`}}, "", "view takes no argument"},
		{"scenarios takes no argument", [][2]string{{"scenarios", `"x"`}}, "", "scenarios takes no argument"},
		{"open bad JSON", [][2]string{{"open", `happy-path`}}, "", "open: the argument must be a JSON string"},
		{"open number", [][2]string{{"open", `3`}}, "", "open: the argument must be a JSON string"},
		{"load missing arg", [][2]string{{"load", ``}}, "", "load: the argument must be a JSON string"},
		{"unknown method", [][2]string{{"open", `"happy-path"`}, {"frobnicate", ""}}, "", `unknown method "frobnicate"`},
		{"empty method", [][2]string{{"", ""}}, "", `unknown method ""`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBridge(&fakeLibrary{})
			for _, c := range tc.calls[:len(tc.calls)-1] {
				_, e := answer(t, b.Call(c[0], c[1]))
				require.Empty(t, e, "%s(%s)", c[0], c[1])
			}
			last := tc.calls[len(tc.calls)-1]
			ok, e := answer(t, b.Call(last[0], last[1]))
			if tc.errMsg != "" {
				assert.Equal(t, tc.errMsg, e)
				return
			}
			require.Empty(t, e)
			assert.JSONEq(t, tc.ok, string(ok))
		})
	}
}

func TestAnswerIsNotHTMLEscaped(t *testing.T) {
	b, _ := openBridge(t)
	raw := b.Call("view", "")
	assert.Contains(t, raw, `<b>&'\"</b>`, "the page gets the text as written")
}

func TestFailedOpenKeepsTheOpenSession(t *testing.T) {
	b, s := openBridge(t)
	_, e := answer(t, b.Call("step", ""))
	require.Empty(t, e)
	_, e = answer(t, b.Call("open", `"nope"`))
	require.NotEmpty(t, e)
	_, e = answer(t, b.Call("load", `"garbage"`))
	require.NotEmpty(t, e)
	assert.Same(t, s, b.sess)
	ok, _ := answer(t, b.Call("steps", ""))
	assert.Equal(t, "3", string(ok))
}

func TestStateKeepsSessionStep(t *testing.T) {
	b, s := openBridge(t)
	s.traceStep = true
	ok, e := answer(t, b.Call("state", ""))
	require.Empty(t, e)
	var st map[string]any
	require.NoError(t, json.Unmarshal(ok, &st))
	assert.EqualValues(t, 99, st["step"], "a trace that carries step is not overridden")
}

func TestNilActionsAreAnEmptyArray(t *testing.T) {
	b, s := openBridge(t)
	s.nilActions = true
	ok, e := answer(t, b.Call("actions", ""))
	require.Empty(t, e)
	assert.Equal(t, "[]", string(ok))
}

func TestPanicsBecomeErrorsAndTheBridgeSurvives(t *testing.T) {
	var logged []string
	debugLog = func(method string, r any, stack []byte) { logged = append(logged, method) }
	defer func() { debugLog = func(string, any, []byte) {} }()

	b, s := openBridge(t)
	_, e := answer(t, b.Call("apply", `"explode"`))
	assert.Equal(t, "internal error: apply exploded", e)
	ok, e := answer(t, b.Call("step", ""))
	require.Empty(t, e, "the next call still works")
	assert.JSONEq(t, `{"step":1,"steps":3,"note":"<b>&'\"</b>"}`, string(ok))

	s.panicView = true
	for _, m := range []string{"view", "step", "back"} {
		_, e = answer(t, b.Call(m, ""))
		assert.Equal(t, "internal error: assignment to entry in nil map", e, m)
	}
	s.panicView = false
	_, e = answer(t, b.Call("view", ""))
	assert.Empty(t, e)

	_, e = answer(t, b.Call("open", `"panics"`))
	assert.Equal(t, "internal error: open exploded", e)
	_, e = answer(t, b.Call("view", ""))
	assert.Empty(t, e, "a panicking open leaves the open session")
	assert.Equal(t, []string{"apply", "view", "step", "back", "open"}, logged)
}

func TestUnencodableResultIsAnError(t *testing.T) {
	assert.Equal(t, `{"error":"internal error: encoding the result: json: unsupported type: chan int"}`, okAnswer(make(chan int)))
}

func TestNoLibrary(t *testing.T) {
	b := NewBridge(nil)
	for _, c := range [][2]string{{"scenarios", ""}, {"open", `"x"`}, {"load", `"x"`}} {
		_, e := answer(t, b.Call(c[0], c[1]))
		assert.Equal(t, "no scenario library is built in", e)
	}
}
