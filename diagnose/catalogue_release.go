package diagnose

import (
	"sync"

	"github.com/backfill-explainer/explainer/engine"
)

// catalogueCache holds the catalogue built for one list of releases: a release added to the
// engine's registry (a test adds one in memory) gets its facts at the next question.
type catalogueCache struct {
	mu   sync.Mutex
	for_ []*engine.Release
	msgs []*Message
}

var built catalogueCache

// of returns the catalogue for these releases, building it when they changed.
func (c *catalogueCache) of(rs []*engine.Release) []*Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.msgs == nil || !sameReleases(c.for_, rs) {
		c.for_ = append([]*engine.Release(nil), rs...)
		c.msgs = buildCatalogue()
	}
	return c.msgs
}

func sameReleases(a, b []*engine.Release) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
