//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/backfill-explainer/explainer/diagnose"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/internal/jsonw"
	"github.com/backfill-explainer/explainer/lessons"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
	"github.com/backfill-explainer/explainer/wasm/api"
	"github.com/backfill-explainer/explainer/wire"

	"github.com/backfill-explainer/explainer/internal/quote"
)

// bridge holds the open scenario and answers the page's calls. JavaScript calls it from one
// thread, through entry (js.go), the one place a method's panic is recovered (okAnswer answers a
// result that panics while it is written).
type bridge struct {
	s      *session.Session // nil until a scenario is open
	scale  *scaleRun        // a paused workload's run (scale.go), or nil
	stages *session.Stages  // the two runs compare laid side by side, or nil
	buf    []byte           // the last answer's buffer, reused (okAnswer)
}

// method is one call the page can make: its declaration (package api: its name, argument and
// result) and run, which reads the JSON of its argument ("" when there is none) and answers
// the result, which writes its JSON.
type method struct {
	decl api.Info
	run  func(b *bridge, arg string) (result, error)
}

// result appends a method's answer as JSON (package wire's functions and the AppendJSON methods of the other packages,
// byte for byte as encoding/json would write the same values: encoding/json is not in the wasm).
type result func([]byte) []byte

// bind makes the method a declaration declares: the compiler checks that run takes the
// declared argument and answers the declared result, which write writes. An argument that is
// not the declared one is refused with the method's usage.
//
// (Not inlined, and its work in helpers that are not generic: one small copy per pair of types'
// shapes in the wasm, not one per method.)
//
//go:noinline
func bind[A, R any](d api.Decl[A, R], run func(*bridge, A) (R, error), write func([]byte, R) []byte) method {
	info := d.Info
	return method{decl: info, run: func(b *bridge, raw string) (result, error) {
		var a A
		if err := decodeArg(raw, &a); err != nil {
			return nil, usageError(info, err)
		}
		r, err := run(b, a)
		if err != nil {
			return nil, err
		}
		return func(out []byte) []byte { return write(out, r) }, nil
	}}
}

// usageError is a wrong call's error: "NAME: what is wrong (usage: …)".
func usageError(d api.Info, err error) error {
	return errors.New(d.Name() + ": " + err.Error() + " (usage: " + d.Usage() + ")")
}

// methods is everything the page can call: every declared method (api.All), bound once
// (TestEveryDeclaredMethodIsBound).
var methods = index(
	bind(api.Scenarios, func(*bridge, api.None) ([]scenarios.Info, error) { return scenarios.Builtins(), nil }, scenarios.AppendJSONInfos),
	bind(api.Bugs, func(*bridge, api.None) ([]engine.BugInfo, error) { return engine.Bugs, nil }, wire.AppendJSONBugs),
	bind(api.Legend, func(*bridge, api.None) (map[string]string, error) {
		all := maps.Clone(glossary.Legend)
		maps.Copy(all, view.EventLegend())
		return all, nil
	}, func(b []byte, m map[string]string) []byte { return glossary.AppendJSONLegend(b, m) }),
	bind(api.Glossary, func(*bridge, api.None) ([]glossary.GlossaryEntry, error) { return glossary.Glossary, nil }, glossary.AppendJSONGlossary),
	bind(api.Open, func(b *bridge, name string) (*view.View, error) { return b.opened(session.OpenBuiltin(name)) }, wire.AppendView),
	bind(api.Load, func(b *bridge, t string) (*view.View, error) {
		s, err := session.Load("", []byte(t))
		if err == nil {
			err = s.Goto(s.Scenario.OpenAt) // a saved run reopens at its step (open_at)
		}
		return b.opened(s, err)
	}, wire.AppendView),
	bind(api.View, viewAfter(noArg(func(*session.Session) error { return nil })), wire.AppendView),
	bind(api.Steps, onSession(func(s *session.Session, _ api.None) (int, error) { return s.Steps(), nil }), appendInt),
	bind(api.Actions, onSession(func(s *session.Session, _ api.None) ([]view.Action, error) { return s.Actions(), nil }), wire.AppendJSONActions),
	bind(api.State, onSession(func(s *session.Session, _ api.None) (engine.Trace, error) { return s.Trace(), nil }),
		func(b []byte, t engine.Trace) []byte { return wire.AppendTrace(b, &t) }),
	bind(api.Export, onSession(func(s *session.Session, _ api.None) (*session.Export, error) { e := s.Export(); return &e, nil }),
		writeMethod((*session.Export).AppendJSON)),
	bind(api.Text, onSession(func(s *session.Session, _ api.None) (string, error) {
		var b strings.Builder
		err := s.WriteText(&b)
		return b.String(), err
	}), jsonw.String),
	bind(api.Step, viewAfter(noArg((*session.Session).Step)), wire.AppendView),
	bind(api.Back, viewAfter(noArg((*session.Session).Back)), wire.AppendView),
	bind(api.Goto, viewAfter((*session.Session).Goto), wire.AppendView),
	bind(api.Apply, viewAfter((*session.Session).Apply), wire.AppendView),
	bind(api.Bug, viewAfter((*session.Session).SetBug), wire.AppendView),
	bind(api.Release, viewAfter((*session.Session).SetRelease), wire.AppendView),
	bind(api.Create, viewAfter((*session.Session).SetCreate), wire.AppendView),
	bind(api.CompareBug, onSession((*session.Session).CompareBug), writeMethod((*session.Comparison).AppendJSON)),
	bind(api.CompareText, onSession((*session.Session).CompareText), writeMethod((*session.Comparison).AppendJSON)),
	bind(api.CompareRuns, func(b *bridge, c api.Compare) (*session.Stages, error) {
		return withSession(b, func(s *session.Session) (*session.Stages, error) {
			st, err := s.Stages(deref(c.Left), deref(c.Right))
			if err == nil {
				b.stages = st
			}
			return st, err
		})
	}, writeMethod((*session.Stages).AppendJSON)),
	bind(api.CompareAt, func(b *bridge, n int) (*session.StagesAt, error) {
		if b.stages == nil {
			return nil, errors.New("compare_at: nothing is compared (call compare first)")
		}
		return b.stages.At(n)
	}, writeMethod((*session.StagesAt).AppendJSON)),
	bind(api.Explore, onSession(func(s *session.Session, n *int) (*session.ExploreReport, error) { return s.Explore(deref(n)) }),
		writeMethod((*session.ExploreReport).AppendJSON)),
	bind(api.StepForms, onSession(func(s *session.Session, _ api.None) ([]session.StepForm, error) { return s.StepForms(), nil }),
		session.AppendJSONStepForms),
	bind(api.FormatStep, onSession((*session.Session).FormatForm), jsonw.String),
	// Lessons (docs/lesson-format.md): the built-ins, and a lesson's plan by name or from its text.
	bind(api.Lessons, func(*bridge, api.None) ([]lessons.Info, error) { return lessons.Builtins(), nil }, lessons.AppendJSONInfos),
	bind(api.Lesson, func(_ *bridge, name string) (*lessons.Plan, error) { return plan(lessons.OpenBuiltin(name)) },
		writeMethod((*lessons.Plan).AppendJSON)),
	bind(api.LessonText, func(_ *bridge, t string) (*lessons.Plan, error) { return plan(lessons.Parse("", []byte(t))) },
		writeMethod((*lessons.Plan).AppendJSON)),
	// What a pasted error message or log excerpt means (diagnose/). Needs no open scenario.
	bind(api.Diagnosis, func(_ *bridge, d api.Diagnose) (*diagnose.Answer, error) { return diagnose.Diagnose(d.Text, d.Release) },
		writeMethod((*diagnose.Answer).AppendJSON)),
	// Scale mode (scale.go): the built-in workloads, and a workload's run.
	bind(api.Workloads, func(*bridge, api.None) ([]scenarios.Info, error) { return scenarios.Workloads(), nil }, scenarios.AppendJSONInfos),
	bind(api.WorkloadTxt, workloadText, jsonw.String),
	bind(api.BuiltinText, builtinText, jsonw.String), // a built-in scenario's file (the editor starts from it)
	bind(api.Schema, schema, func(b []byte, r api.RawJSON) []byte { return append(b, r...) }),
	bind(api.Scale, scaleWhole, wire.AppendScaleSummary),
	bind(api.ScaleStart, scaleStart, appendScalePoint),
	bind(api.ScaleNext, scaleNext, appendScalePoint),
	bind(api.ScaleCancel, scaleCancel, func(b []byte, _ api.None) []byte { return append(b, "null"...) }),
)

// index keys the methods by name.
func index(ms ...method) map[string]method {
	out := make(map[string]method, len(ms))
	for _, m := range ms {
		out[m.decl.Name()] = m
	}
	return out
}

// writeMethod writes a result with its AppendJSON method.
func writeMethod[T any](f func(T, []byte) []byte) func([]byte, T) []byte {
	return func(b []byte, x T) []byte { return f(x, b) }
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// deref is *p, or the zero value for nil.
func deref[T any](p *T) T {
	var z T
	if p == nil {
		return z
	}
	return *p
}

// plan answers a lesson's plan.
func plan(l *lessons.Lesson, err error) (*lessons.Plan, error) {
	if err != nil {
		return nil, err
	}
	return l.Plan(), nil
}

// call runs one method and returns its JSON answer: {"ok": result} or
// {"error": {"message", "line", "column"}}.
func (b *bridge) call(name, arg string) string {
	m, ok := methods[name]
	if !ok {
		return errorAnswer(fmt.Errorf("unknown method %s", quote.Q(name)))
	}
	if limit := argLimit(name); len(arg) > limit {
		msg := fmt.Sprintf("%s: the argument is %d bytes; the limit is %d MiB", name, len(arg), limit>>20)
		if name == "diagnose" {
			msg += fmt.Sprintf(" (the engine reads the first %d KiB of a text)", diagnose.Limit>>10)
		}
		return errorAnswer(errors.New(msg)) // refused before it is decoded
	}
	r, err := m.run(b, strings.TrimSpace(arg))
	if err != nil {
		return errorAnswer(err)
	}
	return b.okAnswer(r)
}

// argLimit bounds a method's argument in bytes: 8 MiB (a scenario is at most 1 MiB, compare
// takes two, JSON escapes grow them), 1 MiB for diagnose (it reads 64 KiB of a paste).
func argLimit(method string) int {
	if method == "diagnose" {
		return 1 << 20
	}
	return 8 << 20
}

func (b *bridge) opened(s *session.Session, err error) (*view.View, error) {
	if err != nil {
		return nil, err
	}
	b.s = s
	b.stages = nil
	return s.View(), nil
}

var errNoSession = errors.New("no scenario is open")

func withSession[R any](b *bridge, run func(*session.Session) (R, error)) (R, error) {
	if b.s == nil {
		var z R
		return z, errNoSession
	}
	return run(b.s)
}

// onSession is a method of the open scenario.
func onSession[A, R any](run func(*session.Session, A) (R, error)) func(*bridge, A) (R, error) {
	return func(b *bridge, a A) (R, error) {
		return withSession(b, func(s *session.Session) (R, error) { return run(s, a) })
	}
}

// viewAfter is a method of the open scenario that answers its view after run: the view in its
// final shape (session.View), written as it is, whole (web/README-page.md, "One press of Next").
func viewAfter[A any](run func(*session.Session, A) error) func(*bridge, A) (*view.View, error) {
	return onSession(func(s *session.Session, a A) (*view.View, error) {
		if err := run(s, a); err != nil {
			return nil, err
		}
		return s.View(), nil
	})
}

// noArg is run as a method that takes no argument.
func noArg(run func(*session.Session) error) func(*session.Session, api.None) error {
	return func(s *session.Session, _ api.None) error { return run(s) }
}

func isNull(arg string) bool { return arg == "" || arg == "null" }

// decodeArg reads a method's argument as its declared type A (package api): None (nothing, or
// null), a string, an integer (a JSON number without a fraction or exponent that fits an int,
// never a string of digits), an integer or null, an object (as json.Unmarshal reads one into a
// map[string]any: numbers as float64 at every depth), or a struct of package api (an object of
// its fields) into *p. The error says what is wrong; bind adds the usage. (Not generic: one
// copy in the wasm, not one per argument type.)
func decodeArg(raw string, p any) error {
	switch p := p.(type) {
	case *api.None:
		if !isNull(raw) {
			return errors.New("it takes no argument")
		}
		return nil
	case *string:
		v, err := jsonw.Decode(raw)
		s, ok := v.(string)
		if isNull(raw) || err != nil || !ok {
			return errors.New("the argument must be a JSON string")
		}
		*p = s
		return nil
	case *int:
		n, err := intArg(raw)
		*p = n
		return err
	case **int:
		if isNull(raw) {
			return nil
		}
		n, err := intArg(raw)
		*p = &n
		return err
	case *map[string]any:
		m, ok := objectArg(raw)
		if !ok {
			return errors.New("the argument must be a JSON object")
		}
		*p = m
		return nil
	}
	rv := reflect.ValueOf(p).Elem()
	if rv.Kind() != reflect.Struct {
		return fmt.Errorf("internal error: an argument of type %s is not read", rv.Type()) // (TestUsageOfEveryMethod)
	}
	m, ok := objectArg(raw)
	if !ok {
		return errors.New("the argument must be a JSON object")
	}
	return decodeStruct(rv, m, "", false)
}

// decodeStruct reads an object's fields into a struct of package api: each a string (null is
// "") or an object of string fields (null or left out: none). A field without omitempty must be
// there, but in an object inside the argument, where every field may be left out; a field the
// struct does not have is refused.
func decodeStruct(rv reflect.Value, m map[string]any, where string, nested bool) error {
	t := rv.Type()
	known := make(map[string]bool, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, optional := api.FieldName(f)
		known[name] = true
		x, there := m[name]
		if !there {
			if !optional && !nested {
				return fmt.Errorf("the argument has no %s", where+name)
			}
			continue
		}
		switch fv := rv.Field(i); {
		case f.Type.Kind() == reflect.String:
			s, ok := x.(string)
			if !ok && (x != nil || !optional && !nested) {
				return fmt.Errorf("%s must be a string", where+name)
			}
			fv.SetString(s)
		case f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct:
			if x == nil {
				continue
			}
			o, ok := x.(map[string]any)
			if !ok {
				return fmt.Errorf("%s must be an object", where+name)
			}
			p := reflect.New(f.Type.Elem())
			if err := decodeStruct(p.Elem(), o, where+name+".", true); err != nil {
				return err
			}
			fv.Set(p)
		default:
			return fmt.Errorf("internal error: a field of type %s is not read", f.Type)
		}
	}
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		if !known[k] {
			return fmt.Errorf("%s has no field %s", strings.TrimSuffix("the argument."+where, "."), quote.Q(k))
		}
	}
	return nil
}

// intArg reads an integer: a JSON number without a fraction or exponent that fits an int, never
// a string of digits.
func intArg(arg string) (int, error) {
	v, err := jsonw.Decode(arg)
	n, isNumber := v.(jsonw.Number)
	if err != nil || !isNumber {
		return 0, errors.New("the argument must be an integer")
	}
	i, err := n.Int64()
	if err != nil || int64(int(i)) != i {
		return 0, fmt.Errorf("the argument must be an integer, not %s", quote.Clip(string(n)))
	}
	return int(i), nil
}

// objectArg reads a JSON object as json.Unmarshal reads one into a map[string]any: numbers as
// float64 at every depth; false when the argument is not an object (null included) or holds a
// number out of float64's range.
func objectArg(arg string) (map[string]any, bool) {
	v, err := jsonw.Decode(arg)
	m, isObject := v.(map[string]any)
	if err != nil || !isObject {
		return nil, false
	}
	return m, floats(m)
}

// floats turns the numbers in a decoded value into float64s in place; false if one does not fit.
func floats(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if n, ok := e.(jsonw.Number); ok {
				f, err := n.Float64()
				if err != nil {
					return false
				}
				x[k] = f
			} else if !floats(e) {
				return false
			}
		}
	case []any:
		for i, e := range x {
			if n, ok := e.(jsonw.Number); ok {
				f, err := n.Float64()
				if err != nil {
					return false
				}
				x[i] = f
			} else if !floats(e) {
				return false
			}
		}
	}
	return true
}

// okAnswer writes {"ok": result} into the bridge's buffer, kept from call to call (a view at 256
// vnodes is some 200 KB). A result that panics while writing answers as an internal error.
func (b *bridge) okAnswer(r result) (answer string) {
	defer func() {
		if p := recover(); p != nil {
			answer = errorAnswer(fmt.Errorf("internal error: encoding the result: %v", p))
		}
	}()
	buf := append(b.buf[:0], `{"ok":`...)
	if r == nil {
		buf = append(buf, "null"...)
	} else {
		buf = r(buf)
	}
	buf = append(buf, '}')
	if cap(buf) <= maxKeptBuffer {
		b.buf = buf
	} else {
		b.buf = nil
	}
	return string(buf)
}

// maxKeptBuffer is the largest answer buffer a bridge keeps for the next call.
const maxKeptBuffer = 4 << 20

// answerError is an error as the page gets it: a scenario error carries its line and column
// (1-based) and reads "line:column: message", without a file name.
type answerError struct {
	Message string `json:"message"`
	Line    *int   `json:"line"`
	Column  *int   `json:"column"`
}

func errorAnswer(err error) string {
	a := answerError{Message: quote.Lines(err.Error())} // what a library quoted whole, cut too
	var se *scenarios.Error
	if errors.As(err, &se) {
		line, col := se.Line, se.Col
		a = answerError{Message: strconv.Itoa(line) + ":" + strconv.Itoa(col) + ": " + quote.Lines(se.Msg), Line: &line, Column: &col}
	}
	b := append([]byte(nil), `{"error":{"message":`...)
	b = jsonw.String(b, a.Message)
	b = append(b, `,"line":`...)
	b = appendIntPtr(b, a.Line)
	b = append(b, `,"column":`...)
	b = appendIntPtr(b, a.Column)
	return string(append(b, "}}"...))
}

func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}
