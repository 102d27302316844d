package docs

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The docs speak to a learner in plain words, as the page and `backfill run` do
// (cmd/backfill/words_test.go, web/test/words.test.mjs): outside code spans and fenced blocks
// (where an identifier is cited code), link targets and the generated glossary (which defines
// the identifiers), no Rust name of a progress state or the engine's shorthand appears.
var bannedInDocs = []*regexp.Regexp{
	regexp.MustCompile(`NotStarted|InProgress|not_started|in_progress`),
	regexp.MustCompile(`update_with_buffered_rows|finish_with_buffered_rows|StartFragmentBackfill`),
	regexp.MustCompile(`(?i)\bfused\b|hash map|the loop polls|\bpos\.a\b`),
	regexp.MustCompile(`\bVISIBLE\b|\bHIDDEN\b|Bound:`),
	regexp.MustCompile(`[a-z,;] Completed\b`), // the state's name mid-sentence; "completed" is the word
}

// docIdentifier is a Rust or Go identifier (snake_case, CamelCase, a path or a method call).
var docIdentifier = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|::|\.[a-z_]+\(\)`)

// docNames are names and units, not identifiers.
var docNames = map[string]bool{"RisingWave": true, "GitHub": true, "JavaScript": true, "WebAssembly": true, "KiB": true, "MiB": true, "PageDown": true, "PageUp": true}

var (
	urlInProse  = regexp.MustCompile(`\]\([^)\s]*\)|https?://\S+`)
	glossaryGen = regexp.MustCompile(`(?s)<!-- glossary:begin -->.*<!-- glossary:end -->`)
)

// docProse is what a reader of a document reads as sentences: code, link targets and the
// generated glossary removed, the line count kept.
func docProse(text string) string {
	text = glossaryGen.ReplaceAllStringFunc(text, func(g string) string { return strings.Repeat("\n", strings.Count(g, "\n")) })
	text = refDefRE.ReplaceAllString(stripCode(text), "")
	return urlInProse.ReplaceAllString(text, "]")
}

// plainProblemsIn names each banned term in a document's prose, by line, and with identifiers
// also each bare identifier.
func plainProblemsIn(text string, identifiers bool) []string {
	var out []string
	for i, line := range strings.Split(docProse(text), "\n") {
		var found []string
		for _, b := range bannedInDocs {
			found = append(found, b.FindAllString(line, -1)...)
		}
		if identifiers {
			for _, id := range docIdentifier.FindAllString(line, -1) {
				if !docNames[id] {
					found = append(found, id)
				}
			}
		}
		seen := map[string]bool{}
		for _, f := range found {
			if !seen[f] {
				seen[f] = true
				out = append(out, "line "+strconv.Itoa(i+1)+": "+f)
			}
		}
	}
	return out
}

// TestDocsSpeakPlainly: no banned term in any document a reader reads; and protocol.md, the
// learner's account, names no identifier outside code (the format references, scenario-format.md
// and view.md, name their JSON and YAML keys in prose on purpose).
func TestDocsSpeakPlainly(t *testing.T) {
	for _, f := range userDocs(t) {
		for _, p := range plainProblemsIn(readDoc(t, f), f == "docs/protocol.md") {
			t.Errorf("%s: not in plain words: %s", f, p)
		}
	}
}

func TestPlainProblemsIn(t *testing.T) {
	text := "A vnode is NotStarted.\nThe `NotStarted` state (cited).\nIt becomes Completed at e5, a fused stream.\n" +
		"Completed vnodes pass. RisingWave reads [it](https://x/update_with_buffered_rows).\n" +
		"the start signal (StartFragmentBackfill) and expect_first_barrier\n"
	want := []string{"line 1: NotStarted", "line 3: fused", "line 3: s Completed", "line 5: StartFragmentBackfill", "line 5: expect_first_barrier"}
	if got := plainProblemsIn(text, true); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("plainProblemsIn = %q, want %q", got, want)
	}
	want = []string{"line 1: NotStarted", "line 3: fused", "line 3: s Completed", "line 5: StartFragmentBackfill"}
	if got := plainProblemsIn(text, false); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("plainProblemsIn without identifiers = %q, want %q", got, want)
	}
}
