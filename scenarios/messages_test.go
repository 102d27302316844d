package scenarios

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An error repeats at most a readable part of a long text from the file (60 characters and
// "…"): a 500 KB column name used to be echoed in full.
func TestErrorsClipLongInput(t *testing.T) {
	long := strings.Repeat("x", 500_000)
	tests := []struct{ name, text, want string }{
		{"column name", "title: t\ntable: {columns: [A" + long + ", id], locality: [a], stream_key: [id]}\nsteps: []\n",
			`2:19: bad column name "A` + strings.Repeat("x", 59) + `…"; names match [a-z_][a-z0-9_]*`},
		{"key", "title: t\n" + long[:1000] + ": 1\n", `2:1: unknown key "` + strings.Repeat("x", 60) + `…" in scenario; allowed keys: title, summary, table, vnodes, chunk_size, fragment, actor, bug, release, start, steps`},
		{"bare word in a row", hdr + "  - chunk: [\"+ 1 " + long + "!\"]\n", "5:18: bad value " + strings.Repeat("x", 60) + "…; a value is an integer"},
		{"integer in a row", hdr + "  - chunk: [\"+ 1 " + strings.Repeat("9", 500_000) + "\"]\n", "5:18: integer " + strings.Repeat("9", 60) + "… overflows bigint"},
		{"string in an integer column", hdr + "  - chunk: [\"+ '" + long + "' 1\"]\n", "5:16: column a must hold integers (rule ranges); " + strings.Repeat("x", 60) + "… is a string"},
		{"bug mode", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nbug: " + long + "\nsteps: []\n", `3:6: unknown bug mode "` + strings.Repeat("x", 60) + `…" (one of:`},
		{"release", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nrelease: " + long + "\nsteps: []\n", `3:10: release: unknown release "` + strings.Repeat("x", 60) + `…": expected one of`},
		{"a delete the upstream does not hold", hdr + "  - chunk: [\"- 1 '" + long + "'\"]\n", "5:13: step 1: deletes (1," + strings.Repeat("x", 60) + "…), which the upstream does not hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(tt.text, "columns: [a, id]", "columns: [a, id:varchar]", 1)
			if tt.name != "a delete the upstream does not hold" {
				text = tt.text
			}
			_, err := Load("", []byte(text))
			require.Error(t, err)
			msg := err.Error()
			assert.Less(t, utf8.RuneCountInString(msg), 400, "the message must stay readable")
			assert.True(t, strings.HasPrefix(msg, tt.want), "got %.300s", msg)
		})
	}
}

// Explicit tags other than the standard ones the format reads are refused where they stand:
// !!binary, !!timestamp or a custom !tag used to be decoded silently into something else.
func TestExplicitTags(t *testing.T) {
	const tbl = "table: {columns: [a, id], locality: [a], stream_key: [id]}\n"
	refused := []struct{ text, want string }{
		{"title: !!binary aGVsbG8=\n" + tbl + "steps: []\n", "1:8: the tag !!binary is not supported in scenario files; write the value without it (the tags accepted are !!str, !!int, !!bool, !!null, !!seq, !!map)"},
		{"title: t\n" + tbl + "steps:\n  - barrier: !!timestamp 2001-12-14\n", "4:14: the tag !!timestamp is not supported"},
		{"title: t\n" + tbl + "steps:\n  - chunk: [!row \"+ 1 1\"]\n", "4:13: the tag !row is not supported"},
		{"title: t\n" + tbl + "steps: !!set {a: null}\n", "3:8: the tag !!set is not supported"},
		{"title: t\n" + tbl + "steps:\n  - watermark: {column: a, value: !!float 5}\n", "4:35: the tag !!float is not supported"},
	}
	for _, tt := range refused {
		_, err := Parse("", []byte(tt.text))
		require.Error(t, err, tt.text)
		assert.True(t, strings.HasPrefix(err.Error(), tt.want), "%s", err)
	}
	sc, err := Parse("", []byte("title: !!str 5\ntable: !!map {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: !!seq [{barrier: !!int 1}]\n"))
	require.NoError(t, err, "the standard tags that say what a value is are accepted")
	assert.Equal(t, "5", sc.Config.Title)
}
