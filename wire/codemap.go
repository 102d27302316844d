package wire

import (
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw"
)

// AppendCodeMap writes the view's code-map keys (docs/view.md).
func AppendCodeMap(b []byte, v *engine.View) []byte {
	b = jsonw.Key(b, `,"code_map":`)
	b = AppendCodeLines(b, v.CodeMap)
	b = jsonw.Key(b, `,"code_lit":`)
	return jsonw.Strings(b, v.CodeLit)
}

// AppendCodeLines writes code-map lines (the bridge's answer to `code_map`).
func AppendCodeLines(b []byte, lines []engine.CodeLine) []byte {
	return list(b, lines, AppendCodeLine)
}

// AppendCodeLine writes one line of the code map.
func AppendCodeLine(b []byte, l *engine.CodeLine) []byte {
	b = jsonw.KeyString(b, `{"id":`, l.ID)
	b = jsonw.KeyInt(b, `,"depth":`, int64(l.Depth))
	b = jsonw.KeyString(b, `,"section":`, l.Section)
	b = jsonw.KeyString(b, `,"text":`, l.Text)
	if l.File != "" {
		b = jsonw.KeyString(b, `,"file":`, l.File)
	}
	b = jsonw.Key(b, `,"lines":`)
	b = jsonw.Lines(b, l.Lines)
	b = jsonw.KeyString(b, `,"url":`, l.URL)
	return append(b, '}')
}
