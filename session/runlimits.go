package session

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/timeline"
)

// A session keeps its run within what a scenario file may hold, so that what export() (the
// page's Save) writes of any run it accepted can be opened again: the script as a file (the
// text FormatScenario writes) within MaxBytes, its steps within MaxSteps and its rows (chunk
// rows and start rows) within MaxRows, and the run's work within MaxWork.

// runSize is the size of a session's script as a file, or an upper bound of it: an applied step
// replaces the steps after the current one with some of them, so the script grows by at most
// that step.
type runSize struct {
	bytes, steps, rows int
	exact              bool
}

// measure returns the exact size of the session's script as a file.
func (s *Session) measure() runSize {
	sc := s.Script()
	r := runSize{bytes: len(scenarios.FormatScenario(sc)), steps: len(sc.Steps), rows: len(sc.Config.StartState), exact: true}
	for _, st := range sc.Steps {
		r.rows += len(st.Chunk)
	}
	return r
}

// over names the first limit a run of this size exceeds, or returns "".
func (r runSize) over() string {
	switch {
	case r.bytes > limits.bytes:
		return fmt.Sprintf("the run would be %d bytes as a scenario file; the limit is %d bytes (1 MiB)", r.bytes, limits.bytes)
	case r.steps > limits.steps:
		return fmt.Sprintf("the run would have %d steps; the limit is %d", r.steps, limits.steps)
	case r.rows > limits.rows:
		return fmt.Sprintf("the run would hold %d rows in all (chunk rows and start rows); the limit is %d", r.rows, limits.rows)
	}
	return ""
}

// checkSaved refuses a loaded scenario that, written out as export() writes it, would exceed
// a limit (a file in compact flow style can be smaller than its saved form).
func (s *Session) checkSaved() error {
	s.size = s.measure()
	if msg := s.size.over(); msg != "" {
		return &scenarios.Error{File: s.Scenario.File, Line: 1, Col: 1, Msg: "written out as the explainer saves scenarios, " + msg + ", so a saved run could not be opened again"}
	}
	return nil
}

// applyWithin applies a step unless the run would then exceed a limit, which the error names.
// It counts cheaply while the run stays well within the limits; near them it measures the
// script, and if the step made it too large it puts the timeline back as it was.
func (s *Session) applyWithin(st engine.Step, apply func() error) error {
	add := runSize{bytes: len(scenarios.FormatStep(s.Scenario.Config, st)) + len("  - \n"), steps: 1, rows: len(st.Chunk)}
	bound := runSize{bytes: s.size.bytes + add.bytes, steps: s.size.steps + add.steps, rows: s.size.rows + add.rows}
	if bound.over() == "" {
		if err := apply(); err != nil {
			return err
		}
		s.size = bound
		s.size.exact = false
		return nil
	}
	script, pos, branched := append([]engine.Step(nil), s.tl.Script()...), s.tl.Pos(), s.tl.Branched
	if err := apply(); err != nil {
		return err
	}
	after := s.measure()
	if after.over() == "" {
		s.size = after
		return nil
	}
	s.tl = timeline.New(s.base, script, s.format)
	s.tl.Branched = branched
	if err := s.tl.Goto(pos); err != nil {
		return err
	}
	return &scenarios.Error{Line: 1, Col: 1, Msg: after.over() + ", so a saved run could not be opened again"}
}
