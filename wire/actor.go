package wire

import (
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw"
)

// AppendActorView writes the actor around the executor (docs/view.md).
func AppendActorView(b []byte, a *engine.ActorView) []byte {
	b = jsonw.KeyString(b, `{"state":`, a.State)
	b = jsonw.KeyString(b, `,"text":`, a.Text)
	b = jsonw.Key(b, `,"citation":`)
	if a.Citation == nil {
		b = append(b, "null"...)
	} else {
		b = AppendCitation(b, a.Citation)
	}
	return append(b, '}')
}
