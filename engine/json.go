package engine

import (
	"fmt"
	"strconv"

	"github.com/backfill-explainer/explainer/internal/jsonw"
)

// The engine's JSON, written by hand (no reflection, no encoding/json in the wasm): every type
// the page gets writes itself with AppendJSON, byte for byte as encoding/json writes it, keys in
// the order of the struct's fields and named by their json tags (json_test.go checks both, on
// every built-in and on values with every field set). A field added to a type needs its line
// here: the test names the type whose output differs.
//
// Strings are written as the bridge's Encoder writes them (jsonw.String: no HTML escaping),
// except where the old encoding went through json.Marshal and so escaped <, > and &: a row's
// values (Value, Row), an output (Output), the scale summary and the explorer's outcome key.
// Escaped or not, the page reads the same string.

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

// appendRows writes a list of rows (nil: null).
func appendRows(b []byte, rows []Row) []byte {
	if rows == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.AppendJSON(b)
	}
	return append(b, ']')
}

// AppendAny writes the values a view gives as tuples ([]any: a progress table's rows) and a
// form's defaults: nil, bool, the integers, float64, string (escaped as json.Marshal escapes it
// when html), Value and Row. Any other type is a programming error: it panics, naming it.
func AppendAny(b []byte, v any, html bool) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return jsonw.Bool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case float64:
		return jsonw.Float(b, x)
	case string:
		if html {
			return jsonw.StringHTML(b, x)
		}
		return jsonw.String(b, x)
	case Value:
		return x.AppendJSON(b)
	case Row:
		return x.AppendJSON(b)
	case []any:
		return appendTuple(b, x, html)
	}
	panic(fmt.Sprintf("engine: AppendAny cannot write a %T", v))
}

func appendTuple(b []byte, t []any, html bool) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range t {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendAny(b, v, html)
	}
	return append(b, ']')
}

// appendTuples writes a table given as tuples (a progress table's rows).
func appendTuples(b []byte, rows [][]any, html bool) []byte {
	if rows == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, t := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTuple(b, t, html)
	}
	return append(b, ']')
}

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

func appendOutRows(b []byte, rows []outRowJSON, html bool) []byte {
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

func appendOutputs(b []byte, outs []Output) []byte { return jsonw.List(b, outs, (*Output).AppendJSON) }

// AppendJSONOutputs appends a list of outputs (the bridge's answer to `outputs`).
func AppendJSONOutputs(b []byte, outs []Output) []byte { return appendOutputs(b, outs) }

// ---- the view (docs/view.md) ----

// AppendJSON writes the view.
func (v *View) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"title":`, v.Title)
	b = jsonw.KeyString(b, `,"summary":`, v.Summary)
	b = jsonw.KeyInt(b, `,"step":`, int64(v.Step))
	b = jsonw.KeyInt(b, `,"steps":`, int64(v.Steps))
	b = jsonw.KeyString(b, `,"phase":`, v.Phase)
	b = jsonw.KeyInt(b, `,"epoch":`, v.Epoch)
	b = jsonw.Key(b, `,"config":`)
	b = v.Config.AppendJSON(b)
	b = jsonw.Key(b, `,"upstream":`)
	b = v.Upstream.AppendJSON(b)
	b = jsonw.Key(b, `,"snapshot":`)
	b = v.Snapshot.AppendJSON(b)
	b = jsonw.Key(b, `,"buffer":`)
	b = jsonw.List(b, v.Buffer, (*BufferView).AppendJSON)
	b = jsonw.Key(b, `,"builders":`)
	b = jsonw.List(b, v.Builders, (*BuilderView).AppendJSON)
	b = jsonw.Key(b, `,"progress":`)
	b = jsonw.List(b, v.Progress, (*ProgressView).AppendJSON)
	b = jsonw.Key(b, `,"state_table":`)
	b = v.StateTable.AppendJSON(b)
	b = jsonw.Key(b, `,"progress_table":`)
	b = v.ProgressTable.AppendJSON(b)
	b = jsonw.Key(b, `,"downstream":`)
	b = v.Downstream.AppendJSON(b)
	b = jsonw.Key(b, `,"invariant":`)
	b = v.Invariant.AppendJSON(b)
	b = jsonw.Key(b, `,"outputs":`)
	b = appendOutputs(b, v.Outputs)
	b = jsonw.KeyInt(b, `,"outputs_total":`, int64(v.OutputsTotal))
	b = jsonw.KeyInt(b, `,"outputs_first":`, int64(v.OutputsFirst))
	b = jsonw.KeyInt(b, `,"new_outputs":`, int64(v.NewOutputs))
	if v.OutputsKept != nil {
		b = jsonw.KeyInt(b, `,"outputs_kept":`, int64(*v.OutputsKept))
	}
	b = jsonw.Key(b, `,"rolled_back":`)
	b = jsonw.List(b, v.RolledBack, (*Rollback).AppendJSON)
	b = jsonw.Key(b, `,"explanations":`)
	b = jsonw.List(b, v.Explanations, (*Effect).AppendJSON)
	b = jsonw.KeyString(b, `,"note":`, v.Note)
	b = jsonw.KeyString(b, `,"note_caveat":`, v.NoteCaveat)
	b = jsonw.KeyBool(b, `,"pause":`, v.Pause)
	b = jsonw.KeyString(b, `,"next_note":`, v.NextNote)
	b = jsonw.Key(b, `,"error":`)
	b = v.Error.AppendJSON(b)
	b = jsonw.Key(b, `,"failure":`)
	b = v.Failure.AppendJSON(b)
	b = jsonw.Key(b, `,"actions":`)
	b = jsonw.List(b, v.Actions, (*Action).AppendJSON)
	b = jsonw.Key(b, `,"marks":`)
	b = jsonw.List(b, v.Marks, (*Mark).AppendJSON)
	b = jsonw.Key(b, `,"bug":`)
	b = v.Bug.AppendJSON(b)
	b = jsonw.KeyBool(b, `,"branched":`, v.Branched)
	b = jsonw.Key(b, `,"name":`)
	if v.Name == nil {
		b = append(b, "null"...)
	} else {
		b = jsonw.String(b, *v.Name)
	}
	b = jsonw.KeyInt(b, `,"revision":`, v.Revision)
	b = jsonw.Key(b, `,"predict":`)
	b = v.Predict.AppendJSON(b)
	b = jsonw.Key(b, `,"changed":`)
	b = v.Changed.AppendJSON(b)
	b = jsonw.Key(b, `,"changed_vnodes":`)
	b = v.ChangedVnodes.AppendJSON(b)
	b = jsonw.Key(b, `,"added_rows":`)
	b = v.AddedRows.AppendJSON(b)
	return append(b, '}')
}

// AppendJSON writes the actor's configuration.
func (c *ConfigView) AppendJSON(b []byte) []byte {
	b = jsonw.Key(b, `{"columns":`)
	b = jsonw.List(b, c.Columns, (*ColumnView).AppendJSON)
	b = jsonw.Key(b, `,"locality":`)
	b = jsonw.Strings(b, c.Locality)
	b = jsonw.Key(b, `,"stream_key":`)
	b = jsonw.Strings(b, c.StreamKey)
	b = jsonw.Key(b, `,"pk":`)
	b = jsonw.Strings(b, c.PK)
	b = jsonw.KeyInt(b, `,"vnode_count":`, int64(c.VnodeCount))
	b = jsonw.Key(b, `,"owned":`)
	b = jsonw.Ints(b, c.Owned)
	b = jsonw.KeyString(b, `,"rule":`, c.Rule)
	b = jsonw.KeyInt(b, `,"chunk_size":`, int64(c.ChunkSize))
	b = jsonw.KeyInt(b, `,"capacity":`, int64(c.Capacity))
	b = jsonw.KeyInt(b, `,"fragment":`, c.Fragment)
	b = jsonw.KeyInt(b, `,"actor":`, c.Actor)
	return append(b, '}')
}

// AppendJSON writes a column's name and type.
func (c *ColumnView) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"name":`, c.Name)
	b = jsonw.KeyString(b, `,"type":`, c.Type)
	return append(b, '}')
}

// AppendJSON writes the upstream.
func (u *UpstreamView) AppendJSON(b []byte) []byte {
	b = jsonw.Key(b, `{"next":`)
	b = jsonw.List(b, u.Next, (*MessageView).AppendJSON)
	b = jsonw.KeyInt(b, `,"more":`, int64(u.More))
	b = jsonw.KeyBool(b, `,"ended":`, u.Ended)
	b = jsonw.Key(b, `,"content":`)
	b = appendRows(b, u.Content)
	return append(b, '}')
}

// AppendJSON writes an upstream message still to come (its empty keys left out).
func (m *MessageView) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"type":`, m.Type)
	b = jsonw.KeyInt(b, `,"step":`, int64(m.Step))
	if m.Epoch != 0 {
		b = jsonw.KeyInt(b, `,"epoch":`, m.Epoch)
	}
	if m.Checkpoint {
		b = append(b, `,"checkpoint":true`...)
	}
	if len(m.StartBackfill) > 0 {
		b = jsonw.Key(b, `,"start_backfill":`)
		b = jsonw.Int64s(b, m.StartBackfill)
	}
	if m.Rescale {
		b = append(b, `,"rescale":true`...)
	}
	if m.Mutation != "" {
		b = jsonw.KeyString(b, `,"mutation":`, m.Mutation)
	}
	if m.Throttle != nil {
		b = jsonw.KeyInt(b, `,"throttle":`, *m.Throttle)
	}
	if len(m.Rows) > 0 {
		b = jsonw.Key(b, `,"rows":`)
		b = appendOutRows(b, m.Rows, false)
	}
	if m.Column != "" {
		b = jsonw.KeyString(b, `,"column":`, m.Column)
	}
	if m.Value != nil {
		b = jsonw.Key(b, `,"value":`)
		b = m.Value.AppendJSON(b)
	}
	if m.Message != "" {
		b = jsonw.KeyString(b, `,"message":`, m.Message)
	}
	return append(b, '}')
}

// AppendJSON writes the snapshot stream (null when there is none).
func (s *SnapshotView) AppendJSON(b []byte) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyInt(b, `{"epoch":`, s.Epoch)
	b = jsonw.Key(b, `,"vnodes":`)
	b = jsonw.List(b, s.Vnodes, (*LaneView).AppendJSON)
	b = jsonw.KeyInt(b, `,"remaining":`, int64(s.Remaining))
	b = jsonw.KeyInt(b, `,"refreshed_at_step":`, int64(s.OpenedAt))
	b = jsonw.KeyBool(b, `,"refreshed":`, s.Refreshed)
	return append(b, '}')
}

// AppendJSON writes a snapshot lane.
func (l *LaneView) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"vnode":`, int64(l.Vnode))
	b = jsonw.Key(b, `,"rows":`)
	b = appendRows(b, l.Rows)
	b = jsonw.KeyInt(b, `,"next":`, int64(l.Next))
	b = jsonw.Key(b, `,"pos":`)
	b = l.Pos.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"offset":`, int64(l.Offset))
	b = jsonw.KeyInt(b, `,"total":`, int64(l.Total))
	return append(b, '}')
}

// AppendJSON writes a buffered chunk.
func (v *BufferView) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"arrived_step":`, int64(v.ArrivedStep))
	b = jsonw.Key(b, `,"rows":`)
	b = appendOutRows(b, v.Rows, false)
	return append(b, '}')
}

// AppendJSON writes a chunk builder.
func (v *BuilderView) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"vnode":`, int64(v.Vnode))
	b = jsonw.KeyInt(b, `,"capacity":`, int64(v.Capacity))
	b = jsonw.Key(b, `,"rows":`)
	b = appendRows(b, v.Rows)
	return append(b, '}')
}

// AppendJSON writes a vnode's progress.
func (v *ProgressView) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"vnode":`, int64(v.Vnode))
	b = jsonw.KeyString(b, `,"state":`, v.State)
	b = jsonw.Key(b, `,"pos":`)
	b = v.Pos.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"rows":`, v.Rows)
	return append(b, '}')
}

// AppendJSON writes the state table.
func (v *StateTableView) AppendJSON(b []byte) []byte {
	b = jsonw.Key(b, `{"rows":`)
	b = jsonw.List(b, v.Rows, (*VnodeRow).AppendJSON)
	b = jsonw.Key(b, `,"pending":`)
	b = jsonw.List(b, v.Pending, (*PendingRow).AppendJSON)
	b = jsonw.KeyInt(b, `,"epoch":`, v.Epoch)
	b = jsonw.KeyInt(b, `,"durable_epoch":`, v.DurableEpoch)
	return append(b, '}')
}

// AppendJSON writes a state-table row.
func (r *VnodeRow) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"vnode":`, int64(r.Vnode))
	b = jsonw.Key(b, `,"values":`)
	b = r.Values.AppendJSON(b)
	return append(b, '}')
}

// AppendJSON writes an uncommitted state-table write.
func (r *PendingRow) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"op":`, r.Op)
	b = jsonw.KeyInt(b, `,"vnode":`, int64(r.Vnode))
	b = jsonw.Key(b, `,"values":`)
	b = r.Values.AppendJSON(b)
	return append(b, '}')
}

// AppendJSON writes the progress table.
func (v *ProgressTabView) AppendJSON(b []byte) []byte {
	b = jsonw.Key(b, `{"columns":`)
	b = jsonw.List(b, v.Columns, (*TableColumn).AppendJSON)
	b = jsonw.Key(b, `,"rows":`)
	b = appendTuples(b, v.Rows, false)
	b = jsonw.Key(b, `,"durable":`)
	b = appendTuples(b, v.Durable, false)
	b = jsonw.KeyInt(b, `,"durable_epoch":`, v.DurableEpoch)
	return append(b, '}')
}

// AppendJSON writes a table's column.
func (c *TableColumn) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"name":`, c.Name)
	b = jsonw.KeyString(b, `,"kind":`, c.Kind)
	if c.Of != "" {
		b = jsonw.KeyString(b, `,"of":`, c.Of)
	}
	return append(b, '}')
}

// AppendJSON writes downstream's view.
func (v *DownstreamView) AppendJSON(b []byte) []byte {
	b = jsonw.Key(b, `{"rows":`)
	b = appendRows(b, v.Rows)
	b = jsonw.KeyInt(b, `,"durable_epoch":`, v.DurableEpoch)
	return append(b, '}')
}

// AppendJSON writes the invariant's last check.
func (inv *Invariant) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"status":`, inv.Status)
	b = jsonw.KeyInt(b, `,"step":`, int64(inv.Step))
	b = jsonw.KeyInt(b, `,"epoch":`, inv.Epoch)
	b = jsonw.KeyString(b, `,"text":`, inv.Text)
	b = jsonw.Key(b, `,"missing":`)
	b = appendRows(b, inv.Missing)
	b = jsonw.Key(b, `,"extra":`)
	b = appendRows(b, inv.Extra)
	return append(b, '}')
}

// AppendJSON writes a recovery's rolled-back outputs.
func (r *Rollback) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"from":`, int64(r.From))
	b = jsonw.KeyInt(b, `,"to":`, int64(r.To))
	b = jsonw.KeyInt(b, `,"step":`, int64(r.Step))
	b = jsonw.KeyInt(b, `,"epoch":`, r.Epoch)
	return append(b, '}')
}

// AppendJSON writes a sentence of the narration.
func (ef *Effect) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"kind":`, ef.Kind)
	b = jsonw.KeyString(b, `,"text":`, ef.Text)
	b = jsonw.Key(b, `,"lines":`)
	b = jsonw.Lines(b, ef.Lines)
	b = jsonw.KeyString(b, `,"url":`, ef.URL)
	if ef.File != "" {
		b = jsonw.KeyString(b, `,"file":`, ef.File)
	}
	if ef.Uncited != "" {
		b = jsonw.KeyString(b, `,"uncited":`, ef.Uncited)
	}
	if ef.Fix != "" {
		b = jsonw.KeyString(b, `,"fix":`, ef.Fix)
	}
	return append(b, '}')
}

// AppendJSON writes the error that stopped the executor (null when there is none).
func (f *Failure) AppendJSON(b []byte) []byte { return f.appendJSON(b, false) }

func (f *Failure) appendJSON(b []byte, html bool) []byte {
	if f == nil {
		return append(b, "null"...)
	}
	b = jsonw.Key(b, `{"message":`)
	if html {
		b = jsonw.StringHTML(b, f.Message)
	} else {
		b = jsonw.String(b, f.Message)
	}
	b = jsonw.KeyBool(b, `,"panic":`, f.Panic)
	b = jsonw.KeyInt(b, `,"step":`, int64(f.Step))
	return append(b, '}')
}

// AppendJSON writes a failure's explanation (null when there is none).
func (f *FailureView) AppendJSON(b []byte) []byte {
	if f == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyString(b, `{"kind":`, string(f.Kind))
	b = jsonw.KeyString(b, `,"message":`, f.Message)
	b = jsonw.KeyBool(b, `,"panic":`, f.Panic)
	b = jsonw.KeyInt(b, `,"step":`, int64(f.Step))
	b = jsonw.KeyString(b, `,"meaning":`, f.Meaning)
	b = jsonw.Key(b, `,"proven":`)
	b = jsonw.List(b, f.Proven, (*Citation).AppendJSON)
	b = jsonw.Key(b, `,"inferred":`)
	b = jsonw.Strings(b, f.Inferred)
	b = jsonw.KeyString(b, `,"left_behind":`, f.LeftBehind)
	b = jsonw.KeyString(b, `,"recovery":`, f.Recovery)
	return append(b, '}')
}

// AppendJSON writes a sentence the cited lines prove.
func (c *Citation) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"text":`, c.Text)
	b = jsonw.KeyString(b, `,"file":`, c.File)
	b = jsonw.Key(b, `,"lines":`)
	b = jsonw.Lines(b, c.Lines)
	b = jsonw.KeyString(b, `,"url":`, c.URL)
	return append(b, '}')
}

// AppendJSON writes something that can happen next.
func (a *Action) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"id":`, a.ID)
	b = jsonw.KeyString(b, `,"label":`, a.Label)
	b = jsonw.KeyString(b, `,"step":`, a.Step)
	b = jsonw.KeyString(b, `,"kind":`, a.Kind)
	b = jsonw.KeyBool(b, `,"scripted":`, a.Scripted)
	return append(b, '}')
}

// AppendJSONActions writes a list of actions (nil: null).
func AppendJSONActions(b []byte, actions []Action) []byte {
	return jsonw.List(b, actions, (*Action).AppendJSON)
}

// AppendJSON writes a timeline mark.
func (m *Mark) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"step":`, int64(m.Step))
	b = jsonw.KeyString(b, `,"kind":`, m.Kind)
	b = jsonw.KeyString(b, `,"label":`, m.Label)
	return append(b, '}')
}

// AppendJSON writes a bug mode (null when there is none).
func (bi *BugInfo) AppendJSON(b []byte) []byte {
	if bi == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyString(b, `{"name":`, bi.Name)
	b = jsonw.KeyString(b, `,"summary":`, bi.Summary)
	b = jsonw.KeyString(b, `,"why":`, bi.Why)
	b = jsonw.Key(b, `,"lines":`)
	b = jsonw.Lines(b, bi.Lines)
	b = jsonw.KeyString(b, `,"url":`, bi.URL)
	if bi.Fix != "" {
		b = jsonw.KeyString(b, `,"fix":`, bi.Fix)
	}
	if bi.History != "" {
		b = jsonw.KeyString(b, `,"history":`, bi.History)
	}
	b = jsonw.KeyString(b, `,"scenario":`, bi.Scenario)
	return append(b, '}')
}

// AppendJSONBugs writes the list of bug modes (Bugs).
func AppendJSONBugs(b []byte, bugs []BugInfo) []byte {
	return jsonw.List(b, bugs, (*BugInfo).AppendJSON)
}

// AppendJSON writes the next barrier that marks the buffer (null when none comes).
func (p *Prediction) AppendJSON(b []byte) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyInt(b, `{"step":`, int64(p.Step))
	b = jsonw.KeyInt(b, `,"epoch":`, p.Epoch)
	b = jsonw.KeyBool(b, `,"next":`, p.Next)
	b = jsonw.KeyBool(b, `,"held":`, p.Held)
	b = jsonw.Key(b, `,"rows":`)
	b = jsonw.List(b, p.Rows, (*PredictRow).AppendJSON)
	return append(b, '}')
}

// AppendJSON writes what a barrier does with a buffered row.
func (r *PredictRow) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"arrived_step":`, int64(r.ArrivedStep))
	b = jsonw.KeyString(b, `,"op":`, r.Op)
	b = jsonw.Key(b, `,"values":`)
	b = r.Values.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"vnode":`, int64(r.Vnode))
	b = jsonw.KeyBool(b, `,"visible":`, r.Visible)
	b = jsonw.KeyString(b, `,"why":`, r.Why)
	return append(b, '}')
}

// AppendJSON writes which panels the last step changed.
func (c *Changed) AppendJSON(b []byte) []byte {
	b = jsonw.KeyBool(b, `{"phase":`, c.Phase)
	b = jsonw.KeyBool(b, `,"epoch":`, c.Epoch)
	b = jsonw.KeyBool(b, `,"upstream_next":`, c.UpstreamNext)
	b = jsonw.KeyBool(b, `,"upstream_content":`, c.UpstreamContent)
	b = jsonw.KeyBool(b, `,"snapshot":`, c.Snapshot)
	b = jsonw.KeyBool(b, `,"buffer":`, c.Buffer)
	b = jsonw.KeyBool(b, `,"builders":`, c.Builders)
	b = jsonw.KeyBool(b, `,"progress":`, c.Progress)
	b = jsonw.KeyBool(b, `,"state_table":`, c.StateTable)
	b = jsonw.KeyBool(b, `,"progress_table":`, c.ProgressTable)
	b = jsonw.KeyBool(b, `,"outputs":`, c.Outputs)
	b = jsonw.KeyBool(b, `,"downstream":`, c.Downstream)
	b = jsonw.KeyBool(b, `,"invariant":`, c.Invariant)
	b = jsonw.KeyBool(b, `,"narration":`, c.Narration)
	b = jsonw.KeyBool(b, `,"note":`, c.Note)
	b = jsonw.KeyBool(b, `,"fatal":`, c.Fatal)
	return append(b, '}')
}

// AppendJSON writes the vnodes whose part of each panel changed.
func (c *ChangedVnodes) AppendJSON(b []byte) []byte {
	b = jsonw.Key(b, `{"snapshot":`)
	b = jsonw.Ints(b, c.Snapshot)
	b = jsonw.Key(b, `,"builders":`)
	b = jsonw.Ints(b, c.Builders)
	b = jsonw.Key(b, `,"progress":`)
	b = jsonw.Ints(b, c.Progress)
	b = jsonw.Key(b, `,"state_table":`)
	b = jsonw.Ints(b, c.StateTable)
	b = jsonw.Key(b, `,"progress_table":`)
	b = jsonw.Ints(b, c.ProgressTable)
	b = jsonw.Key(b, `,"progress_table_durable":`)
	b = jsonw.Ints(b, c.ProgressTableDurable)
	return append(b, '}')
}

// AppendJSON writes the rows the step added.
func (a *AddedRows) AppendJSON(b []byte) []byte {
	b = jsonw.Key(b, `{"upstream_content":`)
	b = appendRows(b, a.UpstreamContent)
	b = jsonw.Key(b, `,"downstream":`)
	b = appendRows(b, a.Downstream)
	return append(b, '}')
}

// ---- the trace, the explorer, the teaching tables ----

// AppendJSON writes the trace contract's object (the page's state()).
func (t *Trace) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"title":`, t.Title)
	b = jsonw.Key(b, `,"outputs":`)
	b = appendOutputs(b, t.Outputs)
	b = jsonw.Key(b, `,"error":`)
	b = t.Error.AppendJSON(b)
	b = jsonw.KeyString(b, `,"phase":`, t.Phase)
	b = jsonw.Key(b, `,"progress_table":`)
	b = appendTuples(b, t.ProgressTable, false)
	b = jsonw.Key(b, `,"downstream":`)
	b = appendRows(b, t.Downstream)
	b = jsonw.KeyInt(b, `,"step":`, int64(t.Step))
	if t.Bug != "" {
		b = jsonw.KeyString(b, `,"bug":`, t.Bug)
	}
	return append(b, '}')
}

// AppendJSONFields writes the exploration's keys but its outcomes, without braces: a report
// that embeds it (scenarios.ExploreReport) writes its own outcomes after them.
func (x *Exploration) AppendJSONFields(b []byte) []byte {
	b = jsonw.KeyUint(b, `"schedules":`, x.Schedules)
	b = jsonw.KeyInt(b, `,"states":`, int64(x.States))
	b = jsonw.KeyBool(b, `,"capped":`, x.Capped)
	b = jsonw.KeyBool(b, `,"exhaustive":`, x.Exhaustive)
	b = jsonw.KeyString(b, `,"stopped":`, x.Stopped)
	b = jsonw.KeyInt(b, `,"budget":{"states":`, int64(x.Budget.States))
	b = jsonw.KeyInt(b, `,"bytes":`, x.Budget.Bytes)
	b = jsonw.KeyInt(b, `},"bytes":`, x.Bytes)
	b = jsonw.KeyBool(b, `,"invariant_held":`, x.InvariantHeld)
	return b
}

// AppendJSON writes the exploration.
func (x *Exploration) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	b = x.AppendJSONFields(b)
	b = jsonw.Key(b, `,"outcomes":`)
	b = jsonw.List(b, x.Outcomes, (*Outcome).AppendJSON)
	return append(b, '}')
}

// AppendJSONFields writes the outcome's keys without braces: a report that embeds it
// (scenarios.ExploreOutcome) adds its own keys after them.
func (o *Outcome) AppendJSONFields(b []byte) []byte {
	b = jsonw.KeyString(b, `"phase":`, o.Phase)
	b = jsonw.Key(b, `,"error":`)
	b = o.Error.AppendJSON(b)
	b = jsonw.KeyBool(b, `,"violated":`, o.Violated)
	b = jsonw.Key(b, `,"invariant":`)
	b = o.Invariant.AppendJSON(b)
	b = jsonw.Key(b, `,"downstream":`)
	b = appendRows(b, o.Downstream)
	b = jsonw.Key(b, `,"progress_table":`)
	b = appendTuples(b, o.ProgressTable, false)
	b = jsonw.KeyUint(b, `,"schedules":`, o.Schedules)
	return b
}

// AppendJSON writes an outcome.
func (o *Outcome) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	b = o.AppendJSONFields(b)
	return append(b, '}')
}

// outcomeKey is what tells outcomes apart and orders them: their phase, error (without its
// step), whether the invariant failed on the way and its status, downstream and the progress
// table, written as json.Marshal wrote the struct {P, E, V, S, D, T} of them.
func outcomeKey(o *Outcome) []byte {
	b := append([]byte(nil), `{"P":`...)
	b = jsonw.StringHTML(b, o.Phase)
	b = jsonw.Key(b, `,"E":`)
	b = o.Error.appendJSON(b, true)
	b = jsonw.KeyBool(b, `,"V":`, o.Violated)
	b = jsonw.KeyStringHTML(b, `,"S":`, o.Invariant.Status)
	b = jsonw.Key(b, `,"D":`)
	b = appendRows(b, o.Downstream)
	b = jsonw.Key(b, `,"T":`)
	b = appendTuples(b, o.ProgressTable, true)
	return append(b, '}')
}

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

// ---- the scale summary (escaped as json.Marshal escapes it: `backfill run --json` prints it) ----

// AppendJSON writes the summary as compact JSON (JSON indents it).
func (s *ScaleSummary) AppendJSON(b []byte) []byte {
	b = jsonw.KeyStringHTML(b, `{"title":`, s.Title)
	b = jsonw.KeyStringHTML(b, `,"phase":`, s.Phase)
	b = jsonw.Key(b, `,"error":`)
	b = s.Error.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"epochs":`, int64(s.Epochs))
	b = jsonw.KeyInt(b, `,"rows":`, int64(s.Rows))
	b = jsonw.KeyInt(b, `,"downstream_rows":`, int64(s.DownstreamRows))
	b = jsonw.KeyStringHTML(b, `,"invariant":`, s.Invariant)
	b = jsonw.Key(b, `,"series":`)
	b = s.Series.AppendJSON(b)
	b = jsonw.Key(b, `,"progress":`)
	if s.Progress == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, fs := range s.Progress {
			if i > 0 {
				b = append(b, ',')
			}
			if fs == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '[')
			for j, f := range fs {
				if j > 0 {
					b = append(b, ',')
				}
				b = jsonw.Float(b, f)
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = jsonw.Key(b, `,"progress_barriers":`)
	b = jsonw.Ints(b, s.ProgressBarriers)
	b = jsonw.Key(b, `,"recoveries":`)
	b = jsonw.List(b, s.Recoveries, (*ScaleRecovery).AppendJSON)
	b = jsonw.Key(b, `,"violation":`)
	b = s.Violation.AppendJSON(b)
	b = jsonw.Key(b, `,"totals":`)
	b = s.Totals.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"vnodes":`, int64(s.Vnodes))
	b = jsonw.KeyInt(b, `,"owned":`, int64(s.Owned))
	b = jsonw.Key(b, `,"workload":`)
	b = s.Workload.AppendJSON(b)
	if s.Bug != "" {
		b = jsonw.KeyStringHTML(b, `,"bug":`, s.Bug)
	}
	return append(b, '}')
}

// AppendJSON writes the summary's series.
func (s *ScaleSeries) AppendJSON(b []byte) []byte {
	b = jsonw.Key(b, `{"epoch":`)
	b = jsonw.Int64s(b, s.Epoch)
	b = jsonw.Key(b, `,"phase":`)
	if s.Phase == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range s.Phase {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonw.StringHTML(b, p)
		}
		b = append(b, ']')
	}
	b = jsonw.Ints(jsonw.Key(b, `,"buffered_rows":`), s.BufferedRows)
	b = jsonw.Ints(jsonw.Key(b, `,"snapshot_rows":`), s.SnapshotRows)
	b = jsonw.Ints(jsonw.Key(b, `,"upstream_visible":`), s.UpstreamVisible)
	b = jsonw.Ints(jsonw.Key(b, `,"upstream_hidden":`), s.UpstreamHidden)
	b = jsonw.Ints(jsonw.Key(b, `,"vnodes_completed":`), s.VnodesCompleted)
	b = jsonw.Ints(jsonw.Key(b, `,"vnodes_in_progress":`), s.VnodesInProgress)
	return append(b, '}')
}

// AppendJSON writes a scale run's failure (null when there is none).
func (f *ScaleFailure) AppendJSON(b []byte) []byte {
	if f == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyStringHTML(b, `{"message":`, f.Message)
	b = jsonw.KeyBool(b, `,"panic":`, f.Panic)
	b = jsonw.KeyInt(b, `,"epoch":`, f.Epoch)
	return append(b, '}')
}

// AppendJSON writes a fault and what the recovery from it threw away.
func (r *ScaleRecovery) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"barrier":`, int64(r.Barrier))
	b = jsonw.KeyInt(b, `,"epoch":`, r.Epoch)
	b = jsonw.KeyStringHTML(b, `,"kind":`, r.Kind)
	b = jsonw.KeyStringHTML(b, `,"during":`, r.During)
	b = jsonw.KeyStringHTML(b, `,"outcome":`, r.Outcome)
	b = jsonw.Key(b, `,"error":`)
	b = r.Error.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"rolled_back_to":`, r.RolledBackTo)
	b = jsonw.KeyInt(b, `,"lost_buffered_rows":`, int64(r.LostBufferedRows))
	b = jsonw.KeyInt(b, `,"lost_builder_rows":`, int64(r.LostBuilderRows))
	b = jsonw.KeyInt(b, `,"lost_emitted_rows":`, int64(r.LostEmittedRows))
	return append(b, '}')
}

// AppendJSON writes the first violation of a scale run (null when there is none).
func (v *ScaleViolation) AppendJSON(b []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyInt(b, `{"barrier":`, int64(v.Barrier))
	b = jsonw.KeyInt(b, `,"epoch":`, v.Epoch)
	b = jsonw.KeyInt(b, `,"missing":`, int64(v.Missing))
	b = jsonw.KeyInt(b, `,"extra":`, int64(v.Extra))
	b = jsonw.KeyStringHTML(b, `,"text":`, v.Text)
	return append(b, '}')
}

// AppendJSON writes a scale run's totals.
func (t *ScaleTotals) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"inserted":`, int64(t.Inserted))
	b = jsonw.KeyInt(b, `,"updated":`, int64(t.Updated))
	b = jsonw.KeyInt(b, `,"deleted":`, int64(t.Deleted))
	b = jsonw.KeyInt(b, `,"snapshot_rows":`, int64(t.SnapshotRows))
	b = jsonw.KeyInt(b, `,"upstream_visible":`, int64(t.UpstreamVisible))
	b = jsonw.KeyInt(b, `,"upstream_hidden":`, int64(t.UpstreamHidden))
	b = jsonw.KeyInt(b, `,"upstream_rows":`, int64(t.UpstreamRows))
	b = jsonw.KeyInt(b, `,"steps":`, int64(t.Steps))
	return append(b, '}')
}

// AppendJSON writes a workload's parameters.
func (w *Workload) AppendJSON(b []byte) []byte {
	b = jsonw.KeyInt(b, `{"rows":`, int64(w.Rows))
	b = jsonw.KeyInt(b, `,"seed":`, w.Seed)
	b = jsonw.KeyInt(b, `,"start_after":`, int64(w.StartAfter))
	b = jsonw.KeyInt(b, `,"snapshot_per_epoch":`, int64(w.SnapshotPerEpoch))
	b = jsonw.KeyInt(b, `,"upstream_per_epoch":`, int64(w.UpstreamPerEpoch))
	b = jsonw.KeyInt(b, `,"mix":{"insert":`, int64(w.Mix.Insert))
	b = jsonw.KeyInt(b, `,"update":`, int64(w.Mix.Update))
	b = jsonw.KeyInt(b, `,"delete":`, int64(w.Mix.Delete))
	b = jsonw.KeyInt(b, `},"after":`, int64(w.After))
	b = jsonw.Key(b, `,"fault":`)
	if w.Fault == nil {
		b = append(b, "null"...)
	} else {
		b = jsonw.Key(b, `{"kind":`)
		b = w.Fault.Kind.AppendJSON(b)
		b = jsonw.KeyInt(b, `,"epoch":`, w.Fault.Epoch)
		b = append(b, '}')
	}
	return append(b, '}')
}

// AppendJSON writes the kind's name.
func (k FaultKind) AppendJSON(b []byte) []byte { return jsonw.StringHTML(b, k.String()) }

// MarshalJSON is AppendJSON, for encoding/json (the command line).
func (k FaultKind) MarshalJSON() ([]byte, error) { return k.AppendJSON(nil), nil }
