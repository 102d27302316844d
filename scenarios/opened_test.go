package scenarios_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of the format that open a session (package session, which imports this one).

// Builtins parses the files without running them; its list must be exactly the one opening
// (parsing and running) every built-in gives.
func TestBuiltinsAsOpened(t *testing.T) {
	var want []scenarios.Info
	for _, n := range scenarios.BuiltinNames() {
		s, err := session.OpenBuiltin(n)
		require.NoError(t, err, n)
		c := s.Scenario.Config
		want = append(want, scenarios.Info{Name: n, Title: c.Title, Summary: scenarios.FirstLine(c.Summary)})
	}
	got := scenarios.Builtins()
	assert.Equal(t, want, got)
	got[0].Title = "changed by a caller"
	assert.Equal(t, want, scenarios.Builtins(), "a caller's change to the list does not reach the next caller")
}

// An error repeats at most a readable part of a long text from the file (60 characters and
// "…"): a 500 KB column name used to be echoed in full (values and texts are now bounded too, so
// those cases use the longest the format allows).
func TestErrorsClipLongInput(t *testing.T) {
	long := strings.Repeat("x", 500_000)
	tests := []struct{ name, text, want string }{
		{"column name", "title: t\ntable: {columns: [A" + long + ", id], locality: [a], stream_key: [id]}\nsteps: []\n",
			`2:19: bad column name "A` + strings.Repeat("x", 59) + `…"; names match [a-z_][a-z0-9_]*`},
		{"key", "title: t\n" + long[:1000] + ": 1\n", `2:1: unknown key "` + strings.Repeat("x", 60) + `…" in scenario; allowed keys: title, summary, table, vnodes, chunk_size, fragment, actor, bug, release, create, written_for, start, steps`},
		{"bare word in a row", scenarios.Hdr + "  - chunk: [\"+ 1 " + long + "!\"]\n", "5:18: bad value " + strings.Repeat("x", 60) + "…; a value is an integer"},
		{"integer in a row", scenarios.Hdr + "  - chunk: [\"+ 1 " + strings.Repeat("9", 500_000) + "\"]\n", "5:18: integer " + strings.Repeat("9", 60) + "… overflows bigint"},
		{"string in an integer column", scenarios.Hdr + "  - chunk: [\"+ '" + long[:1000] + "' 1\"]\n", "5:16: column a must hold integers (rule ranges); " + strings.Repeat("x", 60) + "… is a string"},
		{"bug mode", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nbug: " + long[:1000] + "\nsteps: []\n", `3:6: unknown bug mode "` + strings.Repeat("x", 200) + `…" (one of:`},
		{"release", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nrelease: " + long + "\nsteps: []\n", `3:10: release: unknown release "` + strings.Repeat("x", 200) + `…"`},
		{"a delete the upstream does not hold", scenarios.Hdr + "  - chunk: [\"- 1 '" + long[:1000] + "'\"]\n", "5:13: step 1: deletes (1," + strings.Repeat("x", 60) + "…), which the upstream does not hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(tt.text, "columns: [a, id]", "columns: [a, id:varchar]", 1)
			if tt.name != "a delete the upstream does not hold" {
				text = tt.text
			}
			_, err := session.Load("", []byte(text))
			require.Error(t, err)
			msg := err.Error()
			assert.Less(t, utf8.RuneCountInString(msg), 400, "the message must stay readable")
			assert.True(t, strings.HasPrefix(msg, tt.want), "got %.300s", msg)
		})
	}
}

// TestParseRefusesAWorkload: a scenario file with steps cannot be a workload, and the step
// parser (the page's load(), backfill validate on a steps file) says what a workload file is.
func TestParseRefusesAWorkload(t *testing.T) {
	_, err := scenarios.Parse("w.yaml", []byte(scenarios.WlHead+"workload: {rows: 10}\n"))
	require.Error(t, err)
	assert.Equal(t, "w.yaml:4:1: this file is a workload (scale mode), not a list of steps: run it with `backfill run FILE`, or on the page's Scale panel", err.Error())
	_, err = session.Load("w.yaml", []byte(scenarios.WlHead+"workload: {rows: 10}\n"))
	assert.EqualError(t, err, "w.yaml:4:1: this file is a workload (scale mode), not a list of steps: run it with `backfill run FILE`, or on the page's Scale panel")
	_, err = scenarios.Parse("w.yaml", []byte(scenarios.WlHead+"steps: []\nworkload: {rows: 10}\n"))
	assert.EqualError(t, err, "w.yaml:5:1: a scenario has either steps or a workload, not both (steps at line 4, workload at line 5)")
	assert.True(t, scenarios.IsWorkload([]byte(scenarios.WlHead+"workload: {rows: 10}\n")))
	assert.False(t, scenarios.IsWorkload([]byte(scenarios.WlHead+"steps: []\n")))
	assert.False(t, scenarios.IsWorkload([]byte("workload: [")))
	assert.False(t, scenarios.IsWorkload([]byte("- workload\n")))
}
