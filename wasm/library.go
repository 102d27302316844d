//go:build js && wasm

package main

import (
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
)

// The real wiring: the bridge's Library over package scenarios.
func init() {
	library = scenarioLibrary{}
	bugModes = func() any { return engine.Bugs }
}

type scenarioLibrary struct{}

func (scenarioLibrary) Builtins() any { return scenarios.Builtins() }

func (scenarioLibrary) Open(name string) (Session, error) {
	s, err := scenarios.OpenBuiltin(name)
	if err != nil {
		return nil, err
	}
	return scenarioSession{s}, nil
}

// Load parses scenario text with the file name "" and strips whatever
// file-name prefix the parser still writes (":12:5: …"), so errors read
// "line:column: message" as the page API promises (see lineColumnError).
func (scenarioLibrary) Load(text string) (Session, error) {
	s, err := scenarios.Load("", []byte(text))
	if err != nil {
		return nil, lineColumnError{err}
	}
	return scenarioSession{s}, nil
}

type scenarioSession struct{ s *scenarios.Session }

func (x scenarioSession) View() any                   { return x.s.View() }
func (x scenarioSession) Step() error                 { return x.s.Step() }
func (x scenarioSession) Back() error                 { return x.s.Back() }
func (x scenarioSession) Goto(n int) error            { return x.s.Goto(n) }
func (x scenarioSession) Steps() int                  { return x.s.Steps() }
func (x scenarioSession) Actions() any                { return x.s.Actions() }
func (x scenarioSession) Apply(stepText string) error { return x.s.Apply(stepText) }
func (x scenarioSession) Trace() any                  { return x.s.Trace() }

func (x scenarioSession) SetBug(name string) error { return x.s.SetBug(name) }
func (x scenarioSession) Export() any              { return x.s.Export() }
func (x scenarioSession) Explore(n int) (any, error) {
	return x.s.Explore(n)
}
func (x scenarioSession) CompareBug(bug string) (any, error) { return x.s.CompareBug(bug) }
func (x scenarioSession) CompareText(text string) (any, error) {
	c, err := x.s.CompareText(text)
	if err != nil {
		return nil, lineColumnError{err}
	}
	return c, nil
}
