package scenarios

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

type schemaNode struct {
	Schema               string                 `json:"$schema"`
	Type                 any                    `json:"type"`
	Properties           map[string]*schemaNode `json:"properties"`
	AdditionalProperties *bool                  `json:"additionalProperties"`
	Required             []string               `json:"required"`
	Items                *schemaNode            `json:"items"`
	Pattern              string                 `json:"pattern"`
	Description          string                 `json:"description"`
	Defs                 map[string]*schemaNode `json:"$defs"`
	OneOf                []*schemaNode          `json:"oneOf"`
	AllOf                []*schemaNode          `json:"allOf"`
	Not                  *schemaNode            `json:"not"`
	Enum                 []any                  `json:"enum"`
	Minimum              *float64               `json:"minimum"`
	Maximum              *float64               `json:"maximum"`
}

func loadSchema(t *testing.T) *schemaNode {
	t.Helper()
	b, err := os.ReadFile("scenario.schema.json")
	require.NoError(t, err)
	var s schemaNode
	require.NoError(t, json.Unmarshal(b, &s), "scenario.schema.json is not valid JSON")
	return &s
}

func keys(m map[string]*schemaNode) []string {
	var k []string
	for name := range m {
		k = append(k, name)
	}
	slices.Sort(k)
	return k
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestSchemaMatchesParser keeps scenario.schema.json in step with the keys the parser allows.
func TestSchemaMatchesParser(t *testing.T) {
	s := loadSchema(t)
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", s.Schema)
	assert.Equal(t, sorted(topKeys), keys(s.Properties))
	assert.Equal(t, []string{"table", "title"}, sorted(s.Required))
	require.Len(t, s.OneOf, 2, "steps or workload")
	assert.Equal(t, []string{"steps"}, s.OneOf[0].Required)
	assert.Equal(t, []string{"workload"}, s.OneOf[1].Required)
	p := s.Properties
	assert.Equal(t, sorted([]string{"columns", "locality", "stream_key"}), keys(p["table"].Properties))
	assert.Equal(t, sorted([]string{"count", "owned", "rule", "bounds"}), keys(p["vnodes"].Properties))
	assert.Equal(t, sorted([]string{"state_table", "progress"}), keys(p["start"].Properties))
	assert.Equal(t, sorted(workloadKeys), keys(p["workload"].Properties))
	assert.Equal(t, []string{"delete", "insert", "update"}, keys(p["workload"].Properties["mix"].Properties))
	assert.Equal(t, []string{"epoch", "kind"}, keys(p["workload"].Properties["fault"].Properties))
	assert.Equal(t, sorted([]string{"vnode", "pos", "finished", "rows"}), keys(p["start"].Properties["progress"].Items.Properties))
	step := s.Defs["step"]
	require.Len(t, step.OneOf, 2)
	assert.Equal(t, sorted(append(EventKeys(), "note", "pause")), keys(step.OneOf[1].Properties))
	barrier := s.Defs["barrier"].OneOf[1]
	assert.Equal(t, sorted(barrierKeys), keys(barrier.Properties))
	// the mutations the executor ignores, as the parser reads them
	mut := barrier.Properties["mutation"]
	require.Len(t, mut.OneOf, 2)
	assert.Equal(t, []any{engine.MutationPause.String(), engine.MutationResume.String(), engine.MutationStop.String()}, mut.OneOf[0].Enum)
	assert.Equal(t, []string{"throttle"}, keys(mut.OneOf[1].Properties))
	assert.Equal(t, []string{"throttle"}, mut.OneOf[1].Required)
	th := mut.OneOf[1].Properties["throttle"]
	require.NotNil(t, th.Minimum)
	require.NotNil(t, th.Maximum)
	assert.Equal(t, 0.0, *th.Minimum)
	assert.Equal(t, float64(engine.MaxThrottle), *th.Maximum)
	// at most one of start_backfill, rescale: true and mutation
	var pairs [][]string
	for _, a := range barrier.AllOf {
		require.NotNil(t, a.Not)
		pairs = append(pairs, sorted(a.Not.Required))
	}
	assert.ElementsMatch(t, [][]string{{"rescale", "start_backfill"}, {"mutation", "start_backfill"}, {"mutation", "rescale"}}, pairs)
	assert.Equal(t, []string{"column", "value"}, keys(step.OneOf[1].Properties["watermark"].Properties))

	// every object forbids unknown keys and every property is described
	var walk func(path string, n *schemaNode)
	walk = func(path string, n *schemaNode) {
		if n == nil {
			return
		}
		if n.Properties != nil {
			require.NotNil(t, n.AdditionalProperties, path)
			assert.False(t, *n.AdditionalProperties, path)
			for k, c := range n.Properties {
				if c.Description == "" && c.Items == nil && c.Type == nil {
					continue // a $ref
				}
				assert.NotEmpty(t, c.Description, path+"."+k)
				walk(path+"."+k, c)
			}
		}
		walk(path+"[]", n.Items)
		for i, o := range n.OneOf {
			walk(path+"|"+string(rune('0'+i)), o)
		}
	}
	walk("", s)
	for k, d := range s.Defs {
		walk("$defs."+k, d)
	}
}

func TestSchemaPatterns(t *testing.T) {
	s := loadSchema(t)
	rowRE := regexp.MustCompile(s.Defs["row"].Pattern)
	colRE := regexp.MustCompile(s.Properties["table"].Properties["columns"].Items.Pattern)

	// every row and column of the valid files matches the schema's patterns
	files, _ := filepath.Glob(filepath.Join("testdata", "parse", "valid", "*"))
	for _, f := range files {
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		sc, err := Parse(f, text)
		require.NoError(t, err)
		for _, st := range sc.Steps {
			for _, r := range st.Chunk {
				assert.Regexp(t, rowRE, FormatRow(r), f)
			}
		}
		for _, c := range sc.Config.Columns {
			assert.Regexp(t, colRE, c.Name+":"+c.Type.String())
			assert.Regexp(t, colRE, c.Name)
		}
	}
	for _, ok := range []string{"+ 1 100", "(U- 2 'it''s' x.y)", " - null -3 ", "U+ 'a b' ''"} {
		assert.Regexp(t, rowRE, ok)
	}
	for _, bad := range []string{"* 1", "+ 'abc", "(+ 1", "+1", "+ x!", ""} {
		assert.NotRegexp(t, rowRE, bad)
	}
	for _, bad := range []string{"A", "1a", "a:text", "a b"} {
		assert.NotRegexp(t, colRE, bad)
	}
}

// TestValidExamplesParse: every example in testdata/parse/valid parses (the files an editor
// checks against the schema).
func TestValidExamplesParse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "parse", "valid", "*.yaml"))
	require.GreaterOrEqual(t, len(files), 3)
	for _, f := range files {
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		_, err = Parse(f, text)
		assert.NoError(t, err)
	}
}
