package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunCodePrintsTheLitLines: `run --code` names, under each step, the code-map line(s) it
// lights, with the release's own lines; without --code the text has none.
func TestRunCodePrintsTheLitLines(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "--code", "fatal-upstream-end"}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "step 5  chunk +(4,103,x)   [backfilling]\n  ▶ code: backfill loop › upstream chunk → compact, buffer  [locality_provider.rs:592-595]\n")
	assert.Contains(t, out, "  ▶ code: backfill loop › upstream ended → error  [locality_provider.rs:599-604]\n")
	assert.Contains(t, out, "  ▶ code: backfill barrier › 6. emit the barrier  [locality_provider.rs:728]\n")
	for _, block := range strings.Split(out, "\nstep ")[1:] {
		if strings.Contains(block, "  · ") {
			assert.Contains(t, block, "  ▶ code: ", "a step that says something lights a line: step %s", block)
		}
	}

	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", "--code", "--release", "v3.0", "fatal-upstream-end"}, &stdout, &stderr), stderr.String())
	out = stdout.String()
	assert.NotContains(t, out, "upstream ended → error")
	assert.Contains(t, out, "  ▶ code: backfill loop › upstream ended → only the snapshot answers, to its end  [locality_provider.rs:573-589]\n")
	assert.Contains(t, out, "  ▶ code: backfill barrier › 6. emit the barrier  [locality_provider.rs:735]\n")

	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", "fatal-upstream-end"}, &stdout, &stderr), stderr.String())
	assert.NotContains(t, stdout.String(), "▶ code:")
}
