package docs

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/glossary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite protocol.md's glossary section from glossary.Glossary")

const (
	glossaryBegin = "<!-- glossary:begin -->\n"
	glossaryEnd   = "<!-- glossary:end -->\n"
)

// glossaryMarkdown renders glossary.Glossary as the body of protocol.md's Glossary section.
func glossaryMarkdown(entries []glossary.GlossaryEntry) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString("- **" + e.Term + "**")
		if len(e.Aliases) > 0 {
			b.WriteString(" (also: " + strings.Join(e.Aliases, ", ") + ")")
		}
		b.WriteString(": " + e.Definition + "\n")
	}
	return b.String()
}

// splitGlossary returns protocol.md around its generated glossary body.
func splitGlossary(t *testing.T, text string) (before, body, after string) {
	i := strings.Index(text, glossaryBegin)
	j := strings.Index(text, glossaryEnd)
	require.True(t, i >= 0 && j > i, "protocol.md must hold the generated glossary between %q and %q", strings.TrimSpace(glossaryBegin), strings.TrimSpace(glossaryEnd))
	i += len(glossaryBegin)
	return text[:i], text[i:j], text[j:]
}

// TestGlossarySection fails when protocol.md's glossary differs from glossary.Glossary;
// `go generate ./docs` (go test -run TestGlossarySection -update) rewrites it.
func TestGlossarySection(t *testing.T) {
	raw, err := os.ReadFile("protocol.md")
	require.NoError(t, err)
	before, body, after := splitGlossary(t, string(raw))
	want := glossaryMarkdown(glossary.Glossary)
	if *update {
		require.NoError(t, os.WriteFile("protocol.md", []byte(before+want+after), 0o644))
		return
	}
	if body != want {
		t.Errorf("protocol.md's glossary differs from glossary.Glossary (run go generate ./docs): %s", firstDifference(want, body))
	}
}

// firstDifference names the first line where two texts differ.
func firstDifference(want, have string) string {
	w, h := strings.Split(want, "\n"), strings.Split(have, "\n")
	for i := 0; i < max(len(w), len(h)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(h) {
			b = h[i]
		}
		if a != b {
			return fmt.Sprintf("line %d of the section: want %q, have %q", i+1, a, b)
		}
	}
	return "no difference"
}

func TestGlossaryMarkdown(t *testing.T) {
	got := glossaryMarkdown([]glossary.GlossaryEntry{
		{Term: "pos", Aliases: []string{"position"}, Definition: "Where it is."},
		{Term: "vnode", Definition: "A bucket."},
	})
	assert.Equal(t, "- **pos** (also: position): Where it is.\n- **vnode**: A bucket.\n", got)
	assert.Equal(t, "no difference", firstDifference("a\nb\n", "a\nb\n"))
	assert.Equal(t, `line 2 of the section: want "b", have ""`, firstDifference("a\nb\n", "a\n"))
}
