// Package plainwords is the rule for what a person reads, from words.json: the one list the
// tests of the docs, of the command line and of the page (web/test/plain-words.mjs) hold their
// text to. Tests only.
package plainwords

import (
	_ "embed"
	"encoding/json"
	"regexp"
	"slices"
	"sort"
)

//go:embed words.json
var wordsJSON []byte

// Rules is words.json, compiled.
type Rules struct {
	Banned       []*regexp.Regexp // never, not even in parentheses
	BannedInDocs []*regexp.Regexp // also never in the docs' prose
	Identifier   *regexp.Regexp   // only in a citation, the glossary or parentheses
	Citation     *regexp.Regexp   // a file:lines citation, a source file, a quoted message, a query
	Names        map[string]bool  // names and units, not identifiers
}

type pattern struct {
	Re         string `json:"re"`
	IgnoreCase bool   `json:"ignore_case"`
}

// Load reads and compiles words.json; it panics if the file is broken (a test's failure).
func Load() *Rules {
	var f struct {
		Banned       []pattern `json:"banned"`
		BannedInDocs []pattern `json:"banned_in_docs"`
		Identifier   string    `json:"identifier"`
		Citation     string    `json:"citation"`
		Names        []string  `json:"names"`
	}
	if err := json.Unmarshal(wordsJSON, &f); err != nil {
		panic("internal/plainwords/words.json: " + err.Error())
	}
	compile := func(ps []pattern) []*regexp.Regexp {
		var out []*regexp.Regexp
		for _, p := range ps {
			re := p.Re
			if p.IgnoreCase {
				re = "(?i)" + re
			}
			out = append(out, regexp.MustCompile(re))
		}
		return out
	}
	r := &Rules{Banned: compile(f.Banned), BannedInDocs: compile(f.BannedInDocs),
		Identifier: regexp.MustCompile(f.Identifier), Citation: regexp.MustCompile(f.Citation), Names: map[string]bool{}}
	for _, n := range f.Names {
		r.Names[n] = true
	}
	return r
}

var parens = regexp.MustCompile(`\([^()]*\)`)

// Problems lists, sorted and once each, what text shows that a person should not have to
// decode: every banned term, and every identifier outside a citation and outside parentheses
// that is not a name (web/test/plain-words.mjs is the same rule for the page).
func (r *Rules) Problems(text string) []string {
	var out []string
	text = r.Citation.ReplaceAllString(text, " ")
	for _, b := range r.Banned {
		out = append(out, b.FindAllString(text, -1)...)
	}
	for prev := ""; prev != text; {
		prev, text = text, parens.ReplaceAllString(text, " ")
	}
	for _, id := range r.Identifier.FindAllString(text, -1) {
		if !r.Names[id] {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}
