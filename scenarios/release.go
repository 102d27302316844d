package scenarios

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

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

// release reads `release:`: a release's name (a number too is read as text, to say what to write).
func (p *parser) release(n *yaml.Node) *engine.Release {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.failAt(n, "release: expected one of %s, found %s", engine.ReleaseNames(), describe(n))
	}
	r, err := engine.ReleaseNamed(n.Value)
	if err != nil {
		p.failAt(n, "release: %s", strings.Replace(err.Error(), n.Value, clip(n.Value), 1))
	}
	return r
}
