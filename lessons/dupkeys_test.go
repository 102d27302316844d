package lessons

import (
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/stretchr/testify/require"
)

// Issue 34 HIGH 1, every door: a text of repeated keys costs what its size does whichever
// entry reads it (a scenario, a workload, the page's load and Scale, a lesson), at the top level
// and inside a nested mapping, and the answer names the first repeat's line and column. The
// YAML library's own check (decoding into a map) compared every pair: 8,000 keys took 94 s and
// 4.3 GB; session/dupkeys_test.go holds the page's load alone.
func TestDuplicateKeysAreLinearAtEveryEntry(t *testing.T) {
	const n = 8000
	top := strings.Repeat("a:\n", n)
	nested := "title: t\ntable:\n" + strings.Repeat("  a: 1\n", n)
	entries := []struct {
		name string
		read func(text []byte) error
	}{
		{"scenarios.Parse", func(b []byte) error { _, err := scenarios.Parse("d.yaml", b); return err }},
		{"scenarios.ParseWorkload", func(b []byte) error { _, err := scenarios.ParseWorkload("d.yaml", b); return err }},
		{"scenarios.Scale", func(b []byte) error { _, err := scenarios.Scale("d.yaml", b, nil); return err }},
		{"session.Load", func(b []byte) error { _, err := session.Load("d.yaml", b); return err }},
		{"lessons.Parse", func(b []byte) error { _, err := Parse("d.yaml", b); return err }},
	}
	for _, e := range entries {
		for _, c := range []struct{ text, want string }{
			{top, `d.yaml:2:1: duplicate key "a"`},
			{nested, `d.yaml:4:3: duplicate key "a"`},
		} {
			var err error
			alloc := testutil.Allocated(func() { err = e.read([]byte(c.text)) })
			require.Less(t, alloc, uint64(256<<10+2048*len(c.text)), "%s: %d keys allocated %d bytes", e.name, n, alloc)
			require.ErrorContains(t, err, c.want, e.name)
		}
	}
	// IsWorkload reads the same text without a map either
	alloc := testutil.Allocated(func() { scenarios.IsWorkload([]byte(top)) })
	require.Less(t, alloc, uint64(256<<10+2048*len(top)), "IsWorkload: %d bytes", alloc)
}

// A repeated key stops the parse where it is read (the YAML decoder's UniqueKeys, a change of the
// library's copy in third_party/yaml): 1 MiB of repeated keys costs what its first lines do plus
// the text's own copies, not a tree of 700,000 nodes (179 MB, 10 s in the CLI, 108 s under
// WebAssembly, before). Likewise a repeat deep inside a mapping near the start.
func TestRepeatedKeysStopAtTheFirstRepeat(t *testing.T) {
	const size = 1<<20 - 64
	top := strings.Repeat("a:\n", size/3)
	nested := "title: t\ntable:\n  a: 1\n  a: 2\n" + strings.Repeat("x: 1\n", (size-40)/5)
	for _, c := range []struct{ text, want string }{
		{top, `d.yaml:2:1: duplicate key "a"`},
		{nested, `d.yaml:4:3: duplicate key "a"`},
	} {
		for name, read := range map[string]func([]byte) error{
			"scenarios.Parse":                           func(b []byte) error { _, err := scenarios.Parse("d.yaml", b); return err },
			"scenarios.ParseWorkload":                   func(b []byte) error { _, err := scenarios.ParseWorkload("d.yaml", b); return err },
			"session.Load":                              func(b []byte) error { _, err := session.Load("d.yaml", b); return err },
			"lessons.Parse (refused by its size first)": func(b []byte) error { _, err := Parse("d.yaml", b); return err },
		} {
			var err error
			alloc := testutil.Allocated(func() { err = read([]byte(c.text)) })
			require.Less(t, alloc, uint64(16*len(c.text)), "%s: %d bytes allocated for %d bytes of text", name, alloc, len(c.text))
			if name != "lessons.Parse (refused by its size first)" {
				require.ErrorContains(t, err, c.want, name)
			}
			t.Logf("%s: %.1f MB allocated", name, float64(alloc)/1e6)
		}
	}
}
