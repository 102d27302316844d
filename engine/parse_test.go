package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/backfill-explainer/explainer/engine"
)

// TestParseExchangeClosed: the hand parser reads what fmt.Sscanf read, and refuses the rest.
func TestParseExchangeClosed(t *testing.T) {
	for msg, want := range map[string]struct {
		kind  string
		actor int64
		ok    bool
	}{
		"exchange channel from local upstream actor 7 closed unexpectedly":                    {"local", 7, true},
		"exchange channel from remote upstream actor 1234 closed unexpectedly: status":        {"remote", 1234, true},
		"exchange channel from local upstream actor x closed unexpectedly":                    {},
		"exchange channel from local upstream actor 7":                                        {},
		"exchange channel to downstream actor 7 closed unexpectedly":                          {},
		"exchange channel from  upstream actor 7 closed unexpectedly":                         {},
		"exchange channel from local upstream actor 99999999999999999999 closed unexpectedly": {},
	} {
		kind, actor, ok := engine.ParseExchangeClosed(msg)
		assert.Equal(t, want.ok, ok, msg)
		if ok {
			assert.Equal(t, want.kind, kind, msg)
			assert.Equal(t, want.actor, actor, msg)
		}
	}
}
