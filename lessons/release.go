package lessons

import (
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/session"
)

// playRelease runs a section's session as the named release (engine.Releases; docs/scenario-
// format.md, "Releases"): the steps, questions and predict checkpoints are then checked against
// that release's run. A name the engine does not know is an error that says what to write.
func playRelease(sess *session.Session, name string) error {
	if _, err := engine.ReleaseNamed(name); err != nil {
		return err
	}
	return sess.SetRelease(name)
}
