package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/backfill-explainer/explainer/glossary"

	"github.com/backfill-explainer/explainer/internal/quote"
)

// glossaryCmd prints the glossary (glossary.Glossary), or the entries for the words given:
//
//	backfill glossary [--json] [WORD...]
//
// A word is a term or one of its aliases, in any case. An unknown word exits 2.
func glossaryCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("glossary", "[WORD...]", stderr)
	asJSON := fs.Bool("json", false, "print the entries as JSON: [{term, aliases, definition}]")
	words, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	entries := glossary.Glossary
	if len(words) > 0 {
		entries = nil
		for _, w := range words {
			e, ok := glossary.LookupTerm(w)
			if !ok {
				fmt.Fprintf(stderr, "backfill: %s is not in the glossary; `backfill glossary` lists every term\n", quote.Q(w))
				return 2
			}
			entries = append(entries, e)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(entries); err != nil {
			fmt.Fprintf(stderr, "backfill: %v\n", err)
			return 1
		}
		return 0
	}
	for i, e := range entries {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, e.Term)
		if len(e.Aliases) > 0 {
			fmt.Fprintf(stdout, " (also: %s)", strings.Join(e.Aliases, ", "))
		}
		fmt.Fprintln(stdout)
		for _, line := range wrap(e.Definition, 76) {
			fmt.Fprintf(stdout, "    %s\n", line)
		}
	}
	return 0
}

// wrap breaks text into lines of at most width characters, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) > width:
			lines = append(lines, line)
			line = w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
