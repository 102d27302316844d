//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
)

// Session is one open scenario: a timeline the page steps through.
type Session interface {
	View() any
	Step() error
	Back() error
	Goto(n int) error
	Steps() int
	Actions() any
	Apply(stepText string) error
	Trace() any
}

// Library opens sessions: the built-in scenarios, or scenario text.
type Library interface {
	Builtins() any
	Open(name string) (Session, error)
	Load(text string) (Session, error)
}

// Teacher is what a session offers beyond stepping: bug modes, the interleaving explorer,
// comparison of two runs, and export. The real session has it; a session without it answers
// these methods with an error.
type Teacher interface {
	SetBug(name string) error
	Export() any
	Explore(maxStates int) (any, error)
	CompareBug(bug string) (any, error)
	CompareText(text string) (any, error)
}

// bugModes lists the bug modes for the page's menu; main wires it to the engine's list.
var bugModes = func() any { return []any{} }

// errNoSession is returned by every session method before open or load.
var errNoSession = errors.New("no scenario is open")

// Bridge holds the open session and answers the page's calls. It is not
// safe for concurrent use; JavaScript calls it from one thread.
type Bridge struct {
	lib  Library
	sess Session
}

// NewBridge returns a bridge over lib with no scenario open.
func NewBridge(lib Library) *Bridge { return &Bridge{lib: lib} }

// Call runs one method and returns its JSON answer: {"ok": result} or
// {"error": "message"}. It never panics: a panic anywhere below becomes
// {"error": "internal error: …"} and the bridge stays usable (a panic that
// escaped a syscall/js callback would kill the Go runtime for every later
// call). A failed open or load keeps the session that was open before.
func (b *Bridge) Call(method, argJSON string) (answer string) {
	defer func() {
		if r := recover(); r != nil {
			answer = errorAnswer(fmt.Sprintf("internal error: %v", r))
			debugLog(method, r, debug.Stack())
		}
	}()
	result, err := b.dispatch(method, strings.TrimSpace(argJSON))
	if err != nil {
		return errorAnswer(err.Error())
	}
	return okAnswer(result)
}

func (b *Bridge) dispatch(method, arg string) (any, error) {
	switch method {
	case "scenarios":
		if err := noArg(method, arg); err != nil {
			return nil, err
		}
		if b.lib == nil {
			return nil, errors.New("no scenario library is built in")
		}
		return b.lib.Builtins(), nil
	case "bugs":
		if err := noArg(method, arg); err != nil {
			return nil, err
		}
		return bugModes(), nil
	case "open", "load":
		s, err := stringArg(method, arg)
		if err != nil {
			return nil, err
		}
		if b.lib == nil {
			return nil, errors.New("no scenario library is built in")
		}
		var sess Session
		if method == "open" {
			sess, err = b.lib.Open(s)
		} else {
			sess, err = b.lib.Load(s)
		}
		if err != nil {
			return nil, err
		}
		if sess == nil {
			return nil, fmt.Errorf("%s returned no session", method)
		}
		b.sess = sess
		return sess.View(), nil
	}

	// Everything else needs an open scenario.
	var run func(Session) (any, error)
	switch method {
	case "step":
		run = func(s Session) (any, error) { return viewAfter(s, s.Step()) }
	case "back":
		run = func(s Session) (any, error) { return viewAfter(s, s.Back()) }
	case "view":
		run = func(s Session) (any, error) { return s.View(), nil }
	case "steps":
		run = func(s Session) (any, error) { return s.Steps(), nil }
	case "actions":
		run = func(s Session) (any, error) { return nonNil(s.Actions()), nil }
	case "state":
		run = state
	case "goto":
		n, err := intArg(method, arg)
		if err != nil {
			return nil, err
		}
		return b.withSession(func(s Session) (any, error) { return viewAfter(s, s.Goto(n)) })
	case "apply":
		text, err := stringArg(method, arg)
		if err != nil {
			return nil, err
		}
		return b.withSession(func(s Session) (any, error) { return viewAfter(s, s.Apply(text)) })
	case "bug", "compare_bug", "compare_text":
		text, err := stringArg(method, arg)
		if err != nil {
			return nil, err
		}
		return b.withTeacher(func(s Session, t Teacher) (any, error) {
			switch method {
			case "bug":
				return viewAfter(s, t.SetBug(text))
			case "compare_bug":
				return t.CompareBug(text)
			}
			return t.CompareText(text)
		})
	case "explore":
		n := 0
		if arg != "" && arg != "null" {
			var err error
			if n, err = intArg(method, arg); err != nil {
				return nil, err
			}
		}
		return b.withTeacher(func(_ Session, t Teacher) (any, error) { return t.Explore(n) })
	case "export":
		run = func(s Session) (any, error) {
			t, ok := s.(Teacher)
			if !ok {
				return nil, fmt.Errorf("%s is not supported by this scenario", method)
			}
			return t.Export(), nil
		}
	default:
		return nil, fmt.Errorf("unknown method %q", method)
	}
	if err := noArg(method, arg); err != nil {
		return nil, err
	}
	return b.withSession(run)
}

func (b *Bridge) withSession(run func(Session) (any, error)) (any, error) {
	if b.sess == nil {
		return nil, errNoSession
	}
	return run(b.sess)
}

func (b *Bridge) withTeacher(run func(Session, Teacher) (any, error)) (any, error) {
	return b.withSession(func(s Session) (any, error) {
		t, ok := s.(Teacher)
		if !ok {
			return nil, errors.New("this scenario does not support bug modes, exploring, comparing or exporting")
		}
		return run(s, t)
	})
}

func viewAfter(s Session, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return s.View(), nil
}

// nonNil keeps a nil slice from crossing as JSON null where the page
// expects an array.
func nonNil(v any) any {
	if v == nil {
		return []any{}
	}
	if raw, err := json.Marshal(v); err == nil && string(raw) == "null" {
		return []any{}
	}
	return v
}

// state is the trace contract's object plus "step", the steps applied so
// far. When the session's trace has no "step", it is taken from the view.
func state(s Session) (any, error) {
	raw, err := json.Marshal(s.Trace())
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("state: the trace is not a JSON object")
	}
	if _, ok := obj["step"]; !ok {
		view, err := json.Marshal(s.View())
		if err != nil {
			return nil, fmt.Errorf("state: %w", err)
		}
		var v struct {
			Step json.RawMessage `json:"step"`
		}
		if err := json.Unmarshal(view, &v); err != nil || v.Step == nil {
			return nil, fmt.Errorf("state: the view has no step")
		}
		obj["step"] = v.Step
	}
	return obj, nil
}

func noArg(method, arg string) error {
	if arg == "" || arg == "null" {
		return nil
	}
	return fmt.Errorf("%s takes no argument", method)
}

func stringArg(method, arg string) (string, error) {
	var s string
	if arg == "" || json.Unmarshal([]byte(arg), &s) != nil {
		return "", fmt.Errorf("%s: the argument must be a JSON string", method)
	}
	return s, nil
}

func intArg(method, arg string) (int, error) {
	d := json.NewDecoder(strings.NewReader(arg))
	d.UseNumber()
	var v any
	if arg == "" || d.Decode(&v) != nil || d.More() {
		return 0, fmt.Errorf("%s: the argument must be an integer step number", method)
	}
	n, isNumber := v.(json.Number) // not a string, even one holding digits
	if !isNumber {
		return 0, fmt.Errorf("%s: the argument must be an integer step number", method)
	}
	i, err := n.Int64()
	if err != nil || int64(int(i)) != i {
		return 0, fmt.Errorf("%s: the argument must be an integer step number, not %s", method, n)
	}
	return int(i), nil
}

func okAnswer(result any) string {
	var buf bytes.Buffer
	buf.WriteString(`{"ok":`)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(result); err != nil {
		return errorAnswer(fmt.Sprintf("internal error: encoding the result: %v", err))
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	buf.WriteByte('}')
	return buf.String()
}

func errorAnswer(msg string) string {
	raw, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	return string(raw)
}

// debugLog reports a recovered panic with its stack; it is replaced in
// main.go to write to the browser console. Tests leave it quiet.
var debugLog = func(method string, r any, stack []byte) {}
