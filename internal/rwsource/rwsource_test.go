package rwsource

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildShFetchesTheRefs: ./build.sh sources fetches the refs listed in refs.txt.
func TestBuildShFetchesTheRefs(t *testing.T) {
	b, err := os.ReadFile("../../build.sh")
	require.NoError(t, err)
	assert.Regexp(t, regexp.MustCompile(`local refs\n\s*refs=\$\(cat internal/rwsource/refs.txt\)`), string(b), "build.sh's sources() reads refs.txt")
	assert.NotEmpty(t, Refs())
	assert.NotEmpty(t, Files())
}
