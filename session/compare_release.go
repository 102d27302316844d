package session

import "github.com/backfill-explainer/explainer/engine"

// CompareRelease compares this session's run with the same script under another RisingWave
// release (docs/scenario-format.md, Releases), each labelled by its release. A script played
// under a release it was not written for is adapted, as SetRelease does.
func (s *Session) CompareRelease(name string) (*Comparison, error) {
	r, err := engine.ReleaseNamed(name)
	if err != nil {
		return nil, err
	}
	cfg := *s.Scenario.Config
	cfg.Release = r
	here := releaseOf(s.Scenario.Config.Release)
	c, err := compareRuns(s.Scenario.Config, s.tl.Script(), s.tl.Adapt, &cfg, s.tl.Script(), s.tl.Adapt || r != here)
	if err != nil {
		return nil, err
	}
	c.Left, c.Right = "under "+here.Name, "under "+r.Name
	return c, nil
}
