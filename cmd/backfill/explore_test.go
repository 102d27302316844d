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

	for _, args := range [][]string{{"explore"}, {"explore", "--bug", "nope", "happy-path"}, {"explore", "--example", "999", "happy-path"},
		{"explore", "--example", "-1", "happy-path"}, {"explore", "--max-states", "-5", "happy-path"}, {"explore", "--max-states", "0", "happy-path"},
		{"explore", "--max-memory", "0", "happy-path"}} {
		stderr.Reset()
		assert.Equal(t, 2, run(args, &stdout, &stderr), "%v", args)
		assert.NotEmpty(t, stderr.String(), "%v", args)
	}
}

// A capped exploration says which budget stopped it, and that it is not exhaustive.
func TestExploreCommandSaysWhereItStopped(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"explore", "--max-states", "5", "builder-fills-mid-epoch"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "5 distinct states")
	assert.Contains(t, stdout.String(), "(stopped at the budget of 5 states, not exhaustive: the counts are those of the schedules explored)")
	assert.Contains(t, stdout.String(), "in every schedule explored")

	stdout.Reset()
	require.Equal(t, 0, run([]string{"explore", "--json", "--max-states", "5", "builder-fills-mid-epoch"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), `"exhaustive": false`)
	assert.Contains(t, stdout.String(), `"stopped": "stopped at the budget of 5 states`)
}
