package scenarios

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Builtins parses the files without running them; its list must be exactly the one opening
// (parsing and running) every built-in gives.
func TestBuiltinsAsOpened(t *testing.T) {
	var want []Info
	for _, n := range BuiltinNames() {
		s, err := OpenBuiltin(n)
		require.NoError(t, err, n)
		c := s.Scenario.Config
		want = append(want, Info{Name: n, Title: c.Title, Summary: firstLine(c.Summary)})
	}
	got := Builtins()
	assert.Equal(t, want, got)
	got[0].Title = "changed by a caller"
	assert.Equal(t, want, Builtins(), "a caller's change to the list does not reach the next caller")
}

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
		{"title: ''\ntable: x\n", "", "", false},   // empty: the parser's error, not a head
		{"title: null\ntable: x\n", "", "", false}, // not text
		{"title: 12\ntable: x\n", "", "", false},   // not text
		{"title: [a]\ntable: x\n", "", "", false},  // not a scalar
		{"table: x\ntitle: T\n", "", "", false},    // the head ends before the title
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
