package session

import (
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
)

// SetRelease runs the session under a RisingWave release (docs/scenario-format.md, Releases),
// from the start of its script to where it was. A release other than the file's adapts the
// script: a step the run cannot take under it (after a silent end, say) is skipped, not an error.
func (s *Session) SetRelease(name string) error {
	r, err := scenarios.ReleaseNamed(name)
	if err != nil {
		return err
	}
	return s.rerun(func(cfg *engine.Config) { cfg.Release = r })
}

// SetCreate runs the session with the job created in the foreground or the background
// (docs/scenario-format.md, The job), from the start of its script to where it was; a step the
// run cannot take (after the recovery dropped the job) is skipped, not an error.
func (s *Session) SetCreate(name string) error {
	c, err := scenarios.CreateTypeNamed(name)
	if err != nil {
		return err
	}
	return s.rerun(func(cfg *engine.Config) { cfg.Create = c })
}
