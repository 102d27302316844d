package workload

import "github.com/backfill-explainer/explainer/internal/jsonw"

// AppendJSON writes the kind's name.
func (k FaultKind) AppendJSON(b []byte) []byte { return jsonw.StringHTML(b, k.String()) }

// MarshalJSON is AppendJSON, for encoding/json (the command line).
func (k FaultKind) MarshalJSON() ([]byte, error) { return k.AppendJSON(nil), nil }
