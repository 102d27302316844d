package rwsource

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildShFetchesTheRefs: ./build.sh sources fetches the refs listed here.
func TestBuildShFetchesTheRefs(t *testing.T) {
	b, err := os.ReadFile("../../build.sh")
	require.NoError(t, err)
	m := regexp.MustCompile(`local refs="([^"]*)"`).FindSubmatch(b)
	require.NotNil(t, m, "build.sh's sources() names its refs")
	assert.Equal(t, Refs, regexp.MustCompile(`\S+`).FindAllString(string(m[1]), -1))
	assert.NotEmpty(t, Files())
}
