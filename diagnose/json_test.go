package diagnose

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSONAsEncodingJSON: the hand-written JSON is encoding/json's, for every message under
// every release, no release, an unknown text and a paste with control characters and < > &.
func TestJSONAsEncodingJSON(t *testing.T) {
	texts := []string{"nothing known <b>&amp;</b>", "\x1b[1m<x>\x00\u2028 " + logLines[MsgExchangeUpstream]}
	for _, l := range logLines {
		texts = append(texts, l)
	}
	for _, text := range texts {
		for _, rel := range append([]string{""}, ReleaseNames()...) {
			a, err := Diagnose(text, rel)
			require.NoError(t, err)
			want, err := json.Marshal(a)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(a.AppendJSON(nil)))
		}
	}
}
