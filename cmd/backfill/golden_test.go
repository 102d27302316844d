package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// TestBuiltinsMatchTheirGoldenTraces is `backfill check` inside go test (the built-ins' goldens
// alone are engine/golden_test.go's too; this runs the command, workloads included). Under
// -short: the workloads' goldens only, but those of a million rows (1.5 s each).
func TestBuiltinsMatchTheirGoldenTraces(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if testing.Short() {
		large := func(ws *scenarios.WorkloadScenario) bool { return ws.Workload.Rows >= 1_000_000 }
		n, failed := checkWorkloads("../../scenarios/testdata/golden", false, large, &stdout, &stderr)
		assert.Zero(t, failed, "%s%s", stdout.String(), stderr.String())
		assert.GreaterOrEqual(t, n, 2, "a built-in workload and scale/small.yaml")
		return
	}
	code := checkCmd([]string{"-dir", "../../scenarios/testdata/golden"}, &stdout, &stderr)
	assert.Equal(t, 0, code, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "0 failed")
}

// TestEveryBuiltinTeaches: every built-in has a title, a summary, notes, and runs to its end.
func TestEveryBuiltinTeaches(t *testing.T) {
	names := scenarios.BuiltinNames()
	require.GreaterOrEqual(t, len(names), 11)
	for _, n := range []string{"happy-path", "builder-fills-mid-epoch", "mixed-visibility", "fatal-upstream-end",
		"end-while-buffering", "snapshot-ends-first", "first-message-not-barrier", "recovery-resumes",
		"crash-while-buffering", "rescale-mid-backfill", "no-vnode-in-progress"} {
		assert.Contains(t, names, n)
	}
	for _, n := range names {
		s, err := session.OpenBuiltin(n)
		require.NoError(t, err, n)
		assert.NotEmpty(t, s.Scenario.Config.Summary, n)
		notes := 0
		for _, st := range s.Scenario.Steps {
			if st.Note != "" {
				notes++
			}
		}
		assert.GreaterOrEqual(t, notes, 2, "%s narrates its lesson in step notes", n)
	}
	s, err := session.OpenBuiltin("fatal-upstream-end")
	require.NoError(t, err)
	found := false
	for !found && s.Timeline().Pos() < s.Steps() {
		require.NoError(t, s.Step())
		if f := s.Timeline().Engine().Failure(); f != nil && f.Message == "locality provider upstream ended unexpectedly during backfill" {
			found = true
		}
	}
	assert.True(t, found, "fatal-upstream-end reaches the seed's error")
	require.NoError(t, s.RunToEnd())
	assert.Nil(t, s.Trace().Error, "and recovers from it")
	assert.Equal(t, "holds", s.View().Invariant.Status)
}

// TestCheckComparesTheTextTraceToo: `backfill check -update` writes a JSON and a text golden per
// built-in, and `backfill check` fails when either differs, naming the file and the line.
func TestCheckComparesTheTextTraceToo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: writes and checks every built-in's goldens once more")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, checkCmd([]string{"-update", "-dir", dir}, &stdout, &stderr), stderr.String())
	for _, n := range scenarios.BuiltinNames() {
		for _, ext := range []string{".json", ".txt"} {
			assert.FileExists(t, filepath.Join(dir, n+ext))
		}
	}
	txt := filepath.Join(dir, "happy-path.txt")
	b, err := os.ReadFile(txt)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(txt, bytes.Replace(b, []byte("is emitted"), []byte("is sent"), 1), 0o644))
	stdout.Reset()
	assert.Equal(t, 1, checkCmd([]string{"-dir", dir}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "happy-path: the trace differs from "+txt)
	assert.Contains(t, stdout.String(), "1 failed")
}

// TestGoldenDirHoldsExactlyTheBuiltins: one JSON and one text golden per built-in, and per
// release whose trace differs from the default's (which ones: internal/golden.CheckReleases
// decides, `backfill check` checks), nothing else.
func TestGoldenDirHoldsExactlyTheBuiltins(t *testing.T) {
	files, err := filepath.Glob("../../scenarios/testdata/golden/*")
	require.NoError(t, err)
	may, got := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		got[filepath.Base(f)] = true
	}
	for _, n := range scenarios.BuiltinNames() {
		assert.True(t, got[n+".json"] && got[n+".txt"], "%s: its two goldens", n)
		may[n+".json"], may[n+".txt"] = true, true
		for _, r := range engine.Releases {
			if r != engine.DefaultRelease {
				may[n+"."+r.Name+".json"], may[n+"."+r.Name+".txt"] = true, true
				assert.Equal(t, got[n+"."+r.Name+".json"], got[n+"."+r.Name+".txt"], "%s under %s: both goldens or none", n, r.Name)
			}
		}
	}
	for f := range got {
		assert.True(t, may[f], "%s is no built-in's golden", f)
	}
}
