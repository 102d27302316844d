package lessons

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

type schemaNode struct {
	Schema               string                 `json:"$schema"`
	Ref                  string                 `json:"$ref"`
	Properties           map[string]*schemaNode `json:"properties"`
	AdditionalProperties *bool                  `json:"additionalProperties"`
	Required             []string               `json:"required"`
	Items                *schemaNode            `json:"items"`
	Description          string                 `json:"description"`
	Defs                 map[string]*schemaNode `json:"$defs"`
	OneOf                []*schemaNode          `json:"oneOf"`
	Enum                 []any                  `json:"enum"`
	Maximum              *float64               `json:"maximum"`
	MaxItems             *int                   `json:"maxItems"`
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

// lesson.schema.json names exactly the keys, releases, bug modes and limits the reader allows,
// and every object in it refuses unknown keys and describes each property.
func TestSchemaMatchesReader(t *testing.T) {
	b, err := os.ReadFile("lesson.schema.json")
	require.NoError(t, err)
	var s schemaNode
	require.NoError(t, json.Unmarshal(b, &s), "lesson.schema.json is not valid JSON")
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", s.Schema)
	assert.Equal(t, sorted(topKeys), keys(s.Properties))
	assert.Equal(t, []string{"sections", "title"}, sorted(s.Required))
	assert.Equal(t, float64(MaxMinutes), *s.Properties["minutes"].Maximum)
	assert.Equal(t, MaxSections, *s.Properties["sections"].MaxItems)
	sec := s.Defs["section"]
	assert.Equal(t, sorted(sectionKeys), keys(sec.Properties))
	assert.Equal(t, []string{"minutes", "scenario", "title"}, sorted(sec.Required))
	assert.Equal(t, float64(MaxSectionMinutes), *sec.Properties["minutes"].Maximum)
	assert.Equal(t, MaxQuestions, *sec.Properties["questions"].MaxItems)
	var releases []any
	for _, r := range engine.Releases {
		releases = append(releases, r.Name)
	}
	assert.Equal(t, releases, sec.Properties["release"].Enum)
	bugs := []any{"none"}
	for _, bi := range engine.Bugs {
		bugs = append(bugs, bi.Name)
	}
	assert.Equal(t, bugs, sec.Properties["bug"].Enum)
	assert.Equal(t, "../scenarios/scenario.schema.json", sec.Properties["scenario"].OneOf[1].Ref)
	_, err = os.Stat("../scenarios/scenario.schema.json")
	assert.NoError(t, err, "the inline scenario's schema is where the reference says")
	assert.Equal(t, sorted(rangeKeys), keys(sec.Properties["steps"].OneOf[0].Properties))
	q := s.Defs["question"]
	assert.Equal(t, sorted(questionKeys), keys(q.Properties))
	assert.Equal(t, sorted(expectKeys), keys(q.Properties["expect"].Properties))

	var walk func(path string, n *schemaNode)
	walk = func(path string, n *schemaNode) {
		if n == nil {
			return
		}
		if n.Properties != nil {
			require.NotNil(t, n.AdditionalProperties, path)
			assert.False(t, *n.AdditionalProperties, path)
			for k, c := range n.Properties {
				assert.NotEmpty(t, c.Description, path+"."+k)
				walk(path+"."+k, c)
			}
		}
		walk(path+"[]", n.Items)
		for _, o := range n.OneOf {
			walk(path+"|", o)
		}
	}
	walk("", &s)
	for k, d := range s.Defs {
		walk("$defs."+k, d)
	}
}
