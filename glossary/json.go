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

// AppendJSONLegend writes the legend (Legend) with the texts of more (the engine's pills for
// each kind of step, view.EventLegend): one object, its keys sorted as encoding/json sorts a map's.
func AppendJSONLegend(b []byte, legend map[string]string, more ...map[string]string) []byte {
	if len(more) > 0 {
		all := make(map[string]string, len(legend))
		for _, m := range append([]map[string]string{legend}, more...) {
			for k, v := range m {
				all[k] = v
			}
		}
		legend = all
	}
	return jsonw.Map(b, legend, jsonw.String, jsonw.String)
}
