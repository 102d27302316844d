package scenarios

import (
	"github.com/backfill-explainer/explainer/internal/jsonw"
)

// The JSON of the built-ins' list, written by hand as the engine's is
// (wire/json.go): byte for byte as the bridge's encoding/json Encoder wrote it (no HTML
// escaping), keys in field order; json_test.go checks every type against encoding/json.

// AppendJSON writes a built-in's name, title and summary.
func (i *Info) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"name":`, i.Name)
	b = jsonw.KeyString(b, `,"title":`, i.Title)
	b = jsonw.KeyString(b, `,"summary":`, i.Summary)
	return append(b, '}')
}

// AppendJSONInfos writes a list of built-ins (Builtins, Workloads).
func AppendJSONInfos(b []byte, infos []Info) []byte { return jsonw.List(b, infos, (*Info).AppendJSON) }
