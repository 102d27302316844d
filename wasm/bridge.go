//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
)

// bridge holds the open scenario and answers the page's calls. JavaScript calls it from one
// thread, through entry (js.go), the only place a panic is recovered.
type bridge struct {
	s     *scenarios.Session // nil until a scenario is open
	scale *scaleRun          // a paused scale run (scale.go), or nil
	// The page keeps the marks of the script revision its last view carried (explainer.js):
	// once it asked for it (lean_marks), a view of that same revision leaves them out ("marks":
	// null) — 5,000 marks are most of a 10,000-step scenario's view, and they change only with
	// the script.
	leanMarks bool
	marksRev  int64 // the revision whose marks the page was last sent (0: none)
}

// method is one call the page can make: arg is the JSON of its argument ("" or "null" when it
// takes none); the result is encoded as JSON.
type method func(b *bridge, arg string) (any, error)

// methods is everything the page can call. A failed open or load keeps the open scenario.
var methods = map[string]method{
	"scenarios": none(func(*bridge) (any, error) { return scenarios.Builtins(), nil }),
	"bugs":      none(func(*bridge) (any, error) { return engine.Bugs, nil }),
	"legend":    none(func(*bridge) (any, error) { return engine.Legend, nil }),
	"glossary":  none(func(*bridge) (any, error) { return engine.Glossary, nil }),
	"open": text(func(b *bridge, name string) (any, error) {
		s, err := scenarios.OpenBuiltin(name)
		return b.opened(s, err)
	}),
	"load": text(func(b *bridge, t string) (any, error) {
		s, err := scenarios.Load("", []byte(t))
		return b.opened(s, err)
	}),
	"view":    session(func(s *scenarios.Session) (any, error) { return s.View(), nil }),
	"steps":   session(func(s *scenarios.Session) (any, error) { return s.Steps(), nil }),
	"actions": session(func(s *scenarios.Session) (any, error) { return s.Actions(), nil }),
	"state":   session(func(s *scenarios.Session) (any, error) { return s.Trace(), nil }),
	"export":  session(func(s *scenarios.Session) (any, error) { return s.Export(), nil }),
	"step":    session(func(s *scenarios.Session) (any, error) { return viewAfter(s, s.Step()) }),
	"back":    session(func(s *scenarios.Session) (any, error) { return viewAfter(s, s.Back()) }),
	"goto": func(b *bridge, arg string) (any, error) {
		n, err := intArg("goto", arg)
		if err != nil {
			return nil, err
		}
		return withSession(b, func(s *scenarios.Session) (any, error) { return viewAfter(s, s.Goto(n)) })
	},
	"apply": sessionText(func(s *scenarios.Session, t string) (any, error) { return viewAfter(s, s.Apply(t)) }),
	"bug":   sessionText(func(s *scenarios.Session, t string) (any, error) { return viewAfter(s, s.SetBug(t)) }),
	"compare_bug": sessionText(func(s *scenarios.Session, t string) (any, error) {
		return s.CompareBug(t)
	}),
	"compare_text": sessionText(func(s *scenarios.Session, t string) (any, error) {
		return s.CompareText(t)
	}),
	"explore": func(b *bridge, arg string) (any, error) {
		n := 0
		if !isNull(arg) {
			var err error
			if n, err = intArg("explore", arg); err != nil {
				return nil, err
			}
		}
		return withSession(b, func(s *scenarios.Session) (any, error) { return s.Explore(n) })
	},
	"step_forms": session(func(s *scenarios.Session) (any, error) { return s.StepForms(), nil }),
	"format_step": func(b *bridge, arg string) (any, error) {
		var values map[string]any
		if json.Unmarshal([]byte(arg), &values) != nil || values == nil {
			return nil, errors.New("format_step: the argument must be a JSON object, e.g. {\"kind\": \"barrier\", \"epoch\": 9}")
		}
		return withSession(b, func(s *scenarios.Session) (any, error) { return s.FormatForm(values) })
	},
	// The timeline's marks, and views without them while they stay the same (see bridge.leanMarks).
	"marks": func(b *bridge, arg string) (any, error) {
		if !isNull(arg) {
			return nil, errors.New("this method takes no argument")
		}
		return withSession(b, func(s *scenarios.Session) (any, error) {
			b.marksRev = s.Revision()
			return s.Timeline().Marks(), nil
		})
	},
	"lean_marks": none(func(b *bridge) (any, error) {
		b.leanMarks, b.marksRev = true, 0
		return true, nil
	}),
	// Scale mode (scale.go): the built-in workloads, and a workload's run.
	"workloads":     none(func(*bridge) (any, error) { return scenarios.Workloads(), nil }),
	"workload_text": text(workloadText),
	"scale":         text(scaleWhole),
	"scale_start":   text(scaleStart),
	"scale_next":    none(scaleNext),
	"scale_cancel":  none(scaleCancel),
}

// call runs one method and returns its JSON answer: {"ok": result} or
// {"error": {"message", "line", "column"}}.
func (b *bridge) call(name, arg string) string {
	m, ok := methods[name]
	if !ok {
		return errorAnswer(fmt.Errorf("unknown method %q", name))
	}
	result, err := m(b, strings.TrimSpace(arg))
	if err != nil {
		return errorAnswer(err)
	}
	if v, ok := result.(*engine.View); ok && b.leanMarks {
		if v.Revision == b.marksRev {
			v.Marks = nil // the page has them: the same script revision
		} else {
			b.marksRev = v.Revision
		}
	}
	return okAnswer(result)
}

func (b *bridge) opened(s *scenarios.Session, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	b.s = s
	return s.View(), nil
}

var errNoSession = errors.New("no scenario is open")

func withSession(b *bridge, run func(*scenarios.Session) (any, error)) (any, error) {
	if b.s == nil {
		return nil, errNoSession
	}
	return run(b.s)
}

// none is a method that takes no argument.
func none(run func(*bridge) (any, error)) method {
	return func(b *bridge, arg string) (any, error) {
		if !isNull(arg) {
			return nil, errors.New("this method takes no argument")
		}
		return run(b)
	}
}

// session is a method of the open scenario that takes no argument.
func session(run func(*scenarios.Session) (any, error)) method {
	return none(func(b *bridge) (any, error) { return withSession(b, run) })
}

// text is a method that takes a string.
func text(run func(*bridge, string) (any, error)) method {
	return func(b *bridge, arg string) (any, error) {
		var s string
		if arg == "" || json.Unmarshal([]byte(arg), &s) != nil {
			return nil, errors.New("the argument must be a JSON string")
		}
		return run(b, s)
	}
}

// sessionText is a method of the open scenario that takes a string.
func sessionText(run func(*scenarios.Session, string) (any, error)) method {
	return text(func(b *bridge, t string) (any, error) {
		return withSession(b, func(s *scenarios.Session) (any, error) { return run(s, t) })
	})
}

func viewAfter(s *scenarios.Session, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return s.View(), nil
}

func isNull(arg string) bool { return arg == "" || arg == "null" }

// intArg reads an integer: a JSON number without a fraction, never a string of digits.
func intArg(name, arg string) (int, error) {
	d := json.NewDecoder(strings.NewReader(arg))
	d.UseNumber()
	var v any
	if arg == "" || d.Decode(&v) != nil || d.More() {
		return 0, fmt.Errorf("%s: the argument must be an integer step number", name)
	}
	n, isNumber := v.(json.Number)
	if !isNumber {
		return 0, fmt.Errorf("%s: the argument must be an integer step number", name)
	}
	i, err := n.Int64()
	if err != nil || int64(int(i)) != i {
		return 0, fmt.Errorf("%s: the argument must be an integer step number, not %s", name, n)
	}
	return int(i), nil
}

func okAnswer(result any) string {
	var buf bytes.Buffer
	buf.WriteString(`{"ok":`)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(result); err != nil {
		return errorAnswer(fmt.Errorf("internal error: encoding the result: %w", err))
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	buf.WriteByte('}')
	return buf.String()
}

// answerError is an error as the page gets it: a scenario error carries its line and column
// (1-based) and reads "line:column: message", without a file name.
type answerError struct {
	Message string `json:"message"`
	Line    *int   `json:"line"`
	Column  *int   `json:"column"`
}

func errorAnswer(err error) string {
	a := answerError{Message: err.Error()}
	var se *scenarios.Error
	if errors.As(err, &se) {
		line, col := se.Line, se.Col
		a = answerError{Message: fmt.Sprintf("%d:%d: %s", line, col, se.Msg), Line: &line, Column: &col}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		Error answerError `json:"error"`
	}{a})
	return strings.TrimSuffix(buf.String(), "\n")
}
