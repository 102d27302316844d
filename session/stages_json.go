package session

import (
	"github.com/backfill-explainer/explainer/internal/jsonw"
	"github.com/backfill-explainer/explainer/wire"
)

// AppendJSON writes two runs laid side by side (json.go: as encoding/json would).
func (st *Stages) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"left":`, st.Left)
	b = jsonw.KeyString(b, `,"right":`, st.Right)
	b = jsonw.KeyInt(b, `,"steps":`, int64(st.Steps))
	b = jsonw.Key(b, `,"differ":`)
	b = jsonw.List(b, st.Differ, func(d *StepDiffs, b []byte) []byte {
		b = jsonw.KeyInt(b, `{"step":`, int64(d.Step))
		b = jsonw.Key(b, `,"panels":`)
		b = jsonw.Strings(b, d.Panels)
		return append(b, '}')
	})
	return append(b, '}')
}

// AppendJSON writes both runs' views at a step and how they differ.
func (a *StagesAt) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"step":`, int64(a.Step))
	b = jsonw.Key(b, `,"left":`)
	b = wire.AppendView(b, a.Left)
	b = jsonw.Key(b, `,"right":`)
	b = wire.AppendView(b, a.Right)
	b = jsonw.Key(b, `,"differs":`)
	b = jsonw.Key(b, `{"panels":`)
	b = wire.AppendChanged(b, &a.Differs.Panels)
	b = jsonw.Key(b, `,"vnodes":`)
	b = wire.AppendChangedVnodes(b, &a.Differs.Vnodes)
	b = jsonw.Key(b, `,"only_left":`)
	b = appendRows(b, a.Differs.OnlyLeft)
	b = jsonw.Key(b, `,"only_right":`)
	b = appendRows(b, a.Differs.OnlyRight)
	return append(b, `}}`...)
}
