package docs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/lessons"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// block is a fenced code block of a document.
type block struct {
	lang, text string
	line       int // of the opening fence
}

var fenceOpenRE = regexp.MustCompile("^```([A-Za-z0-9]*)[ \t]*$")

func blocks(text string) []block {
	var out []block
	var cur *block
	for i, line := range strings.Split(text, "\n") {
		switch {
		case cur == nil:
			if m := fenceOpenRE.FindStringSubmatch(line); m != nil {
				cur = &block{lang: m[1], line: i + 1}
			}
		case strings.TrimSpace(line) == "```":
			out = append(out, *cur)
			cur = nil
		default:
			cur.text += line + "\n"
		}
	}
	return out
}

// firstScenario is the complete example that opens scenario-format.md; fragments of the format
// are checked against it.
func firstScenario(t *testing.T) (string, *session.Session) {
	for _, b := range blocks(readDoc(t, "docs/scenario-format.md")) {
		if b.lang == "yaml" && strings.Contains(b.text, "\ntitle:") {
			s, err := session.Load("first.yaml", []byte(b.text))
			require.NoError(t, err, "the first scenario of scenario-format.md must load")
			return b.text, s
		}
	}
	t.Fatal("scenario-format.md has no complete scenario")
	return "", nil
}

// TestYAMLExamplesAreValid: every YAML block of README and docs/ is valid. A complete scenario
// loads (its whole script runs); a list of steps parses step by step against the first
// scenario's table; a fragment of the top level (table:, vnodes:, start:, …) parses when it
// replaces that key of the first scenario.
func TestYAMLExamplesAreValid(t *testing.T) {
	baseText, base := firstScenario(t)
	cfg := base.Scenario.Config
	checked := 0
	for _, f := range userDocs(t) {
		for _, b := range blocks(readDoc(t, f)) {
			if b.lang != "yaml" {
				continue
			}
			name := fmt.Sprintf("%s:%d", f, b.line)
			t.Run(name, func(t *testing.T) {
				checked++
				var root yaml.Node
				require.NoError(t, yaml.Unmarshal([]byte(b.text), &root), "not YAML")
				require.Len(t, root.Content, 1)
				doc := root.Content[0]
				switch {
				case doc.Kind == yaml.MappingNode && strings.Contains(b.text, "\nsections:"):
					_, err := lessons.Parse(name, []byte(b.text)) // a lesson (lesson-format.md)
					assert.NoError(t, err)
				case doc.Kind == yaml.MappingNode && strings.Contains(b.text, "title:") && scenarios.IsWorkload([]byte(b.text)):
					_, err := scenarios.ParseWorkload(name, []byte(b.text)) // a workload (scale mode)
					assert.NoError(t, err)
				case doc.Kind == yaml.MappingNode && strings.Contains(b.text, "title:"):
					_, err := session.Load(name, []byte(b.text))
					assert.NoError(t, err)
				case doc.Kind == yaml.SequenceNode:
					for _, item := range doc.Content {
						out, err := yaml.Marshal(item)
						require.NoError(t, err)
						step := string(out)
						_, err = scenarios.ParseStep(cfg, step)
						assert.NoError(t, err, "step %s", strings.TrimSpace(step))
					}
				case doc.Kind == yaml.MappingNode:
					var sc yaml.Node
					require.NoError(t, yaml.Unmarshal([]byte(baseText), &sc))
					m := sc.Content[0]
					for i := 0; i+1 < len(doc.Content); i += 2 {
						key := doc.Content[i].Value
						replaced := false
						for j := 0; j+1 < len(m.Content); j += 2 {
							if m.Content[j].Value == key {
								m.Content[j+1] = doc.Content[i+1]
								replaced = true
							}
						}
						if !replaced {
							m.Content = append(m.Content, doc.Content[i], doc.Content[i+1])
						}
					}
					// the first scenario's steps belong to its own table: keep only the barriers
					steps := &yaml.Node{Kind: yaml.SequenceNode}
					for j := 0; j+1 < len(m.Content); j += 2 {
						if m.Content[j].Value == "steps" {
							m.Content[j+1] = steps
						}
					}
					out, err := yaml.Marshal(&sc)
					require.NoError(t, err)
					_, err = scenarios.Parse(name, out)
					assert.NoError(t, err, "with this fragment the first scenario reads:\n%s", out)
				default:
					t.Fatalf("a YAML example is a scenario, a list of steps or a fragment of the top level")
				}
			})
		}
	}
	assert.GreaterOrEqual(t, checked, 7)
}

// blankWhy replaces the text of every "why" in a decoded trace with its presence: the
// narration changes with the engine's wording, its presence is part of the format.
func blankWhy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "why" {
				x[k] = "present"
			} else {
				x[k] = blankWhy(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = blankWhy(e)
		}
	}
	return v
}

// TestTraceExampleIsTheRealTrace: the trace shown in scenario-format.md is what
// `backfill run --json` prints for the first scenario (the rows' "why" texts aside), and the
// other outputs it shows have the keys real outputs have.
func TestTraceExampleIsTheRealTrace(t *testing.T) {
	_, s := firstScenario(t)
	require.NoError(t, s.RunToEnd())
	real, err := json.Marshal(s.Trace())
	require.NoError(t, err)

	var jsonBlocks []block
	for _, b := range blocks(readDoc(t, "docs/scenario-format.md")) {
		if b.lang == "json" {
			jsonBlocks = append(jsonBlocks, b)
		}
	}
	require.Len(t, jsonBlocks, 2, "scenario-format.md shows a trace and the other outputs")

	var want, have any
	require.NoError(t, json.Unmarshal([]byte(jsonBlocks[0].text), &have), "the trace example is JSON")
	require.NoError(t, json.Unmarshal(real, &want))
	assert.Equal(t, blankWhy(want), blankWhy(have))

	// every kind of output, as the engine writes it
	keys := map[string][]string{}
	for _, name := range []string{"happy-path", "fatal-upstream-end"} {
		s, err := session.OpenBuiltin(name)
		require.NoError(t, err)
		require.NoError(t, s.RunToEnd())
		for _, o := range s.Trace().Outputs {
			b, err := json.Marshal(o)
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(b, &m))
			keys[m["type"].(string)] = sortedKeys(m)
		}
	}
	var others []map[string]any
	require.NoError(t, json.Unmarshal([]byte(jsonBlocks[1].text), &others), "the other outputs are JSON")
	var types []string
	for _, o := range others {
		typ, _ := o["type"].(string)
		types = append(types, typ)
		assert.Equal(t, keys[typ], sortedKeys(o), "a %s output", typ)
	}
	assert.ElementsMatch(t, []string{"watermark", "recovery"}, types)
}

func sortedKeys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}

// TestPageAPIIsDocumented: the methods and messages scenario-format.md documents are the ones
// the page has.
func TestPageAPIIsDocumented(t *testing.T) {
	doc := readDoc(t, "docs/scenario-format.md")
	i := strings.Index(doc, "### `window.explainer`")
	require.GreaterOrEqual(t, i, 0)
	methods := regexp.MustCompile("`([a-zA-Z]+)\\(").FindAllStringSubmatch(doc[i:], -1)
	require.GreaterOrEqual(t, len(methods), 10)
	// the page's modules: web/element.js and web/FOLDER/*.js (web/boot/, web/stage/, …), not the
	// tests' or the benchmark's files
	page, err := filepath.Glob(filepath.Join(root, "web", "*.js"))
	require.NoError(t, err)
	inFolders, err := filepath.Glob(filepath.Join(root, "web", "*", "*.js"))
	require.NoError(t, err)
	for _, f := range inFolders {
		if dir := filepath.Base(filepath.Dir(f)); dir != "test" && dir != "bench" {
			page = append(page, f)
		}
	}
	var all strings.Builder
	for _, p := range page {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		all.Write(b)
	}
	for _, m := range methods {
		assert.Regexp(t, `\b`+m[1]+`:`, all.String(), "scenario-format.md documents window.explainer.%s, which the page does not have", m[1])
	}
	for _, msg := range regexp.MustCompile(`"(explainer:[a-z]+)"`).FindAllStringSubmatch(doc, -1) {
		assert.Contains(t, all.String(), `"`+msg[1]+`"`, "scenario-format.md documents the message %s, which the page does not use", msg[1])
	}
	// every URL parameter the page reads is documented
	params := regexp.MustCompile(`\.get\("([a-z_]+)"\)`).FindAllStringSubmatch(all.String(), -1)
	require.GreaterOrEqual(t, len(params), 6)
	for _, p := range params {
		k := p[1]
		documented := strings.Contains(doc, "`#"+k+"=") || strings.Contains(doc, "`&"+k+"=") || strings.Contains(doc, "`?"+k+"=")
		assert.True(t, documented, "the page reads the URL parameter %q, which scenario-format.md does not document", k)
	}
}
