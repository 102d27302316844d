package engine

import (
	"strconv"

	"github.com/backfill-explainer/explainer/internal/jsonw"
)

// The JSON of the model's own values, which their MarshalJSON methods (for encoding/json, the
// command line) need: a value, a row, an output, a fault kind. Everything else the bridge and the
// command line write is package wire's.

// AppendJSON writes an integer as a number, a string as a string (escaped as json.Marshal
// escapes it), NULL as null.
func (v Value) AppendJSON(b []byte) []byte {
	switch v.Kind {
	case KindInt:
		return strconv.AppendInt(b, v.I, 10)
	case KindStr:
		return jsonw.StringHTML(b, v.S)
	}
	return append(b, "null"...)
}

// MarshalJSON is AppendJSON, for encoding/json (the command line).
func (v Value) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

// AppendJSON writes a row as an array of its values (null for a nil row).
func (r Row) AppendJSON(b []byte) []byte {
	if r == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range r {
		if i > 0 {
			b = append(b, ',')
		}
		b = v.AppendJSON(b)
	}
	return append(b, ']')
}

// MarshalJSON is AppendJSON, for encoding/json (the command line).
func (r Row) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// appendJSON writes a row of a chunk; its strings escaped as json.Marshal escapes them when
// html (inside an Output), as the bridge's Encoder when not (in the upstream queue and buffer).
func (r *outRowJSON) appendJSON(b []byte, html bool) []byte {
	str := jsonw.String
	if html {
		str = jsonw.StringHTML
	}
	b = jsonw.Key(b, `{"op":`)
	b = str(b, r.Op)
	b = jsonw.Key(b, `,"values":`)
	b = r.Values.AppendJSON(b)
	b = jsonw.KeyBool(b, `,"visible":`, r.Visible)
	b = jsonw.KeyInt(b, `,"vnode":`, int64(r.Vnode))
	if r.Why != "" {
		b = jsonw.Key(b, `,"why":`)
		b = str(b, r.Why)
	}
	return append(b, '}')
}

// AppendOutRows writes the rows of a view's message or buffered chunk (see appendJSON of
// outRowJSON).
func AppendOutRows(b []byte, rows []outRowJSON, html bool) []byte {
	if rows == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = rows[i].appendJSON(b, html)
	}
	return append(b, ']')
}

// AppendJSON writes the trace contract's form of an output (plus step and a few extra keys).
func (o *Output) AppendJSON(b []byte) []byte {
	switch o.Type {
	case OutBarrier:
		b = jsonw.KeyInt(b, `{"type":"barrier","epoch":`, o.Epoch)
		b = jsonw.KeyBool(b, `,"checkpoint":`, o.Checkpoint)
	case OutChunk:
		b = append(b, `{"type":"chunk","rows":[`...)
		for i, r := range o.Rows {
			if i > 0 {
				b = append(b, ',')
			}
			row := outRowJSON{r.Op.String(), r.Row, r.Visible, r.Vnode, r.Why}
			b = row.appendJSON(b, true)
		}
		b = jsonw.KeyInt(b, `],"step":`, int64(o.Step))
		b = jsonw.KeyStringHTML(b, `,"source":`, o.Source)
		return append(b, '}')
	case OutWatermark:
		b = jsonw.KeyStringHTML(b, `{"type":"watermark","column":`, o.Column)
		b = jsonw.Key(b, `,"value":`)
		b = o.Value.AppendJSON(b)
	default:
		b = jsonw.KeyInt(b, `{"type":"recovery","epoch":`, o.Epoch)
	}
	b = jsonw.KeyInt(b, `,"step":`, int64(o.Step))
	return append(b, '}')
}

// MarshalJSON is AppendJSON, for encoding/json (the command line).
func (o Output) MarshalJSON() ([]byte, error) { return o.AppendJSON(nil), nil }
