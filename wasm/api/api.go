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
	"github.com/backfill-explainer/explainer/view"
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
// came from (one of scenarios.ReleaseNames; "" or left out for none).
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
	// Usage is how the method is called, e.g. `goto(n: integer) → View` (usage_gen.go, written
	// by internal/tools/bridgegen from the types: the wasm reflects on nothing to say it).
	Usage() string
}

// Info is a method's name, its argument's name and what it does.
type Info struct {
	name, arg, doc string
}

func (i Info) Name() string    { return i.name }
func (i Info) Doc() string     { return i.doc }
func (i Info) ArgName() string { return i.arg }
func (i Info) Usage() string   { return usages[i.name] }

// Decl declares a method taking A and answering R. A declaration is data (no code runs to make
// it) and has no methods: the wasm binds it (the compiler checks the binding against A and R)
// and ships its name and usage only; All describes it to the generator and the tests.
type Decl[A, R any] struct{ Info Info }

// typed is a declaration with its types, as All describes it.
type typed[A, R any] struct{ Info }

func (typed[A, R]) ArgType() reflect.Type    { return reflect.TypeFor[A]() }
func (typed[A, R]) ResultType() reflect.Type { return reflect.TypeFor[R]() }

func describe[A, R any](d Decl[A, R]) Method { return typed[A, R]{d.Info} }

// FieldName is a struct field's JSON name and whether it may be left out (omitempty).
func FieldName(f reflect.StructField) (name string, optional bool) {
	tag := f.Tag.Get("json")
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(opts, "omitempty")
}

// The methods. A failed open or load keeps the open scenario. The methods marked "view" answer
// the view at the open run's step after they acted (view.View, docs/view.md), whole: the one
// value a step crosses the bridge as.
var (
	Scenarios = Decl[None, []scenarios.Info]{Info{"scenarios", "", "the built-in scenarios"}}
	Bugs      = Decl[None, []engine.BugInfo]{Info{"bugs", "", "the bug modes"}}
	Legend    = Decl[None, map[string]string]{Info{"legend", "", "the page's legend: {key: text}"}}
	Glossary  = Decl[None, []glossary.GlossaryEntry]{Info{"glossary", "", "the glossary's terms"}}
	Open      = Decl[string, *view.View]{Info{"open", "name", "view: opens a built-in scenario at step 0"}}
	Load      = Decl[string, *view.View]{Info{"load", "text", "view: opens a scenario's text at its open_at step"}}
	View      = Decl[None, *view.View]{Info{"view", "", "view: the open run's view"}}
	Steps     = Decl[None, int]{Info{"steps", "", "the number of steps in the open run's script"}}
	Actions   = Decl[None, []view.Action]{Info{"actions", "", "what can happen next"}}
	State     = Decl[None, engine.Trace]{Info{"state", "", "the trace contract's object at the open step"}}
	Export    = Decl[None, *session.Export]{Info{"export", "", "the run as a scenario file that replays it, and its traces"}}
	Text      = Decl[None, string]{Info{"text", "", "the readable trace of the whole run, as `backfill run` prints it"}}
	Step      = Decl[None, *view.View]{Info{"step", "", "view: the next scripted step"}}
	Back      = Decl[None, *view.View]{Info{"back", "", "view: one step back"}}
	Goto      = Decl[int, *view.View]{Info{"goto", "n", "view: the state after n steps"}}
	Apply     = Decl[string, *view.View]{Info{"apply", "step", "view: a step in the scenario format made to happen next (a branch when off the script)"}}
	Bug       = Decl[string, *view.View]{Info{"bug", "name", `view: the run under a bug mode ("none": none), at the same step`}}
	Release   = Decl[string, *view.View]{Info{"release", "name", `view: the run under a RisingWave release ("v3.0"), at the same step`}}
	Create    = Decl[string, *view.View]{Info{"create", "type", `view: the run with the job created in the "foreground" or the "background", at the same step`}}
	// CompareBug and CompareText: the open run beside the same script under a bug mode, or another script.
	CompareBug  = Decl[string, *session.Comparison]{Info{"compare_bug", "name", "the open run beside its script under a bug mode"}}
	CompareText = Decl[string, *session.Comparison]{Info{"compare_text", "text", "the open run beside another script"}}
	CompareRuns = Decl[Compare, *session.Stages]{Info{"compare", "runs", "two runs of the open scenario laid side by side (compare_at reads them)"}}
	CompareAt   = Decl[int, *session.StagesAt]{Info{"compare_at", "n", "both compared runs' views at step n and how they differ"}}
	Explore     = Decl[*int, *session.ExploreReport]{Info{"explore", "maxStates", "every interleaving of the open run's messages (at most maxStates states; null: the default)"}}
	StepForms   = Decl[None, []session.StepForm]{Info{"step_forms", "", "the inject dialog's forms for the open scenario"}}
	FormatStep  = Decl[map[string]any, string]{Info{"format_step", "values", `a filled-in form ({kind, field: value…}) as a step in the scenario format`}}
	Lessons     = Decl[None, []lessons.Info]{Info{"lessons", "", "the built-in lessons"}}
	Lesson      = Decl[string, *lessons.Plan]{Info{"lesson", "name", "a built-in lesson's plan"}}
	LessonText  = Decl[string, *lessons.Plan]{Info{"lesson_text", "text", "a lesson's plan from its text"}}
	Diagnosis   = Decl[Diagnose, *diagnose.Answer]{Info{"diagnose", "paste", "what a pasted error message or log excerpt means (needs no open scenario)"}}
	Workloads   = Decl[None, []scenarios.Info]{Info{"workloads", "", "the built-in workloads"}}
	WorkloadTxt = Decl[string, string]{Info{"workload_text", "name", "a built-in workload's file text"}}
	BuiltinText = Decl[string, string]{Info{"builtin_text", "name", "a built-in scenario's file text, as written"}}
	Schema      = Decl[None, RawJSON]{Info{"schema", "", "the scenario format's JSON Schema"}}
	Scale       = Decl[string, *workload.ScaleSummary]{Info{"scale", "text", "a workload's run, start to end: its scale summary"}}
	ScaleStart  = Decl[string, ScalePoint]{Info{"scale_start", "text", "starts a workload's run; it pauses about 200 times"}}
	ScaleNext   = Decl[None, ScalePoint]{Info{"scale_next", "", "the paused run, on to its next pause or its end"}}
	ScaleCancel = Decl[None, None]{Info{"scale_cancel", "", "ends the paused run, if there is one"}}
)

// All is every method, in the order declared above (what the declarations list; the wasm's
// test checks that it binds exactly these).
func All() []Method {
	return []Method{describe(Scenarios), describe(Bugs), describe(Legend), describe(Glossary), describe(Open), describe(Load), describe(View), describe(Steps), describe(Actions), describe(State), describe(Export), describe(Text), describe(Step), describe(Back), describe(Goto), describe(Apply), describe(Bug), describe(Release), describe(Create), describe(CompareBug), describe(CompareText), describe(CompareRuns), describe(CompareAt), describe(Explore), describe(StepForms), describe(FormatStep), describe(Lessons), describe(Lesson), describe(LessonText), describe(Diagnosis), describe(Workloads), describe(WorkloadTxt), describe(BuiltinText), describe(Schema), describe(Scale), describe(ScaleStart), describe(ScaleNext), describe(ScaleCancel)}
}

// ByName finds a declared method.
func ByName(name string) (Method, bool) {
	for _, m := range All() {
		if m.Name() == name {
			return m, true
		}
	}
	return nil, false
}
