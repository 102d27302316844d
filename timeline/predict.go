package timeline

import "github.com/backfill-explainer/explainer/view"

// predictCache keeps the last prediction: it holds for every position from `from` up to the
// step before its barrier (or, when none was found, up to `until`) while the script is the same.
type predictCache struct {
	rev   int64
	from  int
	until int // positions < until share the answer
	p     *view.Prediction
}

// prediction returns the prediction at the timeline's position (nil when no barrier within
// predictAhead steps of the script marks a buffer with rows).
func (t *Timeline) prediction() *view.Prediction {
	pos := t.Pos()
	if c := t.pred; c != nil && c.rev == t.rev && pos >= c.from && pos < c.until {
		return at(c.p, pos)
	}
	p, until := predict(t.cur, t.script, pos)
	t.pred = &predictCache{rev: t.rev, from: pos, until: until, p: p}
	return at(p, pos)
}

// at is p as seen from position pos: Next says whether its barrier is the next step.
func at(p *view.Prediction, pos int) *view.Prediction {
	if p == nil {
		return nil
	}
	c := *p
	c.Next = p.Step == pos+1
	return &c
}
