//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/backfill-explainer/explainer/diagnose"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/internal/jsonw"
	"github.com/backfill-explainer/explainer/lessons"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
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
	// lean: the caller asked for lean views (the method lean; docs/view.md, "Views across the
	// bridge"): every view then leaves out its marks, code map and outputs, which the caller
	// asks for by revision and range (marks, code_map, outputs) when it does not hold them.
	lean bool
}

// method is one call the page can make: arg is the JSON of its argument ("" or "null" when it
// takes none); the result writes its JSON.
type method func(b *bridge, arg string) (result, error)

// result appends a method's answer as JSON (package wire's functions and the AppendJSON methods of the other packages,
// byte for byte as encoding/json would write the same values: encoding/json is not in the wasm).
type result func([]byte) []byte

// methods is everything the page can call. A failed open or load keeps the open scenario.
var methods = map[string]method{
	"scenarios": none(func(*bridge) (result, error) {
		return func(b []byte) []byte { return scenarios.AppendJSONInfos(b, scenarios.Builtins()) }, nil
	}),
	"bugs": none(func(*bridge) (result, error) {
		return func(b []byte) []byte { return wire.AppendJSONBugs(b, engine.Bugs) }, nil
	}),
	"legend": none(func(*bridge) (result, error) {
		return func(b []byte) []byte { return glossary.AppendJSONLegend(b, glossary.Legend, engine.EventLegend()) }, nil
	}),
	"glossary": none(func(*bridge) (result, error) {
		return func(b []byte) []byte { return glossary.AppendJSONGlossary(b, glossary.Glossary) }, nil
	}),
	"open": text(func(b *bridge, name string) (result, error) {
		s, err := session.OpenBuiltin(name)
		return b.opened(s, err)
	}),
	"load": text(func(b *bridge, t string) (result, error) {
		s, err := session.Load("", []byte(t))
		if err == nil {
			err = s.Goto(s.Scenario.OpenAt) // a saved run reopens at its step (open_at)
		}
		return b.opened(s, err)
	}),
	"view": viewMethod(func(*session.Session) error { return nil }),
	"steps": onSession(func(s *session.Session) (result, error) {
		n := s.Steps()
		return func(b []byte) []byte { return strconv.AppendInt(b, int64(n), 10) }, nil
	}),
	"actions": onSession(func(s *session.Session) (result, error) {
		a := s.Actions()
		return func(b []byte) []byte { return wire.AppendJSONActions(b, a) }, nil
	}),
	"state": onSession(func(s *session.Session) (result, error) {
		t := s.Trace()
		return func(b []byte) []byte { return wire.AppendTrace(b, &t) }, nil
	}),
	"export": onSession(func(s *session.Session) (result, error) {
		e := s.Export()
		return e.AppendJSON, nil
	}),
	"text": onSession(func(s *session.Session) (result, error) {
		var b strings.Builder
		if err := s.WriteText(&b); err != nil {
			return nil, err
		}
		return stringResult(b.String()), nil
	}),
	"step": viewMethod((*session.Session).Step),
	"back": viewMethod((*session.Session).Back),
	"goto": func(b *bridge, arg string) (result, error) {
		n, err := intArg("goto", arg)
		if err != nil {
			return nil, err
		}
		return withSession(b, func(s *session.Session) (result, error) { return b.viewAfter(s, s.Goto(n)) })
	},
	"apply": viewText((*session.Session).Apply),
	"bug":   viewText((*session.Session).SetBug),
	// release runs the open scenario under a RisingWave release ("v3.0"), at the same step.
	"release": viewText((*session.Session).SetRelease),
	// create runs it with the job created in the "foreground" or the "background", at the same step.
	"create": viewText((*session.Session).SetCreate),
	"compare_bug": sessionText(func(s *session.Session, t string) (result, error) {
		c, err := s.CompareBug(t)
		if err != nil {
			return nil, err
		}
		return c.AppendJSON, nil
	}),
	"compare_text": sessionText(func(s *session.Session, t string) (result, error) {
		c, err := s.CompareText(t)
		if err != nil {
			return nil, err
		}
		return c.AppendJSON, nil
	}),
	// compare lays two runs side by side: {left: Run, right: Run} (session.Run: {bug, text, release});
	// compare_at answers both runs' views at a step and how they differ.
	"compare": func(b *bridge, arg string) (result, error) {
		m, ok := objectArg(arg)
		if !ok {
			return nil, errors.New("compare: the argument must be a JSON object {left: {bug, text, release}, right: {bug, text, release}}")
		}
		l, err := runArg(m, "left")
		if err != nil {
			return nil, err
		}
		r, err := runArg(m, "right")
		if err != nil {
			return nil, err
		}
		return withSession(b, func(s *session.Session) (result, error) {
			st, err := s.Stages(l, r)
			if err != nil {
				return nil, err
			}
			b.stages = st
			return st.AppendJSON, nil
		})
	},
	"compare_at": func(b *bridge, arg string) (result, error) {
		n, err := intArg("compare_at", arg)
		if err != nil {
			return nil, err
		}
		if b.stages == nil {
			return nil, errors.New("compare_at: nothing is compared (call compare first)")
		}
		at, err := b.stages.At(n)
		if err != nil {
			return nil, err
		}
		return at.AppendJSON, nil
	},
	"explore": func(b *bridge, arg string) (result, error) {
		n := 0
		if !isNull(arg) {
			var err error
			if n, err = intArg("explore", arg); err != nil {
				return nil, err
			}
		}
		return withSession(b, func(s *session.Session) (result, error) {
			r, err := s.Explore(n)
			if err != nil {
				return nil, err
			}
			return r.AppendJSON, nil
		})
	},
	"step_forms": onSession(func(s *session.Session) (result, error) {
		f := s.StepForms()
		return func(b []byte) []byte { return session.AppendJSONStepForms(b, f) }, nil
	}),
	"format_step": func(b *bridge, arg string) (result, error) {
		values, ok := objectArg(arg)
		if !ok {
			return nil, errors.New("format_step: the argument must be a JSON object, e.g. {\"kind\": \"barrier\", \"epoch\": 9}")
		}
		return withSession(b, func(s *session.Session) (result, error) {
			t, err := s.FormatForm(values)
			if err != nil {
				return nil, err
			}
			return stringResult(t), nil
		})
	},
	// Lean views (bridge.lean), and the parts they leave out: the marks and the code map of a
	// script revision, and the outputs [from, to) of a revision's log.
	"lean": none(func(b *bridge) (result, error) {
		b.lean = true
		return func(out []byte) []byte { return append(out, "true"...) }, nil
	}),
	"marks": func(b *bridge, arg string) (result, error) {
		return ofRevision(b, "marks", arg, func(s *session.Session) result {
			m := s.Timeline().Marks()
			return func(out []byte) []byte { return wire.AppendMarks(out, m) }
		})
	},
	"code_map": func(b *bridge, arg string) (result, error) {
		return ofRevision(b, "code_map", arg, func(s *session.Session) result {
			m := s.Timeline().Engine().Release().CodeMap()
			return func(out []byte) []byte { return wire.AppendCodeLines(out, m) }
		})
	},
	"outputs": outputs,
	// Lessons (docs/lesson-format.md): the built-ins, and a lesson's plan by name or from its text.
	"lessons": none(func(*bridge) (result, error) {
		return func(b []byte) []byte { return lessons.AppendJSONInfos(b, lessons.Builtins()) }, nil
	}),
	"lesson": text(func(_ *bridge, name string) (result, error) {
		l, err := lessons.OpenBuiltin(name)
		return planResult(l, err)
	}),
	"lesson_text": text(func(_ *bridge, t string) (result, error) {
		l, err := lessons.Parse("", []byte(t))
		return planResult(l, err)
	}),
	// What a pasted error message or log excerpt means (diagnose/): {"text": T, "release": R},
	// R one of diagnose.ReleaseNames, or "" or absent for none. Needs no open scenario.
	"diagnose": func(b *bridge, arg string) (result, error) {
		v, ok := objectArg(arg)
		text, isText := v["text"].(string)
		release, isRelease := v["release"].(string)
		if v["release"] == nil {
			isRelease = true
		}
		if !ok || !isText || !isRelease {
			return nil, errors.New(`diagnose: the argument must be a JSON object {"text": "…", "release": R} (R one of ` + engine.ReleaseNames() + `; it may be left out)`)
		}
		a, err := diagnose.Diagnose(text, release)
		if err != nil {
			return nil, err
		}
		return a.AppendJSON, nil
	},
	// Scale mode (scale.go): the built-in workloads, and a workload's run.
	"workloads": none(func(*bridge) (result, error) {
		return func(b []byte) []byte { return scenarios.AppendJSONInfos(b, scenarios.Workloads()) }, nil
	}),
	"workload_text": text(workloadText),
	"builtin_text":  text(builtinText), // a built-in scenario's file (the editor starts from it)
	"schema":        none(schema),      // scenario.schema.json (the editor's format help and keys)
	"scale":         text(scaleWhole),
	"scale_start":   text(scaleStart),
	"scale_next":    none(scaleNext),
	"scale_cancel":  none(scaleCancel),
}

// planResult answers a lesson's plan.
func planResult(l *lessons.Lesson, err error) (result, error) {
	if err != nil {
		return nil, err
	}
	return l.Plan().AppendJSON, nil
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
	r, err := m(b, strings.TrimSpace(arg))
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

func (b *bridge) opened(s *session.Session, err error) (result, error) {
	if err != nil {
		return nil, err
	}
	b.s = s
	b.stages = nil
	return b.viewAfter(s, nil)
}

var errNoSession = errors.New("no scenario is open")

func withSession(b *bridge, run func(*session.Session) (result, error)) (result, error) {
	if b.s == nil {
		return nil, errNoSession
	}
	return run(b.s)
}

// none is a method that takes no argument.
func none(run func(*bridge) (result, error)) method {
	return func(b *bridge, arg string) (result, error) {
		if !isNull(arg) {
			return nil, errors.New("this method takes no argument")
		}
		return run(b)
	}
}

// onSession is a method of the open scenario that takes no argument.
func onSession(run func(*session.Session) (result, error)) method {
	return none(func(b *bridge) (result, error) { return withSession(b, run) })
}

// text is a method that takes a string (null is the empty string, as json.Unmarshal reads it
// into a string).
func text(run func(*bridge, string) (result, error)) method {
	return func(b *bridge, arg string) (result, error) {
		v, err := jsonw.Decode(arg)
		s, isString := v.(string)
		if arg == "" || err != nil || v != nil && !isString {
			return nil, errors.New("the argument must be a JSON string")
		}
		return run(b, s)
	}
}

// sessionText is a method of the open scenario that takes a string.
func sessionText(run func(*session.Session, string) (result, error)) method {
	return text(func(b *bridge, t string) (result, error) {
		return withSession(b, func(s *session.Session) (result, error) { return run(s, t) })
	})
}

// viewMethod is a method of the open scenario that takes no argument and answers the view after
// run; viewText the same with a string argument.
func viewMethod(run func(*session.Session) error) method {
	return none(func(b *bridge) (result, error) {
		return withSession(b, func(s *session.Session) (result, error) { return b.viewAfter(s, run(s)) })
	})
}

func viewText(run func(*session.Session, string) error) method {
	return text(func(b *bridge, t string) (result, error) {
		return withSession(b, func(s *session.Session) (result, error) { return b.viewAfter(s, run(s, t)) })
	})
}

// viewAfter answers the open scenario's view, unless err; a lean view without its marks, code
// map and outputs (bridge.lean).
func (b *bridge) viewAfter(s *session.Session, err error) (result, error) {
	if err != nil {
		return nil, err
	}
	v := s.View()
	if b.lean {
		v.Marks, v.CodeMap, v.Outputs = nil, nil, nil
	}
	return func(b []byte) []byte { return wire.AppendView(b, v) }, nil
}

// ofRevision answers part of the open script at revision arg (a JSON integer): an error when the
// open script has another revision (its part may differ).
func ofRevision(b *bridge, name, arg string, part func(*session.Session) result) (result, error) {
	rev, err := intArg(name, arg)
	if err != nil {
		return nil, fmt.Errorf("%s: the argument must be the integer revision of a view", name)
	}
	return withSession(b, func(s *session.Session) (result, error) {
		if now := s.Revision(); int64(rev) != now {
			return nil, fmt.Errorf("%s: revision %d is not the open script's (%d)", name, rev, now)
		}
		return part(s), nil
	})
}

// outputs answers the outputs [from, to) of the run's log at the open script's revision:
// {revision, from, to}, 0 <= from <= to <= outputs_total. Within one revision the output at an
// index of the log is always the same, so a caller keeps them by index.
func outputs(b *bridge, arg string) (result, error) {
	const want = `outputs: the argument must be a JSON object {"revision": R, "from": F, "to": T} of integers`
	m, ok := objectArg(arg)
	if !ok || len(m) != 3 {
		return nil, errors.New(want)
	}
	var n [3]int64
	for i, k := range []string{"revision", "from", "to"} {
		f, isNumber := m[k].(float64)
		if !isNumber || f != float64(int64(f)) {
			return nil, errors.New(want)
		}
		n[i] = int64(f)
	}
	rev, from, to := n[0], n[1], n[2]
	return withSession(b, func(s *session.Session) (result, error) {
		if now := s.Revision(); rev != now {
			return nil, fmt.Errorf("outputs: revision %d is not the open script's (%d)", rev, now)
		}
		log := s.Timeline().Engine().Outputs()
		if from < 0 || from > to || to > int64(len(log)) {
			return nil, fmt.Errorf("outputs: [%d, %d) is not within the log's %d outputs", from, to, len(log))
		}
		part := log[from:to]
		return func(out []byte) []byte { return wire.AppendJSONOutputs(out, part) }, nil
	})
}

// stringResult answers with a string.
func stringResult(s string) result { return func(b []byte) []byte { return jsonw.String(b, s) } }

func isNull(arg string) bool { return arg == "" || arg == "null" }

// intArg reads an integer: a JSON number without a fraction or exponent that fits an int, never
// a string of digits.
func intArg(name, arg string) (int, error) {
	v, err := jsonw.Decode(arg)
	n, isNumber := v.(jsonw.Number)
	if err != nil || !isNumber {
		return 0, fmt.Errorf("%s: the argument must be an integer step number", name)
	}
	i, err := n.Int64()
	if err != nil || int64(int(i)) != i {
		return 0, fmt.Errorf("%s: the argument must be an integer step number, not %s", name, quote.Clip(string(n)))
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

// runArg reads one run of a comparison, m[side]: {bug?: string, text?: string, release?: string}
// (session.Run). A missing run is the open run as it is.
func runArg(m map[string]any, side string) (session.Run, error) {
	var r session.Run
	v, ok := m[side]
	if !ok || v == nil {
		return r, nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		return r, fmt.Errorf("compare: %s must be an object {bug, text, release}", side)
	}
	for k, x := range o {
		s, ok := x.(string)
		if !ok && x != nil {
			return r, fmt.Errorf("compare: %s.%s must be a string", side, quote.Clip(k))
		}
		switch k {
		case "bug":
			r.Bug = s
		case "text":
			r.Text = s
		case "release":
			r.Release = s
		case "create":
			r.Create = s
		default:
			return r, fmt.Errorf("compare: %s has no field %s (it takes bug, text, release and create)", side, quote.Q(k))
		}
	}
	return r, nil
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
