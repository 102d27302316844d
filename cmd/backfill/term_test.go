package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTermWriterEscapesControls(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text, é → 漢\n\ttab", "plain text, é → 漢\n\ttab"},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"bell\a del\x7f cr\r", `bell\x07 del\x7f cr\x0d`},
		{"csi \u009b2J", `csi \u009b2J`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		w := newTermWriter(&b)
		_, err := w.Write([]byte(tt.in))
		require.NoError(t, err)
		require.NoError(t, w.Flush())
		assert.Equal(t, tt.want, b.String(), "%q", tt.in)
	}
	// a character split between two writes passes whole
	var b bytes.Buffer
	w := newTermWriter(&b)
	_, _ = w.Write([]byte("→"[:2]))
	_, _ = w.Write([]byte("→"[2:] + "!"))
	require.NoError(t, w.Flush())
	assert.Equal(t, "→!", b.String())
}

// Titles, notes, error messages and values from a file reach the terminal with their control
// characters escaped (they used to be written raw: a title could clear the screen or retitle
// the terminal); JSON output keeps its own escaping.
func TestCLITextEscapesControlCharacters(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "esc.yaml")
	text := "title: \"evil\\e]0;pwned\\a title\"\nsummary: \"clear \\e[2J screen\"\n" +
		"table: {columns: [a, id, v:varchar], locality: [a], stream_key: [id]}\nvnodes: {count: 1}\n" +
		"steps:\n  - barrier: 1\n  - {chunk: [\"+ 1 2 'x\\u009by'\"], note: \"note \\e[31mred\"}\n  - error: \"boom \\e[5m\"\n"
	require.NoError(t, os.WriteFile(f, []byte(text), 0o644))
	raw := func(s string) bool { return strings.ContainsAny(s, "\x1b\x07\u009b") }

	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", f}, &stdout, &stderr), stderr.String())
	assert.False(t, raw(stdout.String()), "run's text must not hold raw control characters")
	assert.Contains(t, stdout.String(), `evil\x1b]0;pwned\x07 title`)
	assert.Contains(t, stdout.String(), `note \x1b[31mred`)
	assert.Contains(t, stdout.String(), `boom \x1b[5m`)

	stdout.Reset()
	require.Equal(t, 0, run([]string{"run", "--json", f}, &stdout, &stderr), stderr.String())
	assert.False(t, raw(strings.ReplaceAll(stdout.String(), "\u009b", "")), "JSON escapes ESC and BEL itself")
	assert.Contains(t, stdout.String(), `\u001b`)

	stdout.Reset()
	require.Equal(t, 0, run([]string{"explore", f}, &stdout, &stderr), stderr.String())
	assert.False(t, raw(stdout.String()))

	// errors: a value and a file name with control characters
	bad := filepath.Join(dir, "bad\x1b[2J.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("title: t\n\"key\\e[2J\": 1\n"), 0o644))
	for _, cmd := range []string{"validate", "run"} {
		stdout.Reset()
		stderr.Reset()
		assert.Equal(t, 2, run([]string{cmd, bad}, &stdout, &stderr))
		assert.False(t, raw(stderr.String()), "%s: %q", cmd, stderr.String())
		assert.Contains(t, stderr.String(), `bad\x1b[2J.yaml:2:1:`)
	}
}

// A workload's title reaches the table of `backfill run` escaped too.
func TestWorkloadTextEscapesControlCharacters(t *testing.T) {
	f := filepath.Join(t.TempDir(), "w.yaml")
	text := "title: \"evil\\e]0;pwned\\a title\"\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\n" +
		"vnodes: {count: 4}\nworkload: {rows: 20, snapshot_per_epoch: 10, upstream_per_epoch: 2}\n"
	require.NoError(t, os.WriteFile(f, []byte(text), 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"run", f}, &stdout, &stderr), stderr.String())
	assert.False(t, strings.ContainsAny(stdout.String(), "\x1b\x07"), "the table must not hold raw control characters: %q", stdout.String())
	assert.Contains(t, stdout.String(), `evil\x1b]0;pwned\x07 title`)
}

// A file is read at most up to the size limit: a large file is refused from its size before it
// is read, and a device that never ends after 1 MiB and a byte (`backfill run /dev/zero`
// used to grow past 9 GB).
func TestCLIReadsAtMostTheLimit(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.yaml")
	fh, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, fh.Truncate(64<<20)) // a sparse 64 MiB file
	require.NoError(t, fh.Close())
	for _, cmd := range []string{"run", "validate", "explore"} {
		var stdout, stderr bytes.Buffer
		var code int
		n := testutil.Allocated(func() { code = run([]string{cmd, big}, &stdout, &stderr) })
		assert.Equal(t, 2, code, cmd)
		assert.Contains(t, stderr.String(), big+":1:1: the scenario is 67108864 bytes; the limit is 1048576 bytes (1 MiB)", cmd)
		assert.Less(t, n, uint64(4<<20), "%s must not read the file", cmd)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		var stdout, stderr bytes.Buffer
		var code int
		n := testutil.Allocated(func() { code = run([]string{"run", "/dev/zero"}, &stdout, &stderr) })
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr.String(), "/dev/zero:1:1: the scenario is more than 1048576 bytes; the limit is 1048576 bytes (1 MiB)")
		assert.Less(t, n, uint64(16<<20))
	}
}

// Characters that change how the text around them reads (U+202E turns a line around, U+2028
// breaks it, U+FEFF and U+200B hide) are escaped in text output, as control characters are.
func TestTermWriterEscapesInvisibleFormatCharacters(t *testing.T) {
	var b bytes.Buffer
	w := newTermWriter(&b)
	_, _ = w.Write([]byte("a\u202eb\u2028c\ufeffd\u200be → é"))
	assert.Equal(t, `a\u202eb\u2028c\ufeffd\u200be → é`, b.String())
}
