package session

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
)

// SetRelease runs the session under a RisingWave release (docs/scenario-format.md, Releases),
// from the start of its script to where it was. A release other than the file's adapts the
// script: a step the run cannot take under it (after a silent end, say) is skipped, not an error.
func (s *Session) SetRelease(name string) error {
	r, err := engine.ReleaseNamed(name)
	if err != nil {
		return err
	}
	cfg := *s.Scenario.Config
	was := s.Scenario.Config.Release
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
	branched, adapt, caveat := s.tl.Branched, s.tl.Adapt, s.tl.NoteCaveat
	s.tl = engine.NewTimeline(base, append([]engine.Step(nil), s.tl.Script()...), s.format)
	s.tl.Branched = branched
	s.tl.Adapt = adapt || releaseOf(was) != r
	s.tl.NoteCaveat = caveat
	if releaseOf(was) != r && caveat == "" {
		s.tl.NoteCaveat = fmt.Sprintf("(Written for this scenario under %s; this run, under %s, may differ.) ", releaseOf(was), r)
	}
	return s.tl.Goto(pos)
}

func releaseOf(r *engine.Release) *engine.Release {
	if r == nil {
		return engine.DefaultRelease
	}
	return r
}
