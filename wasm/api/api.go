// Package api declares the bridge's methods (wasm/bridge.go): each method's name, its one
// argument's type and its result's type, as Go types. The wasm binds an implementation to each
// declaration (the compiler checks the implementation's argument and result against it), and
// internal/tools/bridgegen writes from this table the declarations the page is checked against
// (web/boot/bridge.d.ts; web/test/node/bridge-calls.test.mjs). The page calls a method as
// call(name, JSON.stringify(arg)) and gets {"ok": result} or {"error": {message, line, column}}.
//
// A method's argument is one of: None (no argument: JSON null, or nothing), string, int (an
// integer), *int (an integer or null), map[string]any (a JSON object of any fields), or a struct
// of this package (a JSON object of its fields: a field without omitempty must be there). A wrong
// argument is refused with the method's usage (Usage).
package api

import (
	"reflect"
	"strings"

	"github.com/backfill-explainer/explainer/diagnose"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/lessons"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/workload"
)

// None is the argument of a method that takes none, and the result of one that answers null.
type None struct{}

// RawJSON is a result that is a JSON document as it is (the scenario format's JSON Schema).
type RawJSON []byte

// Compare is compare's argument: the two runs laid side by side; a run left out is the open
// run as it is.
type Compare struct {
	Left  *session.Run `json:"left,omitempty"`
	Right *session.Run `json:"right,omitempty"`
}

// Diagnose is diagnose's argument: a pasted error message or log excerpt, and the release it
// came from (one of engine.ReleaseNames; "" or left out for none).
type Diagnose struct {
	Text    string `json:"text"`
	Release string `json:"release,omitempty"`
}

// ScalePoint is where a workload's run paused (done of total), or its end: then summary is the
// scale summary's JSON text, byte for byte as `backfill run --json` prints it.
type ScalePoint struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Summary string `json:"summary,omitempty"`
}

// Method is a declared method, whatever its types.
type Method interface {
	Name() string
	Doc() string
	// ArgName names the argument in the usage and the declarations ("" for None).
	ArgName() string
	ArgType() reflect.Type
	ResultType() reflect.Type
	// Usage is how the method is called, e.g. `goto(n: integer) → View`.
	Usage() string
}

// Decl declares a method taking A and answering R.
type Decl[A, R any] struct {
	name, arg, doc string
}

func declare[A, R any](name, arg, doc string) Decl[A, R] {
	d := Decl[A, R]{name, arg, doc}
	All = append(All, d)
	return d
}

func (d Decl[A, R]) Name() string             { return d.name }
func (d Decl[A, R]) Doc() string              { return d.doc }
func (d Decl[A, R]) ArgName() string          { return d.arg }
func (d Decl[A, R]) ArgType() reflect.Type    { return reflect.TypeFor[A]() }
func (d Decl[A, R]) ResultType() reflect.Type { return reflect.TypeFor[R]() }
func (d Decl[A, R]) Usage() string {
	var b strings.Builder
	b.WriteString(d.name)
	b.WriteByte('(')
	if t := d.ArgType(); t != reflect.TypeFor[None]() {
		b.WriteString(d.arg)
		b.WriteString(": ")
		b.WriteString(ArgWords(t))
	}
	b.WriteString(") → ")
	b.WriteString(resultName(d.ResultType()))
	return b.String()
}

// ArgWords says an argument's type in the usage: "string", "integer", "integer or null", or the
// object's fields.
func ArgWords(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.String:
		return "string"
	case t.Kind() == reflect.Int:
		return "integer"
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Int:
		return "integer or null"
	case t.Kind() == reflect.Map:
		return "object"
	case t.Kind() == reflect.Struct:
		var f []string
		for i := range t.NumField() {
			name, opt := FieldName(t.Field(i))
			ft := t.Field(i).Type
			w := "string"
			if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
				w = "{" + strings.Join(fieldNames(ft.Elem()), ", ") + "}"
			}
			if opt {
				name += "?"
			}
			f = append(f, name+": "+w)
		}
		return "{" + strings.Join(f, ", ") + "}"
	}
	return t.String()
}

func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		name, _ := FieldName(t.Field(i))
		out = append(out, name+"?")
	}
	return out
}

// FieldName is a struct field's JSON name and whether it may be left out (omitempty).
func FieldName(f reflect.StructField) (name string, optional bool) {
	tag := f.Tag.Get("json")
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(opts, "omitempty")
}

// All is every method, in the order declared below.
var All []Method

// The methods. A failed open or load keeps the open scenario. The methods marked "view" answer
// the view at the open run's step after they acted (engine.View, docs/view.md), whole: the one
// value a step crosses the bridge as.
var (
	Scenarios = declare[None, []scenarios.Info]("scenarios", "", "the built-in scenarios")
	Bugs      = declare[None, []engine.BugInfo]("bugs", "", "the bug modes")
	Legend    = declare[None, map[string]string]("legend", "", "the page's legend: {key: text}")
	Glossary  = declare[None, []glossary.GlossaryEntry]("glossary", "", "the glossary's terms")
	Open      = declare[string, *engine.View]("open", "name", "view: opens a built-in scenario at step 0")
	Load      = declare[string, *engine.View]("load", "text", "view: opens a scenario's text at its open_at step")
	View      = declare[None, *engine.View]("view", "", "view: the open run's view")
	Steps     = declare[None, int]("steps", "", "the number of steps in the open run's script")
	Actions   = declare[None, []engine.Action]("actions", "", "what can happen next")
	State     = declare[None, engine.Trace]("state", "", "the trace contract's object at the open step")
	Export    = declare[None, *session.Export]("export", "", "the run as a scenario file that replays it, and its traces")
	Text      = declare[None, string]("text", "", "the readable trace of the whole run, as `backfill run` prints it")
	Step      = declare[None, *engine.View]("step", "", "view: the next scripted step")
	Back      = declare[None, *engine.View]("back", "", "view: one step back")
	Goto      = declare[int, *engine.View]("goto", "n", "view: the state after n steps")
	Apply     = declare[string, *engine.View]("apply", "step", "view: a step in the scenario format made to happen next (a branch when off the script)")
	Bug       = declare[string, *engine.View]("bug", "name", `view: the run under a bug mode ("none": none), at the same step`)
	Release   = declare[string, *engine.View]("release", "name", `view: the run under a RisingWave release ("v3.0"), at the same step`)
	Create    = declare[string, *engine.View]("create", "type", `view: the run with the job created in the "foreground" or the "background", at the same step`)
	// CompareBug and CompareText: the open run beside the same script under a bug mode, or another script.
	CompareBug  = declare[string, *session.Comparison]("compare_bug", "name", "the open run beside its script under a bug mode")
	CompareText = declare[string, *session.Comparison]("compare_text", "text", "the open run beside another script")
	CompareRuns = declare[Compare, *session.Stages]("compare", "runs", "two runs of the open scenario laid side by side (compare_at reads them)")
	CompareAt   = declare[int, *session.StagesAt]("compare_at", "n", "both compared runs' views at step n and how they differ")
	Explore     = declare[*int, *session.ExploreReport]("explore", "maxStates", "every interleaving of the open run's messages (at most maxStates states; null: the default)")
	StepForms   = declare[None, []session.StepForm]("step_forms", "", "the inject dialog's forms for the open scenario")
	FormatStep  = declare[map[string]any, string]("format_step", "values", `a filled-in form ({kind, field: value…}) as a step in the scenario format`)
	Lessons     = declare[None, []lessons.Info]("lessons", "", "the built-in lessons")
	Lesson      = declare[string, *lessons.Plan]("lesson", "name", "a built-in lesson's plan")
	LessonText  = declare[string, *lessons.Plan]("lesson_text", "text", "a lesson's plan from its text")
	Diagnosis   = declare[Diagnose, *diagnose.Answer]("diagnose", "paste", "what a pasted error message or log excerpt means (needs no open scenario)")
	Workloads   = declare[None, []scenarios.Info]("workloads", "", "the built-in workloads")
	WorkloadTxt = declare[string, string]("workload_text", "name", "a built-in workload's file text")
	BuiltinText = declare[string, string]("builtin_text", "name", "a built-in scenario's file text, as written")
	Schema      = declare[None, RawJSON]("schema", "", "the scenario format's JSON Schema")
	Scale       = declare[string, *workload.ScaleSummary]("scale", "text", "a workload's run, start to end: its scale summary")
	ScaleStart  = declare[string, ScalePoint]("scale_start", "text", "starts a workload's run; it pauses about 200 times")
	ScaleNext   = declare[None, ScalePoint]("scale_next", "", "the paused run, on to its next pause or its end")
	ScaleCancel = declare[None, None]("scale_cancel", "", "ends the paused run, if there is one")
)

// ByName finds a declared method.
func ByName(name string) (Method, bool) {
	for _, m := range All {
		if m.Name() == name {
			return m, true
		}
	}
	return nil, false
}
