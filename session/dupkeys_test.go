package session

import (
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/stretchr/testify/require"
)

// Duplicate keys are found on the node tree in one pass: a text of n repeated keys costs what
// its size does. The "not a scenario" check used to unmarshal it into a map, where the YAML
// library compares every key with every other and formats an error per pair (8,000 keys:
// 94 s, 4.3 GB; 2,000 keys allocate over a gigabyte).
func TestDuplicateKeysAreLinear(t *testing.T) {
	for _, n := range []int{2000, 8000} {
		text := []byte(strings.Repeat("a:\n", n))
		var err error
		alloc := testutil.Allocated(func() { _, err = Load("d.yaml", text) })
		require.Less(t, alloc, uint64(256<<10+2048*len(text)), "%d keys allocated %d bytes", n, alloc)
		require.ErrorContains(t, err, `d.yaml:2:1: duplicate key "a"`)
	}
}
