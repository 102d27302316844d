// Package releasedoc writes what the files outside Go say about the releases from the engine's
// registry (engine.Releases): the `release` property of the scenario and lesson schemas, the
// table of docs/scenario-format.md's "Releases", and the refs `./build.sh sources` fetches
// (internal/rwsource/refs.txt). Its test checks them and, with -update, writes them; nothing here
// is built into the explainer.
package releasedoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
)

// A File is one file that lists the releases, and how to write its list.
type File struct {
	Path string                       // from the repository's root
	fix  func([]byte) ([]byte, error) // the file with its list written from the registry
}

// Files are the files that list the releases.
var Files = []File{
	{"scenarios/scenario.schema.json", func(b []byte) ([]byte, error) {
		return schemaLine(b, `    "release": `, map[string]any{"enum": names(), "default": engine.DefaultRelease.Name,
			"description": "The RisingWave release whose executor runs the scenario (docs/scenario-format.md, Releases): " + tagsList() + "."})
	}},
	{"scenarios/scenario.schema.json", func(b []byte) ([]byte, error) {
		return schemaLine(b, `    "releaseName": `, map[string]any{"enum": names(), "description": "A release's name."})
	}},
	{"scenarios/scenario.schema.json", byReleaseLine},
	{"lessons/lesson.schema.json", func(b []byte) ([]byte, error) {
		return schemaLine(b, `        "release": `, map[string]any{"enum": names(),
			"description": "The RisingWave release to play (" + engine.DefaultRelease.Name + " by default)."})
	}},
	{"docs/scenario-format.md", docsTable},
	{"internal/rwsource/refs.txt", func([]byte) ([]byte, error) {
		var b strings.Builder
		seen := map[string]bool{}
		for _, r := range engine.Releases {
			if !seen[r.Ref] {
				seen[r.Ref] = true
				b.WriteString(r.Ref + "\n")
			}
		}
		return []byte(b.String()), nil
	}},
}

// Fix returns the file's text with its list of releases written from the registry.
func (f File) Fix(b []byte) ([]byte, error) { return f.fix(b) }

func names() []string {
	out := make([]string, len(engine.Releases))
	for i, r := range engine.Releases {
		out[i] = r.Name
	}
	return out
}

// tagsList names each release with its tags, e.g. "v2.7 (v2.7.0–v2.7.4), …, or v3.1 (…)".
func tagsList() string {
	var parts []string
	for _, r := range engine.Releases {
		parts = append(parts, r.Name+" ("+r.Tags+")")
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// schemaLine rewrites the one line of a schema that starts with lead: its value is prop, its
// keys in the order enum, default, description, and the line's trailing comma kept.
func schemaLine(b []byte, lead string, prop map[string]any) ([]byte, error) {
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		if !bytes.HasPrefix(l, []byte(lead)) {
			continue
		}
		var v bytes.Buffer
		v.WriteString("{")
		first := true
		for _, k := range []string{"enum", "default", "description"} {
			x, ok := prop[k]
			if !ok {
				continue
			}
			j, err := json.Marshal(x)
			if err != nil {
				return nil, err
			}
			if !first {
				v.WriteString(", ")
			}
			first = false
			fmt.Fprintf(&v, "%q: %s", k, bytes.ReplaceAll(j, []byte(`","`), []byte(`", "`)))
		}
		v.WriteString("}")
		comma := ""
		if bytes.HasSuffix(bytes.TrimRight(l, " "), []byte(",")) {
			comma = ","
		}
		lines[i] = []byte(lead + v.String() + comma)
		return bytes.Join(lines, []byte("\n")), nil
	}
	return nil, fmt.Errorf("no line starts with %q", lead)
}

// tableRows matches the table of "### Releases": its heading row to its last row.
var tableRows = regexp.MustCompile(`(?m)^\| release \| tags \| cited at \|\n\| --- \| --- \| --- \|\n(\|.*\|\n)*`)

// docsTable writes the table of docs/scenario-format.md's "Releases".
func docsTable(b []byte) ([]byte, error) {
	loc := tableRows.FindIndex(b)
	if loc == nil {
		return nil, fmt.Errorf(`no table "| release | tags | cited at |"`)
	}
	var t strings.Builder
	t.WriteString("| release | tags | cited at |\n| --- | --- | --- |\n")
	for _, r := range engine.Releases {
		tags := r.Tags
		if r == engine.DefaultRelease {
			tags += ", the default"
		}
		at := "`" + r.Ref + "`"
		if r.AtSource {
			at = "the commit [protocol.md](protocol.md) is read from"
		}
		if r.Lines != "" {
			at += " (" + r.Lines + ")"
		}
		fmt.Fprintf(&t, "| `%s` | %s | %s |\n", r.Name, tags, at)
	}
	return append(append(append([]byte{}, b[:loc[0]]...), t.String()...), b[loc[1]:]...), nil
}

// byReleaseLine writes the scenario schema's $defs.byRelease: a text per release, each key one
// release's name or several, separated by commas or spaces (scenarios/note_release.go).
func byReleaseLine(b []byte) ([]byte, error) {
	const lead = `    "byRelease": `
	one := `(` + strings.ReplaceAll(strings.Join(names(), "|"), ".", `\.`) + `)`
	key := `^` + one + `([, ]+` + one + `)*$`
	j, err := json.Marshal(map[string]any{key: map[string]string{"type": "string"}})
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte(lead)) {
			lines[i] = []byte(lead + `{"type": "object", "patternProperties": ` + string(j) + `, "additionalProperties": false, "minProperties": 1, "description": "A text per release: each key names one release or several (of ` + strings.Join(names(), ", ") + `), separated by commas or spaces."},`)
			return bytes.Join(lines, []byte("\n")), nil
		}
	}
	return nil, fmt.Errorf("no line starts with %q", lead)
}
