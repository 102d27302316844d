package session

import (
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/scenarios"
)

// every built-in, as written and under every bug mode: the runs the view parts are checked on.
func everyRun(t *testing.T, each func(t *testing.T, s *Session)) {
	t.Helper()
	testutil.EveryRun(t, scenarios.BuiltinNames(), bugNames(), 0, openRun, each)
}

// everyRunOrSome is everyRun, but under -short only every third built-in runs, under one mode
// (the modes in turn): for the checks that are slow on every pair.
func everyRunOrSome(t *testing.T, each func(t *testing.T, s *Session)) {
	t.Helper()
	testutil.EveryRun(t, scenarios.BuiltinNames(), bugNames(), 3, openRun, each)
}

// openRun opens a built-in at its start, under a bug mode ("": as written).
func openRun(name, bug string) (*Session, error) {
	s, err := OpenBuiltin(name)
	if err != nil || bug == "" {
		return s, err
	}
	if err := s.SetBug(bug); err != nil {
		return nil, err
	}
	return s, s.Goto(0)
}

func bugNames() []string {
	var n []string
	for _, b := range engine.Bugs {
		n = append(n, b.Name)
	}
	return n
}
