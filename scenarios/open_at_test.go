package scenarios

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenAt: `open_at` is read (0 without it), bounded by the number of steps, with the error
// at its value (a session still starts at step 0: session/open_at_test.go).
func TestOpenAt(t *testing.T) {
	const head = "title: x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: [barrier: 1, barrier: 2]\n"
	sc, err := Parse("f.yaml", []byte(head))
	require.NoError(t, err)
	assert.Equal(t, 0, sc.OpenAt)
	sc, err = Parse("f.yaml", []byte(head+"open_at: 2\n"))
	require.NoError(t, err)
	assert.Equal(t, 2, sc.OpenAt)
	_, err = Parse("f.yaml", []byte(head+"open_at: 3\n"))
	require.EqualError(t, err, "f.yaml:4:10: open_at must be in 0..2, found 3")
	_, err = Parse("f.yaml", []byte(head+"open_at: -1\n"))
	require.EqualError(t, err, "f.yaml:4:10: open_at must be in 0..2, found -1")
}
