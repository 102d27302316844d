package scenarios

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every built-in's head reads alone (no built-in falls back to a whole parse at start-up).
func TestBuiltinHeadReadsEveryBuiltin(t *testing.T) {
	for _, n := range BuiltinNames() {
		text, err := BuiltinText(n)
		require.NoError(t, err)
		_, _, ok := builtinHead(text)
		assert.True(t, ok, n)
	}
}

func TestBuiltinHead(t *testing.T) {
	for _, c := range []struct {
		text, title, summary string
		ok                   bool
	}{
		{"title: T\nsummary: |\n  one\n  two\ntable: {columns: [a]}\n", "T", "one\ntwo\n", true},
		{"# a comment\ntitle: \"Q: quoted\"\n\n# another\nsteps:\n  - end\n", "Q: quoted", "", true},
		{"summary: S\ntitle: T\nvnodes: {count: 2}\n", "T", "S", true},
		{"title: >\n  folded\n  text\n", "folded text\n", "", true},
		{"title: T\n", "T", "", true},
		{"title: {v3.1: new, v2.7 v3.0: old}\nsummary:\n  v2.7 v2.8 v3.0: o\n  v3.1: n\ntable: x\n", "new", "n", true}, // per release: the default's
		{"title: {v3.0: old}\ntable: x\n", "", "", false},
		{"title: {v3.1: new}\ntable: x\nrelease: v3.0\n", "", "", false}, // the file's release is not the default
		{"title: ''\ntable: x\n", "", "", false},                         // empty: the parser's error, not a head
		{"title: null\ntable: x\n", "", "", false},                       // not text
		{"title: 12\ntable: x\n", "", "", false},                         // not text
		{"title: [a]\ntable: x\n", "", "", false},                        // not a scalar
		{"table: x\ntitle: T\n", "", "", false},                          // the head ends before the title
		{"title: T\ntitle: U\nsteps: []\n", "", "", false},
		{"title: T\nsummary: {a: 1}\n", "", "", false},
		{"title: 'unclosed\ntable: x\n", "", "", false},
		{"- a list\n", "", "", false},
		{"", "", "", false},
	} {
		title, summary, ok := builtinHead([]byte(c.text))
		assert.Equal(t, c.ok, ok, c.text)
		if c.ok {
			assert.Equal(t, c.title, title, c.text)
			assert.Equal(t, c.summary, summary, c.text)
		}
	}
}
