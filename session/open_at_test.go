package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenAtLeavesTheSessionAtZero: a file's `open_at` changes nothing of the session: it starts
// at step 0 (the page goes to open_at).
func TestOpenAtLeavesTheSessionAtZero(t *testing.T) {
	const head = "title: x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: [barrier: 1, barrier: 2]\n"
	s, err := Load("f.yaml", []byte(head+"open_at: 1\n"))
	require.NoError(t, err)
	assert.Equal(t, 0, s.Timeline().Pos(), "the session itself starts at 0 (the page goes to open_at)")
}
