package view

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
)

// BugIn is bug mode b's description in release r: its lines and link in that release's file,
// and its history said for that release (nil for BugNone).
func BugIn(b engine.Bug, r *engine.Release) *engine.BugInfo {
	i := b.Info()
	if i == nil || r == engine.DefaultRelease {
		return i
	}
	c := *i
	l, ok := r.At(engine.FileLocalityProvider, i.Lines)
	if !ok {
		panic(fmt.Sprintf("internal error: %s has no lines for bug mode %s", r.Name, i.Name))
	}
	c.Lines, c.URL, c.Release = l, r.URL(engine.FileLocalityProvider, l), r.Name
	if c.Bug == engine.BugNoStateWrite {
		c.History += fmt.Sprintf(" %s has the write too (every release here does); like the executor before the PR, it rebuilds the snapshot at every barrier and has neither the upstream-ended error nor the rescale checks.", r.Name)
	}
	return &c
}
