package scenarios

import _ "embed"

// Schema is scenario.schema.json, the format's JSON Schema: the page's editor shows its keys
// and their descriptions (its format help and suggestions), offline too.
//
//go:embed scenario.schema.json
var Schema []byte
