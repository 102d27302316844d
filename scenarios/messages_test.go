package scenarios

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
