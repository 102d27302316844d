package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExploreCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"explore", "happy-path"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "the invariant held in every schedule")

	stdout.Reset()
	require.Equal(t, 0, run([]string{"explore", "--bug", "mark-before-drain", "builder-fills-mid-epoch"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "VIOLATED")
	assert.Contains(t, stdout.String(), "missing (2,150)")

	// an outcome's example is a scenario file that replays that schedule
	stdout.Reset()
	require.Equal(t, 0, run([]string{"explore", "--example", "1", "--bug", "mark-before-drain", "builder-fills-mid-epoch"}, &stdout, &stderr), stderr.String())
	f := filepath.Join(t.TempDir(), "example.yaml")
	require.NoError(t, os.WriteFile(f, stdout.Bytes(), 0o644))
	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", f}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "invariant: violated")

	for _, args := range [][]string{{"explore"}, {"explore", "--bug", "nope", "happy-path"}, {"explore", "--example", "999", "happy-path"}} {
		stderr.Reset()
		assert.Equal(t, 2, run(args, &stdout, &stderr), "%v", args)
	}
}
