package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// root is the repository's root, seen from this package's directory.
const root = ".."

// userDocs returns the documents a reader of the repository reads: README.md and docs/*.md,
// as paths relative to the root.
func userDocs(t *testing.T) []string {
	md, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	files := []string{"README.md"}
	for _, m := range md {
		rel, err := filepath.Rel(root, m)
		require.NoError(t, err)
		files = append(files, filepath.ToSlash(rel))
	}
	require.Contains(t, files, "docs/protocol.md")
	require.Contains(t, files, "docs/scenario-format.md")
	return files
}

func readDoc(t *testing.T, rel string) string {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}

var (
	fenceRE   = regexp.MustCompile("(?ms)^```[^\n]*\n.*?^```[ \t]*$")
	codeRE    = regexp.MustCompile("`[^`\n]+`")
	inlineRE  = regexp.MustCompile(`!?\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	refUseRE  = regexp.MustCompile(`\[([^\]]+)\]\[([^\]]+)\]`)
	refDefRE  = regexp.MustCompile(`(?m)^\[([^\]]+)\]:\s*(\S+)\s*$`)
	headingRE = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$`)
	urlRE     = regexp.MustCompile(`https?://[^\s)>\]]+`)
	mdNameRE  = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)
	lineRE    = regexp.MustCompile(`#L(\d+)(?:-L(\d+))?$`)
	textNumRE = regexp.MustCompile(`(\d+)(?:-(\d+))?$`)
	rwBlobRE  = regexp.MustCompile(`^https://github\.com/risingwavelabs/risingwave/blob/([^/]+)/`)
	// a code span that names a file or folder of the repository
	repoPathRE = regexp.MustCompile(`^(?:engine|scenarios|cmd|wasm|web|internal|docs)/[A-Za-z0-9_./*-]*$|^(?:README\.md|build\.sh|index\.html|go\.mod|go\.sum|package\.json)$`)
)

// stripFences removes fenced code blocks, keeping the line count.
func stripFences(s string) string {
	return fenceRE.ReplaceAllStringFunc(s, func(b string) string { return strings.Repeat("\n", strings.Count(b, "\n")) })
}

// stripCode removes fenced code blocks and code spans: what is left is prose and links.
func stripCode(s string) string {
	return codeRE.ReplaceAllString(stripFences(s), "``")
}

// slug is GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a markdown document's headings.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	count := map[string]int{}
	for _, m := range headingRE.FindAllStringSubmatch(stripFences(text), -1) {
		h := strings.NewReplacer("`", "", "*", "").Replace(m[1])
		h = inlineRE.ReplaceAllString(h, "$1")
		s := slug(h)
		if n := count[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		count[s]++
	}
	return out
}

type link struct{ text, target string }

// links returns every link of a document's prose, reference links resolved. A reference use
// without a definition is reported.
func links(t *testing.T, file, text string) []link {
	prose := stripCode(text)
	defs := map[string]string{}
	for _, m := range refDefRE.FindAllStringSubmatch(prose, -1) {
		defs[strings.ToLower(m[1])] = m[2]
	}
	var out []link
	for _, m := range inlineRE.FindAllStringSubmatch(prose, -1) {
		out = append(out, link{m[1], m[2]})
	}
	for _, m := range refUseRE.FindAllStringSubmatch(prose, -1) {
		target, ok := defs[strings.ToLower(m[2])]
		if !ok {
			t.Errorf("%s: the reference link [%s][%s] has no definition", file, m[1], m[2])
			continue
		}
		out = append(out, link{m[1], target})
	}
	for _, m := range refDefRE.FindAllStringSubmatch(prose, -1) {
		out = append(out, link{"", m[2]}) // a definition shows no text; its target must still hold
	}
	return out
}

// inRepo resolves a path relative to dir (both relative to the root) and reports whether it
// exists inside the repository.
func inRepo(dir, p string) (string, bool) {
	full := filepath.Clean(filepath.Join(dir, filepath.FromSlash(p)))
	if full == ".." || strings.HasPrefix(full, ".."+string(filepath.Separator)) {
		return full, false
	}
	if strings.ContainsAny(p, "*?[") {
		m, _ := filepath.Glob(filepath.Join(root, full))
		return full, len(m) > 0
	}
	_, err := os.Stat(filepath.Join(root, full))
	return full, err == nil
}

// TestDocsNameNothingOutsideTheRepository: README and docs/ must make sense in a clone, so they
// never point at the team's working notes or use their private shorthand.
func TestDocsNameNothingOutsideTheRepository(t *testing.T) {
	banned := []string{"../shared", "shared/docs", "/work/", "the seed", "LP:", "§", "design.md"}
	for _, f := range userDocs(t) {
		text := readDoc(t, f)
		for i, line := range strings.Split(text, "\n") {
			for _, b := range banned {
				if strings.Contains(strings.ToLower(line), strings.ToLower(b)) {
					t.Errorf("%s:%d names %q: %s", f, i+1, b, strings.TrimSpace(line))
				}
			}
		}
		// every markdown file the text mentions is one of the repository's: a path relative to
		// the document or to the root, or the bare name of a file of docs/ or of the root
		for _, name := range mdNameRE.FindAllString(urlRE.ReplaceAllString(text, ""), -1) {
			_, rel := inRepo(filepath.Dir(f), name)
			_, top := inRepo(".", name)
			_, inDocs := inRepo("docs", name)
			ok := rel || top || !strings.Contains(name, "/") && inDocs
			assert.True(t, ok, "%s mentions %s, which is not a file of the repository", f, name)
		}
	}
}

// TestDocsLinksResolve: every link of README and docs/ to the repository leads to a file that
// exists (and to a heading that exists), and every code span that names a repository path
// names one that exists.
func TestDocsLinksResolve(t *testing.T) {
	for _, f := range userDocs(t) {
		text := readDoc(t, f)
		own := anchors(text)
		for _, l := range links(t, f, text) {
			target := l.target
			switch {
			case strings.HasPrefix(target, "http://"), strings.HasPrefix(target, "https://"), strings.HasPrefix(target, "mailto:"):
				continue
			case strings.HasPrefix(target, "#"):
				assert.True(t, own[target[1:]], "%s: link %q: no heading has the anchor %s", f, l.text, target)
				continue
			}
			p, frag, _ := strings.Cut(target, "#")
			full, ok := inRepo(filepath.Dir(f), p)
			if !assert.True(t, ok, "%s: link %q leads to %s, which is not a file of the repository", f, l.text, target) {
				continue
			}
			if frag != "" && strings.HasSuffix(p, ".md") {
				b, err := os.ReadFile(filepath.Join(root, full))
				require.NoError(t, err)
				assert.True(t, anchors(string(b))[frag], "%s: link %q: %s has no heading with the anchor #%s", f, l.text, p, frag)
			}
		}
		for _, m := range codeRE.FindAllString(stripFences(text), -1) {
			span := strings.Trim(m, "`")
			if !repoPathRE.MatchString(span) {
				continue
			}
			_, ok := inRepo(".", span)
			assert.True(t, ok, "%s names `%s`, which is not in the repository", f, span)
		}
	}
}

// TestSourceCitations: every link to RisingWave's source is at SourceCommit, and a link whose
// text ends in a line or a range of lines points at exactly those lines.
func TestSourceCitations(t *testing.T) {
	cited := 0
	for _, f := range userDocs(t) {
		for _, l := range links(t, f, readDoc(t, f)) {
			m := rwBlobRE.FindStringSubmatch(l.target)
			if m == nil {
				continue
			}
			cited++
			assert.Equal(t, engine.SourceCommit, m[1], "%s: link %q is not at SourceCommit", f, l.text)
			lines := lineRE.FindStringSubmatch(l.target)
			if lines == nil {
				continue
			}
			if lines[2] != "" {
				assert.Less(t, atoi(lines[1]), atoi(lines[2]), "%s: link %q: an empty or reversed range", f, l.text)
			}
			num := textNumRE.FindStringSubmatch(strings.Trim(l.text, "`"))
			if l.text == "" || num == nil {
				continue
			}
			assert.Equal(t, lines[1:], num[1:], "%s: link %q cites other lines than it points at (%s)", f, l.text, l.target)
		}
	}
	assert.Greater(t, cited, 40, "protocol.md cites the source for every rule")
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

func TestSlugAndAnchors(t *testing.T) {
	tests := []struct{ heading, slug string }{
		{"Hazards: what learners get wrong", "hazards-what-learners-get-wrong"},
		{"The trace JSON", "the-trace-json"},
		{"`window.explainer`", "windowexplainer"},
		{"Snapshot reuse and refresh", "snapshot-reuse-and-refresh"},
		{"A gap in the real code: no vnode in progress", "a-gap-in-the-real-code-no-vnode-in-progress"},
	}
	for _, tt := range tests {
		a := anchors("# " + tt.heading + "\n")
		assert.True(t, a[tt.slug], "%q → %v", tt.heading, a)
	}
	a := anchors("## Steps\n```\n## not a heading\n```\n## Steps\n")
	assert.Equal(t, map[string]bool{"steps": true, "steps-1": true}, a)
}

// The checks above must catch what they are for.
func TestLinkChecksCatchMistakes(t *testing.T) {
	_, ok := inRepo("docs", "../../shared/docs/protocol.md")
	assert.False(t, ok, "a path outside the repository")
	_, ok = inRepo("docs", "nope.md")
	assert.False(t, ok)
	_, ok = inRepo("docs", "../scenarios/*.yaml")
	assert.True(t, ok, "a glob that matches")
	_, ok = inRepo(".", "scenarios/*.yml")
	assert.False(t, ok, "a glob that matches nothing")

	ft := &testing.T{}
	got := links(ft, "x.md", "see [a](b.md) and [c][d] and `[e](f)`\n\n[d]: https://x/y\n")
	assert.Equal(t, []link{{"a", "b.md"}, {"c", "https://x/y"}, {"", "https://x/y"}}, got)
	assert.False(t, ft.Failed())
}
