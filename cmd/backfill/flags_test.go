package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlagsAfterOperands: every command takes its flags after its operands as before them, and
// "--" ends the flags.
func TestFlagsAfterOperands(t *testing.T) {
	for _, tc := range []struct{ before, after []string }{
		{[]string{"run", "--json", "happy-path"}, []string{"run", "happy-path", "--json"}},
		{[]string{"run", "--bug", "no-state-write", "happy-path"}, []string{"run", "happy-path", "--bug", "no-state-write"}},
		{[]string{"run", "--json", "--bug=no-state-write", "happy-path"}, []string{"run", "happy-path", "--bug=no-state-write", "--json"}},
		{[]string{"explore", "--json", "--max-states", "50", "happy-path"}, []string{"explore", "happy-path", "--max-states", "50", "--json"}},
		{[]string{"explore", "--example", "1", "happy-path"}, []string{"explore", "happy-path", "--example", "1"}},
		{[]string{"glossary", "--json", "checkpoint", "vnode"}, []string{"glossary", "checkpoint", "--json", "vnode"}},
		{[]string{"run", "happy-path"}, []string{"run", "--", "happy-path"}},
	} {
		var want, got, stderr bytes.Buffer
		require.Equal(t, 0, run(tc.before, &want, &stderr), "%v: %s", tc.before, stderr.String())
		require.Equal(t, 0, run(tc.after, &got, &stderr), "%v: %s", tc.after, stderr.String())
		assert.Equal(t, want.String(), got.String(), "%v prints what %v prints", tc.after, tc.before)
		assert.Empty(t, stderr.String())
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"run", "happy-path", "--", "--json"}, &stdout, &stderr), "after -- --json is an operand: two operands")
	assert.Contains(t, stderr.String(), "usage: backfill run ")
}

var commands = []string{"run", "check", "explore", "validate", "list", "serve", "glossary", "diagnose", "lesson"}

// TestUsageNamesEveryFlag: each command's usage line (on -h, on a misuse) names every flag its
// -h lists, and so does the command's entry in the top-level usage.
func TestUsageNamesEveryFlag(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -(\S+)`)
	for _, cmd := range commands {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run([]string{cmd, "-h"}, &stdout, &stderr), cmd)
		help := stderr.String()
		line, _, _ := strings.Cut(help, "\n")
		require.True(t, strings.HasPrefix(line, "usage: backfill "+cmd), "%s -h: %q", cmd, line)
		top := topUsage(t, cmd)
		flags := flagLine.FindAllStringSubmatch(help, -1)
		for _, f := range flags {
			name := f[1]
			assert.Regexp(t, `\[--`+name+`[\] ]`, line, "%s's usage line names --%s", cmd, name)
			assert.Regexp(t, `\[--?`+name+`[\] ]`, top, "the top-level usage names %s --%s", cmd, name)
		}
		if cmd == "run" {
			assert.Len(t, flags, 4, "run has --bug, --code, --json and --release")
		}
	}
	for _, args := range [][]string{{"run"}, {"run", "a", "b"}, {"run", "happy-path", "--bogus"}, {"explore"}, {"validate"}, {"list", "x"}, {"check", "x"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(args, &stdout, &stderr), "%v", args)
		var help bytes.Buffer
		run([]string{args[0], "-h"}, &stdout, &help)
		want, _, _ := strings.Cut(help.String(), "\n")
		assert.Contains(t, stderr.String(), want+"\n", "%v prints the derived usage line", args)
	}
}

// topUsage is the top-level usage's entry for cmd: its line and any continuation lines.
func topUsage(t *testing.T, cmd string) string {
	var entry []string
	in := false
	for _, l := range strings.Split(usage, "\n") {
		if strings.HasPrefix(l, "  backfill ") {
			in = strings.HasPrefix(l, "  backfill "+cmd+" ")
		}
		if in {
			entry = append(entry, l)
		}
	}
	require.NotEmpty(t, entry, "the top-level usage lists %s", cmd)
	return strings.Join(entry, "\n")
}

// TestDiagnoseTakesItsFlagsAfterTheText: `diagnose TEXT --release R` answers for R.
func TestDiagnoseTakesItsFlagsAfterTheText(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"diagnose", "locality provider upstream ended unexpectedly during backfill", "--release", "v3.0"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "v3.0 cannot produce")
}

// Integer flags are decimal and within their range: 0x10 and 010 are refused with the reason,
// and a value past the bound names the bound (--max-memory 8796093022208 used to overflow to the
// default 256 MiB in silence).
func TestIntegerFlagsAreDecimalAndBounded(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", "--max-memory", "0x10", "happy-path"}, "hexadecimal is not allowed"},
		{[]string{"explore", "--max-states", "010", "happy-path"}, "a leading zero is not allowed"},
		{[]string{"explore", "--example", "1_0", "happy-path"}, "digit separators (_) are not allowed"},
		{[]string{"explore", "--max-memory", "8796093022208", "happy-path"}, "must be in 1..1048576 (MiB)"},
		{[]string{"explore", "--max-states", "99999999999999999999", "happy-path"}, "overflows"},
		{[]string{"explore", "--max-states", "0", "happy-path"}, "must be in 1..100000000"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &stdout, &stderr), "%v", tc.args)
		assert.Contains(t, stderr.String(), tc.want, "%v", tc.args)
		assert.Empty(t, stdout.String(), "%v", tc.args)
	}
}
