//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strings"
)

// fakeLibrary and fakeSession stand in for package scenarios so the bridge
// is tested on its own.
type fakeLibrary struct{ opened []string }

type fakeInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
}

func (l *fakeLibrary) Builtins() any {
	return []fakeInfo{{"happy-path", "Happy path", "Backfill finishes."}, {"upstream-ends", "Upstream ends", "The fatal path."}}
}

func (l *fakeLibrary) Open(name string) (Session, error) {
	l.opened = append(l.opened, name)
	switch name {
	case "happy-path":
		return &fakeSession{steps: 3}, nil
	case "panics":
		panic("open exploded")
	case "nil":
		return nil, nil
	}
	return nil, fmt.Errorf("unknown scenario %q", name)
}

func (l *fakeLibrary) Load(text string) (Session, error) {
	if strings.HasPrefix(text, "steps:") {
		return &fakeSession{steps: strings.Count(text, "-")}, nil
	}
	return nil, lineColumnError{errors.New(":1:1: expected a mapping with title, table, steps")}
}

type fakeSession struct {
	step, steps int
	applied     []string
	panicView   bool
	nilActions  bool
	traceStep   bool
}

type fakeView struct {
	Step  int    `json:"step"`
	Steps int    `json:"steps"`
	Note  string `json:"note"`
}

func (s *fakeSession) View() any {
	if s.panicView {
		var m map[string]int
		m["boom"] = 1 // a nil-map write: a real runtime panic, not a panic(string)
	}
	return fakeView{Step: s.step, Steps: s.steps, Note: "<b>&'\"</b>"}
}

func (s *fakeSession) Step() error {
	if s.step >= s.steps {
		return errors.New("at the last step")
	}
	s.step++
	return nil
}

func (s *fakeSession) Back() error {
	if s.step == 0 {
		return errors.New("at the first step")
	}
	s.step--
	return nil
}

func (s *fakeSession) Goto(n int) error {
	if n < 0 || n > s.steps {
		return fmt.Errorf("step %d is outside 0..%d", n, s.steps)
	}
	s.step = n
	return nil
}

func (s *fakeSession) Steps() int { return s.steps }

func (s *fakeSession) Actions() any {
	type action struct {
		ID   string `json:"id"`
		Step string `json:"step"`
	}
	if s.nilActions {
		return []action(nil)
	}
	return []action{{"next", "barrier: 4"}}
}

func (s *fakeSession) Apply(text string) error {
	switch text {
	case "explode":
		panic(errors.New("apply exploded"))
	case "":
		return errors.New("empty step")
	}
	s.applied = append(s.applied, text)
	s.steps = s.step + 1
	s.step++
	return nil
}

func (s *fakeSession) Trace() any {
	t := map[string]any{"title": "Happy path", "outputs": []any{}, "error": nil, "phase": "starting", "progress_table": []any{}, "downstream": []any{}}
	if s.traceStep {
		t["step"] = 99
	}
	return t
}
