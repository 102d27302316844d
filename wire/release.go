package wire

import (
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw"
)

// AppendReleases writes the view's release keys (docs/view.md).
func AppendReleases(b []byte, v *engine.View) []byte {
	b = jsonw.KeyString(b, `,"release":`, v.Release)
	b = jsonw.Key(b, `,"releases":`)
	if v.Releases == nil {
		b = append(b, "null"...)
		return jsonw.KeyString(b, `,"newer_main":`, v.NewerMain)
	}
	b = append(b, '[')
	for i := range v.Releases {
		r := &v.Releases[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.KeyString(b, `{"name":`, r.Name)
		b = jsonw.KeyString(b, `,"tags":`, r.Tags)
		b = jsonw.KeyString(b, `,"ref":`, r.Ref)
		b = jsonw.KeyString(b, `,"summary":`, r.Summary)
		if r.Default {
			b = append(b, `,"default":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	return jsonw.KeyString(b, `,"newer_main":`, v.NewerMain)
}
