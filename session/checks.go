package session

import (
	"fmt"

	"github.com/backfill-explainer/explainer/diagnose"
	"github.com/backfill-explainer/explainer/failure"
)

// attachChecks adds to a failure's explanation what to check, in order, at the view's release:
// the diagnosis's advice for the message the failure prints (diagnose.Checks). It lives here,
// above the engine, because the diagnosis reads the engine's failure table: the engine cannot
// import it, and the advice stays written once, in diagnose/catalogue.go.
func attachChecks(f *failure.FailureView) {
	if f == nil {
		return
	}
	id, checks := diagnose.Checks(f.Kind, f.Message, f.Release)
	if checks == nil {
		return
	}
	f.Checks = checks
	f.ChecksFrom = fmt.Sprintf("the diagnosis of %q at %s; A is the failed actor's id, from its log line", diagnose.Lookup(id).Text, f.Release)
}

// FailureExplanation is the explanation (package failure) of the failure at the current step, with what
// to check (nil when the executor has not failed).
func (s *Session) FailureExplanation() *failure.FailureView {
	f := failure.Explain(s.tl.Engine())
	attachChecks(f)
	return f
}
