package docs

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/internal/plainwords"
)

// The docs speak to a learner in plain words, as the page and `backfill run` do: outside code
// spans and fenced blocks (where an identifier is cited code), link targets and the generated
// glossary (which defines the identifiers), nothing of internal/plainwords/words.json's banned
// lists appears (the list cmd/backfill/words_test.go and web/test/plain-words.mjs read too).
var words = plainwords.Load()

var bannedInDocs = slices.Concat(words.Banned, words.BannedInDocs)

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
			for _, id := range words.Identifier.FindAllString(line, -1) {
				if !words.Names[id] {
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
