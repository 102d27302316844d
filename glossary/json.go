package glossary

import "github.com/backfill-explainer/explainer/internal/jsonw"

// AppendJSON writes a glossary entry.
func (g *GlossaryEntry) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"term":`, g.Term)
	if len(g.Aliases) > 0 {
		b = jsonw.Key(b, `,"aliases":`)
		b = jsonw.Strings(b, g.Aliases)
	}
	b = jsonw.KeyString(b, `,"definition":`, g.Definition)
	return append(b, '}')
}

// AppendJSONGlossary writes the glossary (Glossary).
func AppendJSONGlossary(b []byte, entries []GlossaryEntry) []byte {
	return jsonw.List(b, entries, (*GlossaryEntry).AppendJSON)
}

// AppendJSONLegend writes the legend (Legend): an object, its keys sorted as encoding/json
// sorts a map's.
func AppendJSONLegend(b []byte, legend map[string]string) []byte {
	return jsonw.Map(b, legend, jsonw.String, jsonw.String)
}
