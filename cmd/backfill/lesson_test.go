package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runArgs(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestLessonList(t *testing.T) {
	code, out, errOut := runArgs("lesson")
	assert.Equal(t, 0, code)
	assert.Empty(t, errOut)
	assert.Equal(t, "workshop          45 min  The locality provider's backfill: a 45-minute workshop\n"+
		"met-this-error    10 min  I met this error: locality provider upstream ended unexpectedly during backfill\n", out)
}

// `backfill lesson NAME` prints the plan: the lessons package's golden text, byte for byte.
func TestLessonPlan(t *testing.T) {
	for _, n := range []string{"workshop", "met-this-error"} {
		code, out, errOut := runArgs("lesson", n)
		assert.Equal(t, 0, code)
		assert.Empty(t, errOut)
		want, err := os.ReadFile(filepath.Join("..", "..", "lessons", "testdata", "plan", n+".txt"))
		require.NoError(t, err)
		assert.Equal(t, string(want), out, n)
	}
	// a file: the built-in's text under another name prints the same plan
	text, err := os.ReadFile(filepath.Join("..", "..", "lessons", "workshop.yaml"))
	require.NoError(t, err)
	f := filepath.Join(t.TempDir(), "mine.yaml")
	require.NoError(t, os.WriteFile(f, text, 0o644))
	_, fromFile, _ := runArgs("lesson", f)
	_, builtin, _ := runArgs("lesson", "workshop")
	assert.Equal(t, builtin, fromFile)
}

func TestLessonCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	require.NoError(t, os.WriteFile(good, []byte("title: t\nsections:\n  - {title: s, minutes: 3, scenario: happy-path, steps: [0, 6]}\n"), 0o644))
	code, out, errOut := runArgs("lesson", "check", good)
	assert.Equal(t, 0, code)
	assert.Equal(t, good+": ok\n", out)
	assert.Empty(t, errOut)

	for _, c := range []struct{ name, text, want string }{
		{"range", "title: t\nsections:\n  - {title: s, minutes: 3, scenario: happy-path, steps: {to: 30}}\n",
			":3:62: section 1 steps: to 30 is past the scenario's last step (it has 18 steps)\n"},
		{"syntax", "title: t\nsections: [\n", ":2:12: invalid YAML: did not find expected node content\n"},
		{"key", "title: t\nsections:\n  - {title: s, minutes: 3, scenario: happy-path, goa: x}\n",
			`:3:50: unknown key "goa" in section 1; allowed keys: title, goal, scenario, release, bug, steps, minutes, notes, questions` + "\n"},
	} {
		f := filepath.Join(dir, c.name+".yaml")
		require.NoError(t, os.WriteFile(f, []byte(c.text), 0o644))
		code, out, errOut := runArgs("lesson", "check", f)
		assert.Equal(t, 2, code, c.name)
		assert.Empty(t, out, c.name)
		assert.Equal(t, f+c.want, errOut, c.name)
		code, _, errOut = runArgs("lesson", f)
		assert.Equal(t, 2, code, c.name)
		assert.Equal(t, f+c.want, errOut, c.name)
	}
	code, _, errOut = runArgs("lesson", "nope")
	assert.Equal(t, 2, code)
	assert.Equal(t, "backfill: no built-in lesson or file named \"nope\" (built-in: workshop, met-this-error)\n", errOut)
	code, _, _ = runArgs("lesson", "check")
	assert.Equal(t, 2, code)
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("#\n"), 600_000), 0o644))
	_, _, errOut = runArgs("lesson", "check", big)
	assert.Equal(t, big+":1:1: the lesson is 1200000 bytes; the limit is 1048576 bytes (1 MiB)\n", errOut)
}
