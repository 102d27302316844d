package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

func runDiagnose(t *testing.T, in string, args ...string) (int, string, string) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(in)
	defer func() { stdin = old }()
	var out, errb bytes.Buffer
	code := run(append([]string{"diagnose"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

const fatalLine = "2026-08-30T10:12:03Z ERROR actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: Executor error: locality provider upstream ended unexpectedly during backfill"

func TestDiagnoseCommand(t *testing.T) {
	code, out, errs := runDiagnose(t, "", "--release", "v3.0", fatalLine)
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, "Release v3.0: v3.0 cannot produce this message (produced by "+engine.NamesWhere(func(r *engine.Release) bool { return r.EndFails })+" only).")
	assert.Contains(t, out, "#scenario=fatal-upstream-end&step=10&release=v3.0")

	code, out, _ = runDiagnose(t, "", "--release", "v3.1", fatalLine)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Not the upstream actor's logs first")

	// several arguments are one text
	code, out, _ = runDiagnose(t, "", "the", "first", "message", "must", "be", "a", "barrier")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Panic: the first message must be a barrier")

	// stdin, with the colours of a terminal
	code, out, _ = runDiagnose(t, "\x1b[31mERROR\x1b[0m "+fatalLine+"\n", "--release", "v3.1", "-")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Error: locality provider upstream ended unexpectedly during backfill")
	assert.NotContains(t, out, "\x1b")

	// not recognised: still exit 0, an honest answer and the list
	code, out, _ = runDiagnose(t, "", "connection refused")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "This text holds no message the diagnosis knows")
	assert.Contains(t, out, "exchange channel from local|remote upstream actor N closed unexpectedly")
}

func TestDiagnoseBadInputExits2(t *testing.T) {
	for _, args := range [][]string{{}, {"--release", "v9", "x"}, {"--nope", "x"}, {"--release"}} {
		code, out, errs := runDiagnose(t, "", args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.NotEmpty(t, errs)
	}
}

func TestDiagnoseCapAndEscape(t *testing.T) {
	big := strings.Repeat("y", 70<<10)
	code, out, _ := runDiagnose(t, big, "-")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "it was cut, and only its first 64 KiB were read")
	code, out, _ = runDiagnose(t, "Executor error: \x07\x1b]0;title\x07\x00 the first message must be a barrier\x08", "-")
	assert.Equal(t, 0, code)
	for _, r := range out {
		assert.False(t, r != '\n' && (r < 0x20 || r == 0x7f), "control character %U printed", r)
	}
}

func TestDiagnoseJSON(t *testing.T) {
	code, out, _ := runDiagnose(t, "", "--json", "--release", "v3.0", fatalLine)
	require.Equal(t, 0, code)
	var a struct {
		Recognised bool `json:"recognised"`
		Matches    []struct {
			ID       string `json:"id"`
			Produces bool   `json:"produces"`
			Open     struct {
				Scenario string `json:"scenario"`
				Step     int    `json:"step"`
				Release  string `json:"release"`
			} `json:"open"`
		} `json:"matches"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &a))
	require.True(t, a.Recognised)
	assert.Equal(t, "upstream-ended", a.Matches[0].ID)
	assert.False(t, a.Matches[0].Produces)
	assert.Equal(t, "fatal-upstream-end", a.Matches[0].Open.Scenario)
	assert.Equal(t, 10, a.Matches[0].Open.Step)
	assert.Equal(t, "v3.0", a.Matches[0].Open.Release)
}
