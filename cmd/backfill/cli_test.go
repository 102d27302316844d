package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

const head = `title: t
table: {columns: [a, id], locality: [a], stream_key: [id]}
vnodes: {count: 2, owned: [0], rule: ranges, bounds: [10]}
fragment: 7
steps:
  - barrier: 1
`

// TestInvalidScenariosExit2WithPosition: every malformed file exits 2 naming file:line:column,
// never panics, and prints nothing on stdout.
func TestInvalidScenariosExit2WithPosition(t *testing.T) {
	tests := []struct {
		name string
		text string
		line int // the line the error must name
		want string
	}{
		{"bad op", head + `  - chunk: ["* 1 100"]` + "\n", 7, "op"},
		{"wrong width", head + `  - chunk: ["+ 1 100 7"]` + "\n", 7, ""},
		{"unowned vnode", head + `  - chunk: ["+ 11 100"]` + "\n", 7, "vnode 1"},
		{"epoch going back", head + "  - barrier: 1\n", 7, "epoch"},
		{"unknown key", head + "  - barier: 2\n", 7, "barier"},
		{"unknown top-level key", "colour: red\n" + head, 1, "colour"},
		{"YAML syntax", head + "  - chunk: [\"+ 1 100\"\n", 0, ""},
		{"snapshot asked past its end", head + "  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 5\n", 8, "only 1 item left"},
		{"integer overflow", head + `  - chunk: ["+ 99999999999999999999 1"]` + "\n", 7, ""},
		{"unknown column", head + "  - watermark: {column: b, value: 1}\n", 7, "b"},
		{"step after failure", head + "  - end\n  - barrier: 3\n", 8, "only `recover` can follow"},
		{"zero vnodes", strings.Replace(head, "count: 2, owned: [0], rule: ranges, bounds: [10]", "count: 0", 1), 3, ""},
		{"insert an existing pk", head + `  - chunk: ["+ 1 100"]` + "\n" + `  - chunk: ["+ 1 100"]` + "\n", 8, "already holds"},
		{"empty file", "", 1, ""},
		{"not a mapping", "- 1\n- 2\n", 1, ""},
	}
	dir := t.TempDir()
	pos := regexp.MustCompile(`^(.+):(\d+):(\d+): .+`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".yaml")
			require.NoError(t, os.WriteFile(f, []byte(tt.text), 0o644))
			for _, args := range [][]string{{"run", "--json", f}, {"run", f}, {"validate", f}} {
				var stdout, stderr bytes.Buffer
				code := run(args, &stdout, &stderr)
				assert.Equal(t, 2, code, "%v: %s", args, stderr.String())
				assert.Empty(t, stdout.String())
				m := pos.FindStringSubmatch(strings.TrimSpace(stderr.String()))
				require.NotNil(t, m, "stderr %q names no file:line:column", stderr.String())
				assert.Equal(t, f, m[1])
				if tt.line > 0 {
					assert.Equal(t, tt.line, atoi(m[2]), stderr.String())
				}
				assert.Contains(t, stderr.String(), tt.want)
				assert.NotContains(t, stderr.String(), "internal error")
			}
		})
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestRunText(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "happy-path"}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "→ chunk +(3,102)✗ +(13,202)✗")
	assert.Contains(t, out, "(3,102) hidden: vnode 0 is in progress at (2,101) and (3,102) > (2,101); the chunk is written to the state table, so this row is left to the refreshed snapshot, which reads it from there")
	assert.Contains(t, out, "invariant: holds")
}

// TestRunTextCitesFilesByName: each explanation names the file and lines it cites, in words a
// newcomer reads, and a sentence about the explainer's own check says so instead of citing.
func TestRunTextCitesFilesByName(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "happy-path"}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "[locality_provider.rs:672-687]\n", "the marking sentence")
	assert.NotContains(t, out, "[LP:")
	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", "bug-no-state-write"}, &stdout, &stderr), stderr.String())
	assert.Regexp(t, `Invariant violated at e\d+: .*\[not RisingWave's code: the explainer's own\]\n`, stdout.String())
	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", "first-message-not-barrier"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "the wait for the first barrier panics on it.  [executor/mod.rs:1474-1476]\n")
}

// TestRunTextExplainsTheFailure: at the failing step the text trace prints the failure's
// explanation, keeping what the source proves (with lines) apart from what we infer.
func TestRunTextExplainsTheFailure(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "fatal-upstream-end"}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	for _, want := range []string{
		"  ✕ error (upstream-ended): locality provider upstream ended unexpectedly during backfill\n",
		"    what the source proves:\n",
		"[locality_provider.rs:599-604]",
		"    what we infer (not in the source):\n",
		"    left behind: Never emitted: 1 row in the builders (vnode 1) and 1 chunk in the upstream buffer (2 rows).",
		"    from here: Recovery is not in this file",
	} {
		assert.Contains(t, out, want)
	}
	assert.Equal(t, 1, strings.Count(out, "what it means:"), "printed once, at the failing step")
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"run"}, {"run", "no-such-scenario"}, {"validate"}, {"run", "--bogus", "x"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(args, &stdout, &stderr), "%v", args)
		assert.NotEmpty(t, stderr.String(), "%v", args)
	}
}

// TestRunBugPlaysTheWholeScript: `backfill run --bug B NAME` prints every step of the script,
// for every built-in and every bug mode, as text and as JSON.
func TestRunBugPlaysTheWholeScript(t *testing.T) {
	for i, name := range scenarios.BuiltinNames() {
		s, err := session.OpenBuiltin(name)
		require.NoError(t, err)
		last := len(s.Scenario.Steps)
		for j, b := range engine.Bugs {
			// (-short: each built-in under one bug mode, the next built-in under the next, so
			// that every mode is run; all of them without -short, as ./build.sh test runs it)
			if testing.Short() && j != i%len(engine.Bugs) {
				continue
			}
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, run([]string{"run", "--bug", b.Name, name}, &stdout, &stderr), "%s --bug %s: %s", name, b.Name, stderr.String())
			assert.Regexp(t, fmt.Sprintf(`(?m)^step %d  `, last), stdout.String(), "%s --bug %s reaches step %d", name, b.Name, last)
			stdout.Reset()
			require.Equal(t, 0, run([]string{"run", "--json", "--bug", b.Name, name}, &stdout, &stderr), "%s --bug %s: %s", name, b.Name, stderr.String())
			var tr struct{ Step int }
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &tr))
			assert.Equal(t, last, tr.Step, "%s --bug %s --json", name, b.Name)
		}
	}
}

// An error quotes its input at most ~200 characters: a 100 KB operand or flag value used to be
// echoed whole.
func TestErrorsQuoteAtMost200Characters(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	for _, args := range [][]string{
		{"run", long}, {"explore", long}, {"validate", long}, {"lesson", long}, {"glossary", long}, {long},
		{"run", "--bug", long, "happy-path"}, {"run", "--release", long, "happy-path"},
		{"diagnose", "--release", long, "text"}, {"run", "--json=" + long, "happy-path"},
		{"explore", "--max-states", long, "happy-path"}, {"serve", "--dir", long, "--addr", "127.0.0.1:1"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		assert.NotEqual(t, 0, code, "%.40v", args)
		for _, line := range strings.Split(stderr.String(), "\n") {
			assert.Less(t, len(line), 700, "%.40v: %.300s", args, line)
		}
	}
}

// check -dir of a directory that is not there says so in one line and exits 2 (it used to print
// 80 lines, exit 1, and look up workload goldens at /scale/golden/).
func TestCheckDirMissing(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"check", "-dir", "/nonexistent/golden"}, &stdout, &stderr))
	assert.Equal(t, "backfill check: -dir /nonexistent/golden: no such directory (the golden traces are in scenarios/testdata/golden)\n", stderr.String())
	assert.Empty(t, stdout.String())
}
