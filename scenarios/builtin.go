package scenarios

import (
	"bytes"
	"embed"
	"fmt"
	"github.com/backfill-explainer/explainer/engine"
	"path"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/internal/quote"
)

//go:embed *.yaml
var builtinFS embed.FS

// Info names a built-in scenario.
type Info struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
}

// builtinOrder is the order a learner should take them in; any others follow by name.
var builtinOrder = []string{
	"happy-path", "builder-fills-mid-epoch", "mixed-visibility", "snapshot-ends-first",
	"fatal-upstream-end", "upstream-actor-dies", "end-while-buffering", "first-message-not-barrier", "recovery-resumes",
	"crash-while-buffering", "stuck-buffering-after-recovery", "snapshot-read-error", "rescale-mid-backfill", "reuse-vs-refresh",
	"pause-and-throttle", "end-in-completion", "no-vnode-in-progress",
	"bug-mark-before-drain", "bug-no-state-write", "bug-mark-on-arrival", "bug-emit-beyond-pos",
}

// BuiltinNames lists the built-in scenarios in teaching order.
func BuiltinNames() []string {
	entries, _ := builtinFS.ReadDir(".")
	rank := map[string]int{}
	for i, n := range builtinOrder {
		rank[n] = i + 1
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank[names[i]], rank[names[j]]
		if ri == 0 {
			ri = len(builtinOrder) + 1
		}
		if rj == 0 {
			rj = len(builtinOrder) + 1
		}
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	return names
}

// BuiltinText returns a built-in scenario's file text.
func BuiltinText(name string) ([]byte, error) {
	if name == "" || strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("no built-in scenario named %s", quote.Q(name))
	}
	b, err := builtinFS.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no built-in scenario named %s (try: %s)", quote.Q(name), strings.Join(BuiltinNames(), ", "))
	}
	return b, nil
}

// Builtins lists the built-in scenarios with their titles and one-line summaries. It reads only
// the head of each file (builtinHead), once per process, and runs none: the page asks for the
// list at start-up, before its first view, and opening every built-in took most of that time in
// the wasm. A test checks that the list is exactly the one opening each would give.
func Builtins() []Info {
	builtinsOnce.Do(func() {
		for _, n := range BuiltinNames() {
			text, err := BuiltinText(n)
			if err != nil {
				continue
			}
			title, summary, ok := builtinHead(text)
			if !ok { // a head this cannot read alone: parse the whole file
				sc, err := Parse(path.Join("scenarios", n+".yaml"), text)
				if err != nil {
					continue // a broken built-in fails its golden test
				}
				title, summary = sc.Config.Title, sc.Config.Summary
			}
			builtins = append(builtins, Info{Name: n, Title: title, Summary: firstLine(summary)})
		}
	})
	return append([]Info(nil), builtins...)
}

var (
	builtinsOnce sync.Once
	builtins     []Info
)

// builtinHead decodes a scenario file's title and summary from its head alone: the lines before
// the first top-level key that is neither (a line starting with a letter or '_' at column 1).
// ok is false unless the head is a mapping of exactly a non-empty plain text title and, maybe,
// a text summary, read as the parser reads them.
func builtinHead(text []byte) (title, summary string, ok bool) {
	head := text
	for i := 0; i < len(text); {
		end := bytes.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text) - i
		}
		line := text[i : i+end]
		if len(line) > 0 && (line[0] == '_' || line[0] >= 'a' && line[0] <= 'z' || line[0] >= 'A' && line[0] <= 'Z') &&
			!bytes.HasPrefix(line, []byte("title:")) && !bytes.HasPrefix(line, []byte("summary:")) {
			head = text[:i]
			break
		}
		i += end + 1
	}
	var doc yaml.Node
	if yaml.Unmarshal(head, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return "", "", false
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return "", "", false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind == yaml.MappingNode && !bytes.Contains(text, []byte("\nrelease:")) {
			v = defaultReleaseText(v) // written per release: the list shows the default release's
		}
		if v == nil || v.Kind != yaml.ScalarNode || v.Tag != "!!str" || seen[k.Value] {
			return "", "", false
		}
		seen[k.Value] = true
		switch k.Value {
		case "title":
			title = v.Value
		case "summary":
			summary = v.Value
		default:
			return "", "", false
		}
	}
	return title, summary, strings.TrimSpace(title) != ""
}

// defaultReleaseText is a text written per release's value for the default release (nil when
// none: the parser says why).
func defaultReleaseText(m *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		for _, name := range releaseKey(m.Content[i].Value) {
			if name == engine.DefaultRelease.Name {
				return m.Content[i+1]
			}
		}
	}
	return nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\n"); i >= 0 {
		s = s[:i]
	}
	return s
}
