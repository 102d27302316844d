package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/glossary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGlossaryCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string // in stdout (code 0) or stderr
		terms    int      // entries printed (-1: don't count)
	}{
		{"every term", []string{"glossary"}, 0, []string{"vnode (also: vnodes, virtual node)\n    One of a fixed number", "progress table\n"}, len(glossary.Glossary)},
		{"one word by alias", []string{"glossary", "Upstream Buffer"}, 0, []string{"buffer (also: upstream buffer, buffered chunk)\n"}, 1},
		{"two words", []string{"glossary", "pos", "epoch"}, 0, []string{"pos (also:", "epoch (also:"}, 2},
		{"unknown word", []string{"glossary", "flux"}, 2, []string{`"flux" is not in the glossary`}, -1},
		{"bad flag", []string{"glossary", "--yaml"}, 2, []string{"flag provided but not defined"}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			require.Equal(t, tt.code, code, stderr.String())
			out := stdout.String()
			if code != 0 {
				out = stderr.String()
				assert.Empty(t, stdout.String())
			}
			for _, c := range tt.contains {
				assert.Contains(t, out, c)
			}
			if tt.terms >= 0 {
				// entries are separated by one blank line; definitions are indented
				assert.Equal(t, tt.terms, len(strings.Split(strings.TrimSpace(out), "\n\n")))
				for _, line := range strings.Split(out, "\n") {
					assert.LessOrEqual(t, len([]rune(line)), 80, "line too long: %q", line)
				}
			}
		})
	}
}

func TestGlossaryCommandJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"glossary", "--json"}, &stdout, &stderr), stderr.String())
	var got []glossary.GlossaryEntry
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got))
	assert.Equal(t, glossary.Glossary, got)

	stdout.Reset()
	require.Equal(t, 0, run([]string{"glossary", "--json", "durable"}, &stdout, &stderr), stderr.String())
	assert.JSONEq(t, `[{"term": "committed vs durable", "aliases": ["committed", "durable"],
		"definition": "`+mustLookup(t, "durable").Definition+`"}]`, stdout.String())
}

func mustLookup(t *testing.T, w string) glossary.GlossaryEntry {
	e, ok := glossary.LookupTerm(w)
	require.True(t, ok)
	return e
}
