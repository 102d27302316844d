package glossary

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every word a newcomer meets must be defined: the terms the page's glossary promises, and the
// others the narration and the docs use.
func TestGlossaryDefinesTheNewcomersWords(t *testing.T) {
	words := []string{
		// named by the page's glossary requirement
		"vnode", "pos", "epoch", "barrier", "checkpoint", "committed vs durable", "committed", "durable",
		"chunk", "visibility", "watermark", "snapshot", "builder", "buffer", "upstream buffer",
		"state table", "progress table",
		// met in the narration and the docs
		"fragment", "actor", "stream key", "locality columns", "marking", "recovery", "invariant",
		"pk", "mutation", "start signal", "StartFragmentBackfill", "rescale", "refresh", "reuse",
		"NotStarted", "InProgress", "Completed", "progress report", "meta service", "compaction",
		"op", "update pair", "upstream", "downstream", "executor", "locality provider", "phase",
		"buffering", "backfill", "completion", "forwarding", "race", "chunk_size", "bug mode",
		"message", "scenario",
	}
	for _, w := range words {
		_, ok := LookupTerm(w)
		assert.True(t, ok, "the glossary does not define %q", w)
	}
}

func TestLookupTerm(t *testing.T) {
	tests := []struct{ word, term string }{
		{"vnode", "vnode"},
		{"  Virtual Node ", "vnode"},
		{"upstream buffer", "buffer"},
		{"durable", "committed vs durable"},
		{"startfragmentbackfill", "start signal"},
		{"U+", "op"},
	}
	for _, tt := range tests {
		got, ok := LookupTerm(tt.word)
		require.True(t, ok, tt.word)
		assert.Equal(t, tt.term, got.Term, tt.word)
	}
	_, ok := LookupTerm("quantum flux")
	assert.False(t, ok)
	_, ok = LookupTerm("")
	assert.False(t, ok)
}

var sentenceEnd = regexp.MustCompile(`[.!?](\s|$)`)

func TestGlossaryEntriesAreWellFormed(t *testing.T) {
	seen := map[string]string{}
	for i, e := range Glossary {
		if i > 0 {
			assert.Less(t, strings.ToLower(Glossary[i-1].Term), strings.ToLower(e.Term), "the glossary is in alphabetical order")
		}
		for _, name := range append([]string{e.Term}, e.Aliases...) {
			k := strings.ToLower(name)
			assert.NotEmpty(t, strings.TrimSpace(name), "entry %q has an empty name", e.Term)
			if prev, dup := seen[k]; dup {
				t.Errorf("%q names both %q and %q", name, prev, e.Term)
			}
			seen[k] = e.Term
		}
		d := e.Definition
		assert.True(t, strings.HasSuffix(d, "."), "%q: a definition ends with a full stop", e.Term)
		n := len(sentenceEnd.FindAllString(d, -1))
		assert.True(t, n >= 1 && n <= 2, "%q: a definition is one or two sentences, found %d", e.Term, n)
		for _, bad := range []string{"`", "**", "§", "LP:", ".md", "the seed", "\n"} {
			assert.NotContains(t, d, bad, "%q: definitions are plain text for every reader", e.Term)
		}
	}
	inv, _ := LookupTerm("invariant")
	assert.Contains(t, inv.Definition, "not RisingWave's", "the invariant is the explainer's check and says so")
}
