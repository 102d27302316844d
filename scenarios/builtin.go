package scenarios

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
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
	"fatal-upstream-end", "end-while-buffering", "first-message-not-barrier", "recovery-resumes",
	"crash-while-buffering", "snapshot-read-error", "rescale-mid-backfill", "reuse-vs-refresh",
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
		return nil, fmt.Errorf("no built-in scenario named %q", name)
	}
	b, err := builtinFS.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no built-in scenario named %q (try: %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	return b, nil
}

// Builtins lists the built-in scenarios with their titles and one-line summaries.
func Builtins() []Info {
	var out []Info
	for _, n := range BuiltinNames() {
		s, err := OpenBuiltin(n)
		if err != nil {
			continue // a broken built-in fails its golden test
		}
		c := s.Scenario.Config
		out = append(out, Info{Name: n, Title: c.Title, Summary: firstLine(c.Summary)})
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// OpenBuiltin loads a built-in scenario.
func OpenBuiltin(name string) (*Session, error) {
	text, err := BuiltinText(name)
	if err != nil {
		return nil, err
	}
	s, err := Load(path.Join("scenarios", name+".yaml"), text)
	if err != nil {
		return nil, err
	}
	s.Name = name
	return s, nil
}
