package session

import (
	"errors"
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/timeline"
	"github.com/backfill-explainer/explainer/view"
)

// Session is an opened scenario: its parsed file and a timeline over the engine. It is what the
// command line and the page's bridge drive.
type Session struct {
	Name       string
	Scenario   *scenarios.Scenario
	base       *engine.Engine
	tl         *timeline.Timeline
	size       runSize           // the script's size as a file, or a bound of it (runlimits.go)
	fileBug    engine.Bug        // the bug mode the script was written (and checked) for
	fileRel    *engine.Release   // the release it was written for (its `release:`, or the default)
	fileCreate engine.CreateType // the create type it was written for (its `create:`)

	fileTitle, fileSummary string // the title and summary for the file's release
}

// Load parses a scenario and checks it by running every step. Every error is an *Error naming
// file:line:column.
func Load(file string, text []byte) (*Session, error) {
	sc, err := scenarios.Parse(file, text)
	if err != nil {
		if e := scenarios.NotAScenario(file, text); e != nil {
			return nil, e // the explainer's own output, opened by mistake: say so
		}
		return nil, err
	}
	return Open(sc)
}

// Open checks a parsed scenario by running every step, as Load does after parsing (a lesson's
// inline scenario, read by a Reader).
func Open(sc *scenarios.Scenario) (*Session, error) {
	base, err := engine.New(sc.Config)
	if err != nil {
		return nil, &scenarios.Error{File: sc.File, Line: 1, Col: 1, Msg: err.Error()}
	}
	base.SetWorkLimit(int64(limits.work))
	s := &Session{Scenario: sc, base: base, fileBug: sc.Config.Bug, fileRel: sc.Config.RunRelease(), fileCreate: sc.Config.Create,
		fileTitle: sc.Config.Title, fileSummary: sc.Config.Summary}
	s.tl = timeline.New(base, sc.Steps, s.format)
	if err := s.tl.Prepare(); err != nil { // checks every step, keeps copies for fast goto
		return nil, stepError(sc, err)
	}
	if err := s.checkSaved(); err != nil {
		return nil, err
	}
	return s, nil
}

// stepError places an engine's refusal of a scripted step at that step's line and column.
func stepError(sc *scenarios.Scenario, err error) error {
	var se *timeline.StepError
	if !errors.As(err, &se) {
		return &scenarios.Error{File: sc.File, Line: 1, Col: 1, Msg: err.Error()}
	}
	p := sc.Pos[se.Index]
	pos := p.Pos
	if se.Err.Row >= 0 && se.Err.Row < len(p.Rows) {
		pos = p.Rows[se.Err.Row]
	}
	return &scenarios.Error{File: sc.File, Line: pos.Line, Col: pos.Col, Msg: fmt.Sprintf("step %d: %s", se.Index+1, se.Err.Msg)}
}

func (s *Session) format(st engine.Step) string { return scenarios.FormatStep(s.Scenario.Config, st) }

// Timeline returns the session's timeline.
func (s *Session) Timeline() *timeline.Timeline { return s.tl }

// View returns the view at the current step, with the scenario's name and the failure's checks:
// the one function that makes the view the page renders, in its final shape (one value, filled
// in place; the bridge writes it as it is: web/README-page.md, "One press of Next").
func (s *Session) View() *view.View {
	v := new(view.View)
	s.tl.FillView(v)
	if s.Name != "" {
		name := s.Name
		v.Name = &name
	}
	attachChecks(v.Failure)
	return v
}

// Revision changes whenever the script changes: a load, a branch (an injected step or another
// choice), a bug mode or a release (each a new timeline); moving along the script never changes
// it. It is the timeline's (timeline.Timeline.Revision): unique in the process, so a link made for
// one never fits another.
func (s *Session) Revision() int64 { return s.tl.Revision() }

// Step applies the next scripted step.
func (s *Session) Step() error { return s.tl.Step() }

// Back goes one step back.
func (s *Session) Back() error { return s.tl.Back() }

// Goto goes to the state after n steps.
func (s *Session) Goto(n int) error { return s.tl.Goto(n) }

// Steps is the number of steps in the (possibly branched) script.
func (s *Session) Steps() int { return s.tl.Len() }

// Actions lists what can happen next.
func (s *Session) Actions() []view.Action { return s.tl.Actions() }

// Apply makes a step written in the scenario format happen next (following the script when it
// is the scripted step, branching otherwise). Errors name the line and column within text.
func (s *Session) Apply(text string) error {
	st, err := scenarios.ParseStep(s.Scenario.Config, text)
	if err != nil {
		return err
	}
	if err := s.applyWithin(st, func() error { return s.tl.Apply(st) }); err != nil {
		var ie *engine.InputError
		if errors.As(err, &ie) {
			return &scenarios.Error{Line: 1, Col: 1, Msg: ie.Msg}
		}
		return err
	}
	return nil
}

// Trace returns the trace contract's object at the current step.
func (s *Session) Trace() engine.Trace { return s.tl.Engine().Trace() }

// Script returns the current script as a scenario (for export: it replays this run exactly).
func (s *Session) Script() *scenarios.Scenario {
	sc := *s.Scenario
	sc.Steps = append([]engine.Step(nil), s.tl.Script()...)
	sc.Pos = nil
	return &sc
}

// RunToEnd goes to the last step.
func (s *Session) RunToEnd() error { return s.tl.Goto(s.tl.Len()) }

// SetBug turns a bug mode on (or off with "none"), keeping the current step. The whole script
// still plays: it was checked for the file's own bug mode, so under another one a step that no
// longer fits is adapted and the adaptation narrated (engine.Engine.Play), never cut off.
func (s *Session) SetBug(name string) error {
	b, err := engine.ParseBug(name)
	if err != nil {
		return err
	}
	return s.rerun(func(cfg *engine.Config) { cfg.Bug = b })
}

// rerun runs the session's script again under its configuration changed by set, from its
// start to where it was (SetBug, SetRelease, SetCreate).
func (s *Session) rerun(set func(*engine.Config)) error {
	cfg := *s.Scenario.Config
	set(&cfg)
	run := cfg.RunRelease().Name // the title and summary written for the run's release
	cfg.Title, _ = s.Scenario.TitleFor(run, s.fileTitle)
	cfg.Summary, _ = s.Scenario.SummaryFor(run, s.fileSummary)
	base, err := engine.New(&cfg)
	if err != nil {
		return err
	}
	base.SetWorkLimit(int64(limits.work))
	pos := s.tl.Pos()
	sc := *s.Scenario
	sc.Config = &cfg
	s.Scenario = &sc
	s.base = base
	branched := s.tl.Branched
	s.tl = timeline.New(base, append([]engine.Step(nil), s.tl.Script()...), s.format)
	s.tl.Branched = branched
	s.tl.Adapt, s.tl.NoteCaveat = s.writtenFor(branched)
	return s.tl.Goto(pos)
}

// writtenFor says whether the script plays adapted (it was written for another bug mode or
// release than the run's, or the run left it) and the caveat its notes then carry.
func (s *Session) writtenFor(branched bool) (adapt bool, caveat string) {
	cfg := s.Scenario.Config
	b, r := cfg.Bug, cfg.RunRelease()
	bugDiffers, relDiffers := b != s.fileBug, r != s.fileRel
	switch {
	case bugDiffers:
		caveat = fmt.Sprintf("(Written for this scenario %s; this run, %s, may differ.) ", bugPhrase(s.fileBug), bugPhrase(b))
	}
	// a note written for another release is hidden (timeline/notes.go)
	s.tl.NoteFor = ""
	if relDiffers && !s.Scenario.Written(r.Name) {
		s.tl.NoteFor = s.Scenario.WrittenNames()
	}
	createDiffers := cfg.Create != s.fileCreate
	if createDiffers {
		caveat += fmt.Sprintf("(Written for a job created in the %s; this run's was created in the %s.) ", s.fileCreate, cfg.Create)
	}
	return bugDiffers || relDiffers || createDiffers || branched, caveat
}

// bugPhrase names a run's bug mode in words.
func bugPhrase(b engine.Bug) string {
	if b == engine.BugNone {
		return "without a bug mode"
	}
	return "under bug mode " + b.String()
}
