package session

import "github.com/backfill-explainer/explainer/engine"

// SetRelease runs the session under a RisingWave release (docs/scenario-format.md, Releases),
// from the start of its script to where it was. A release other than the file's adapts the
// script: a step the run cannot take under it (after a silent end, say) is skipped, not an error.
func (s *Session) SetRelease(name string) error {
	r, err := engine.ReleaseNamed(name)
	if err != nil {
		return err
	}
	cfg := *s.Scenario.Config
	cfg.Release = r
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
	s.tl = engine.NewTimeline(base, append([]engine.Step(nil), s.tl.Script()...), s.format)
	s.tl.Branched = branched
	s.tl.Adapt, s.tl.NoteCaveat = s.writtenFor(branched)
	return s.tl.Goto(pos)
}
