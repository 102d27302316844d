package lessons

import (
	"embed"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/backfill-explainer/explainer/internal/quote"
)

//go:embed *.yaml
var builtinFS embed.FS

// builtinOrder is the order the list shows them in; any others follow by name.
var builtinOrder = []string{"workshop", "met-this-error"}

// BuiltinNames lists the built-in lessons.
func BuiltinNames() []string {
	entries, _ := builtinFS.ReadDir(".")
	names := append([]string(nil), builtinOrder...)
	for _, e := range entries {
		n := strings.TrimSuffix(e.Name(), ".yaml")
		if !contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// BuiltinText returns a built-in lesson's file text.
func BuiltinText(name string) ([]byte, error) {
	if name == "" || strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("no built-in lesson named %s", quote.Q(name))
	}
	b, err := builtinFS.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no built-in lesson named %s (try: %s)", quote.Q(name), strings.Join(BuiltinNames(), ", "))
	}
	return b, nil
}

// OpenBuiltin reads and checks a built-in lesson.
func OpenBuiltin(name string) (*Lesson, error) {
	text, err := BuiltinText(name)
	if err != nil {
		return nil, err
	}
	l, err := Parse(path.Join("lessons", name+".yaml"), text)
	if err != nil {
		return nil, err
	}
	l.Name = name
	return l, nil
}

// Info names a built-in lesson.
type Info struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Summary  string `json:"summary"`
	Minutes  int    `json:"minutes"`
	Sections int    `json:"sections"`
}

// Builtins lists the built-in lessons (each read and checked, once per process).
func Builtins() []Info {
	builtinsOnce.Do(func() {
		for _, n := range BuiltinNames() {
			l, err := OpenBuiltin(n)
			if err != nil {
				continue // a broken built-in fails its test
			}
			builtins = append(builtins, Info{Name: n, Title: l.Title, Summary: firstLine(l.Summary), Minutes: l.Minutes(), Sections: len(l.Sections)})
		}
	})
	return append([]Info(nil), builtins...)
}

var (
	builtinsOnce sync.Once
	builtins     []Info
)

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
