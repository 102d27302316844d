// Package wire writes the JSON the bridge and the command line answer with: the model's
// views, traces, failures and tables (package engine's types) as functions, byte for byte as
// encoding/json writes them.
package wire

import (
	"fmt"
	"strconv"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/jsonw"
)

// The engine's JSON, written by hand (no reflection, no encoding/json in the wasm): every type
// the page gets has its Append function here (a value, a row, an output and a fault kind keep
// their AppendJSON methods in engine/json.go, for their MarshalJSON), byte for byte as
// encoding/json writes it, keys in the order of the struct's fields and named by their json
// tags (json_test.go here and session's check both, on every built-in and on values with every
// field set). A field added to a type needs its line here: the test names the type whose
// output differs.
//
// Strings are written as the bridge's Encoder writes them (jsonw.String: no HTML escaping),
// except where the old encoding went through json.Marshal and so escaped <, > and &: a row's
// values (Value, Row), an output (Output), the scale summary and the explorer's outcome key.
// Escaped or not, the page reads the same string.

// AppendRows writes a list of rows (nil: null).
func AppendRows(b []byte, rows []engine.Row) []byte {
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
	case engine.Value:
		return x.AppendJSON(b)
	case engine.Row:
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

// AppendTuples writes a table given as tuples (a progress table's rows).
func AppendTuples(b []byte, rows [][]any, html bool) []byte {
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

func appendOutputs(b []byte, outs []engine.Output) []byte {
	return jsonw.List(b, outs, (*engine.Output).AppendJSON)
}

// AppendJSONOutputs appends a list of outputs (the bridge's answer to `outputs`).
func AppendJSONOutputs(b []byte, outs []engine.Output) []byte { return appendOutputs(b, outs) }

// ---- the view (docs/view.md) ----

// AppendView writes the view.
func AppendView(b []byte, v *engine.View) []byte {
	b = jsonw.KeyString(b, `{"title":`, v.Title)
	b = jsonw.KeyString(b, `,"summary":`, v.Summary)
	b = jsonw.KeyInt(b, `,"step":`, int64(v.Step))
	b = jsonw.KeyInt(b, `,"steps":`, int64(v.Steps))
	b = jsonw.KeyString(b, `,"phase":`, v.Phase)
	b = jsonw.KeyInt(b, `,"epoch":`, v.Epoch)
	b = jsonw.Key(b, `,"config":`)
	b = AppendConfigView(b, &v.Config)
	b = jsonw.Key(b, `,"upstream":`)
	b = AppendUpstreamView(b, &v.Upstream)
	b = jsonw.Key(b, `,"snapshot":`)
	b = AppendSnapshotView(b, v.Snapshot)
	b = jsonw.Key(b, `,"buffer":`)
	b = list(b, v.Buffer, AppendBufferView)
	b = jsonw.Key(b, `,"builders":`)
	b = list(b, v.Builders, AppendBuilderView)
	b = jsonw.Key(b, `,"progress":`)
	b = list(b, v.Progress, AppendProgressView)
	b = jsonw.Key(b, `,"state_table":`)
	b = AppendStateTableView(b, &v.StateTable)
	b = jsonw.Key(b, `,"progress_table":`)
	b = AppendProgressTabView(b, &v.ProgressTable)
	b = jsonw.Key(b, `,"downstream":`)
	b = AppendDownstreamView(b, &v.Downstream)
	b = jsonw.Key(b, `,"invariant":`)
	b = AppendInvariant(b, &v.Invariant)
	b = jsonw.Key(b, `,"outputs":`)
	b = appendOutputs(b, v.Outputs)
	b = jsonw.KeyInt(b, `,"outputs_total":`, int64(v.OutputsTotal))
	b = jsonw.KeyInt(b, `,"outputs_first":`, int64(v.OutputsFirst))
	b = jsonw.KeyInt(b, `,"new_outputs":`, int64(v.NewOutputs))
	b = jsonw.Key(b, `,"rolled_back":`)
	b = list(b, v.RolledBack, AppendRollback)
	b = jsonw.Key(b, `,"explanations":`)
	b = list(b, v.Explanations, AppendEffect)
	b = jsonw.KeyString(b, `,"note":`, v.Note)
	b = jsonw.KeyString(b, `,"note_caveat":`, v.NoteCaveat)
	b = jsonw.KeyBool(b, `,"pause":`, v.Pause)
	b = jsonw.KeyString(b, `,"next_note":`, v.NextNote)
	b = jsonw.Key(b, `,"error":`)
	b = AppendFailure(b, v.Error)
	b = jsonw.Key(b, `,"failure":`)
	b = AppendFailureView(b, v.Failure)
	b = jsonw.Key(b, `,"actor":`)
	b = AppendActorView(b, &v.Actor)
	b = jsonw.Key(b, `,"actions":`)
	b = list(b, v.Actions, AppendAction)
	b = jsonw.Key(b, `,"marks":`)
	b = list(b, v.Marks, AppendMark)
	b = jsonw.Key(b, `,"bug":`)
	b = AppendBugInfo(b, v.Bug)
	b = jsonw.KeyBool(b, `,"branched":`, v.Branched)
	b = jsonw.Key(b, `,"name":`)
	if v.Name == nil {
		b = append(b, "null"...)
	} else {
		b = jsonw.String(b, *v.Name)
	}
	b = jsonw.KeyInt(b, `,"revision":`, v.Revision)
	b = jsonw.Key(b, `,"predict":`)
	b = AppendPrediction(b, v.Predict)
	b = jsonw.Key(b, `,"changed":`)
	b = AppendChanged(b, &v.Changed)
	b = jsonw.Key(b, `,"changed_vnodes":`)
	b = AppendChangedVnodes(b, &v.ChangedVnodes)
	b = jsonw.Key(b, `,"added_rows":`)
	b = AppendAddedRows(b, &v.AddedRows)
	b = AppendReleases(b, v)
	b = AppendCodeMap(b, v)
	return append(b, '}')
}

// AppendConfigView writes the actor's configuration.
func AppendConfigView(b []byte, c *engine.ConfigView) []byte {
	b = jsonw.Key(b, `{"columns":`)
	b = list(b, c.Columns, AppendColumnView)
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

// AppendColumnView writes a column's name and type.
func AppendColumnView(b []byte, c *engine.ColumnView) []byte {
	b = jsonw.KeyString(b, `{"name":`, c.Name)
	b = jsonw.KeyString(b, `,"type":`, c.Type)
	return append(b, '}')
}

// AppendUpstreamView writes the upstream.
func AppendUpstreamView(b []byte, u *engine.UpstreamView) []byte {
	b = jsonw.Key(b, `{"next":`)
	b = list(b, u.Next, AppendMessageView)
	b = jsonw.KeyInt(b, `,"more":`, int64(u.More))
	b = jsonw.KeyBool(b, `,"ended":`, u.Ended)
	b = jsonw.Key(b, `,"content":`)
	b = AppendRows(b, u.Content)
	return append(b, '}')
}

// AppendMessageView writes an upstream message still to come (its empty keys left out).
func AppendMessageView(b []byte, m *engine.MessageView) []byte {
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
		b = engine.AppendOutRows(b, m.Rows, false)
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

// AppendSnapshotView writes the snapshot stream (null when there is none).
func AppendSnapshotView(b []byte, s *engine.SnapshotView) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyInt(b, `{"epoch":`, s.Epoch)
	b = jsonw.Key(b, `,"vnodes":`)
	b = list(b, s.Vnodes, AppendLaneView)
	b = jsonw.KeyInt(b, `,"remaining":`, int64(s.Remaining))
	b = jsonw.KeyInt(b, `,"refreshed_at_step":`, int64(s.OpenedAt))
	b = jsonw.KeyBool(b, `,"refreshed":`, s.Refreshed)
	return append(b, '}')
}

// AppendLaneView writes a snapshot lane.
func AppendLaneView(b []byte, l *engine.LaneView) []byte {
	b = jsonw.KeyInt(b, `{"vnode":`, int64(l.Vnode))
	b = jsonw.Key(b, `,"rows":`)
	b = AppendRows(b, l.Rows)
	b = jsonw.KeyInt(b, `,"next":`, int64(l.Next))
	b = jsonw.Key(b, `,"pos":`)
	b = l.Pos.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"offset":`, int64(l.Offset))
	b = jsonw.KeyInt(b, `,"total":`, int64(l.Total))
	return append(b, '}')
}

// AppendBufferView writes a buffered chunk.
func AppendBufferView(b []byte, v *engine.BufferView) []byte {
	b = jsonw.KeyInt(b, `{"arrived_step":`, int64(v.ArrivedStep))
	b = jsonw.Key(b, `,"rows":`)
	b = engine.AppendOutRows(b, v.Rows, false)
	return append(b, '}')
}

// AppendBuilderView writes a chunk builder.
func AppendBuilderView(b []byte, v *engine.BuilderView) []byte {
	b = jsonw.KeyInt(b, `{"vnode":`, int64(v.Vnode))
	b = jsonw.KeyInt(b, `,"capacity":`, int64(v.Capacity))
	b = jsonw.Key(b, `,"rows":`)
	b = AppendRows(b, v.Rows)
	return append(b, '}')
}

// AppendProgressView writes a vnode's progress.
func AppendProgressView(b []byte, v *engine.ProgressView) []byte {
	b = jsonw.KeyInt(b, `{"vnode":`, int64(v.Vnode))
	b = jsonw.KeyString(b, `,"state":`, v.State)
	b = jsonw.Key(b, `,"pos":`)
	b = v.Pos.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"rows":`, v.Rows)
	return append(b, '}')
}

// AppendStateTableView writes the state table.
func AppendStateTableView(b []byte, v *engine.StateTableView) []byte {
	b = jsonw.Key(b, `{"rows":`)
	b = list(b, v.Rows, AppendVnodeRow)
	b = jsonw.Key(b, `,"pending":`)
	b = list(b, v.Pending, AppendPendingRow)
	b = jsonw.KeyInt(b, `,"epoch":`, v.Epoch)
	b = jsonw.KeyInt(b, `,"durable_epoch":`, v.DurableEpoch)
	return append(b, '}')
}

// AppendVnodeRow writes a state-table row.
func AppendVnodeRow(b []byte, r *engine.VnodeRow) []byte {
	b = jsonw.KeyInt(b, `{"vnode":`, int64(r.Vnode))
	b = jsonw.Key(b, `,"values":`)
	b = r.Values.AppendJSON(b)
	return append(b, '}')
}

// AppendPendingRow writes an uncommitted state-table write.
func AppendPendingRow(b []byte, r *engine.PendingRow) []byte {
	b = jsonw.KeyString(b, `{"op":`, r.Op)
	b = jsonw.KeyInt(b, `,"vnode":`, int64(r.Vnode))
	b = jsonw.Key(b, `,"values":`)
	b = r.Values.AppendJSON(b)
	return append(b, '}')
}

// AppendProgressTabView writes the progress table.
func AppendProgressTabView(b []byte, v *engine.ProgressTabView) []byte {
	b = jsonw.Key(b, `{"columns":`)
	b = list(b, v.Columns, AppendTableColumn)
	b = jsonw.Key(b, `,"rows":`)
	b = AppendTuples(b, v.Rows, false)
	b = jsonw.Key(b, `,"durable":`)
	b = AppendTuples(b, v.Durable, false)
	b = jsonw.KeyInt(b, `,"durable_epoch":`, v.DurableEpoch)
	return append(b, '}')
}

// AppendTableColumn writes a table's column.
func AppendTableColumn(b []byte, c *engine.TableColumn) []byte {
	b = jsonw.KeyString(b, `{"name":`, c.Name)
	b = jsonw.KeyString(b, `,"kind":`, c.Kind)
	if c.Of != "" {
		b = jsonw.KeyString(b, `,"of":`, c.Of)
	}
	return append(b, '}')
}

// AppendDownstreamView writes downstream's view.
func AppendDownstreamView(b []byte, v *engine.DownstreamView) []byte {
	b = jsonw.Key(b, `{"rows":`)
	b = AppendRows(b, v.Rows)
	b = jsonw.KeyInt(b, `,"durable_epoch":`, v.DurableEpoch)
	return append(b, '}')
}

// AppendInvariant writes the invariant's last check.
func AppendInvariant(b []byte, inv *engine.Invariant) []byte {
	b = jsonw.KeyString(b, `{"status":`, inv.Status)
	b = jsonw.KeyInt(b, `,"step":`, int64(inv.Step))
	b = jsonw.KeyInt(b, `,"epoch":`, inv.Epoch)
	b = jsonw.KeyString(b, `,"text":`, inv.Text)
	b = jsonw.Key(b, `,"missing":`)
	b = AppendRows(b, inv.Missing)
	b = jsonw.Key(b, `,"extra":`)
	b = AppendRows(b, inv.Extra)
	return append(b, '}')
}

// AppendRollback writes a recovery's rolled-back outputs.
func AppendRollback(b []byte, r *engine.Rollback) []byte {
	b = jsonw.KeyInt(b, `{"from":`, int64(r.From))
	b = jsonw.KeyInt(b, `,"to":`, int64(r.To))
	b = jsonw.KeyInt(b, `,"step":`, int64(r.Step))
	b = jsonw.KeyInt(b, `,"epoch":`, r.Epoch)
	return append(b, '}')
}

// AppendEffect writes a sentence of the narration.
func AppendEffect(b []byte, ef *engine.Effect) []byte {
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

// AppendFailure writes the error that stopped the executor (null when there is none).
func AppendFailure(b []byte, f *engine.Failure) []byte { return appendFailure(b, f, false) }

// AppendFailureHTML writes the failure with its strings escaped as json.Marshal escapes them.
func AppendFailureHTML(b []byte, f *engine.Failure) []byte { return appendFailure(b, f, true) }

func appendFailure(b []byte, f *engine.Failure, html bool) []byte {
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

// AppendFailureView writes a failure's explanation (null when there is none).
func AppendFailureView(b []byte, f *engine.FailureView) []byte {
	if f == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyString(b, `{"kind":`, string(f.Kind))
	b = jsonw.KeyString(b, `,"message":`, f.Message)
	b = jsonw.KeyBool(b, `,"panic":`, f.Panic)
	b = jsonw.KeyInt(b, `,"step":`, int64(f.Step))
	b = jsonw.KeyString(b, `,"meaning":`, f.Meaning)
	b = jsonw.Key(b, `,"proven":`)
	b = list(b, f.Proven, AppendCitation)
	b = jsonw.Key(b, `,"inferred":`)
	b = jsonw.Strings(b, f.Inferred)
	b = jsonw.KeyString(b, `,"left_behind":`, f.LeftBehind)
	b = jsonw.KeyString(b, `,"recovery":`, f.Recovery)
	b = jsonw.KeyString(b, `,"phase":`, f.Phase)
	b = jsonw.KeyString(b, `,"phase_label":`, f.PhaseLabel)
	b = jsonw.KeyString(b, `,"release":`, f.Release)
	b = jsonw.KeyBool(b, `,"data":{"lost":`, f.Data.Lost)
	b = jsonw.KeyString(b, `,"headline":`, f.Data.Headline)
	b = jsonw.KeyString(b, `,"until":`, f.Data.Until)
	b = jsonw.KeyString(b, `,"after":`, f.Data.After)
	b = jsonw.Key(b, `},"checks":`)
	b = jsonw.Strings(b, f.Checks)
	b = jsonw.KeyString(b, `,"checks_from":`, f.ChecksFrom)
	return append(b, '}')
}

// AppendCitation writes a sentence the cited lines prove.
func AppendCitation(b []byte, c *engine.Citation) []byte {
	b = jsonw.KeyString(b, `{"text":`, c.Text)
	b = jsonw.KeyString(b, `,"file":`, c.File)
	b = jsonw.Key(b, `,"lines":`)
	b = jsonw.Lines(b, c.Lines)
	b = jsonw.KeyString(b, `,"url":`, c.URL)
	return append(b, '}')
}

// AppendAction writes something that can happen next.
func AppendAction(b []byte, a *engine.Action) []byte {
	b = jsonw.KeyString(b, `{"id":`, a.ID)
	b = jsonw.KeyString(b, `,"label":`, a.Label)
	b = jsonw.KeyString(b, `,"step":`, a.Step)
	b = jsonw.KeyString(b, `,"kind":`, a.Kind)
	b = jsonw.KeyBool(b, `,"scripted":`, a.Scripted)
	return append(b, '}')
}

// AppendJSONActions writes a list of actions (nil: null).
func AppendJSONActions(b []byte, actions []engine.Action) []byte {
	return list(b, actions, AppendAction)
}

// AppendMark writes a timeline mark.
func AppendMark(b []byte, m *engine.Mark) []byte {
	b = jsonw.KeyInt(b, `{"step":`, int64(m.Step))
	b = jsonw.KeyString(b, `,"kind":`, m.Kind)
	b = jsonw.KeyString(b, `,"label":`, m.Label)
	return append(b, '}')
}

// AppendBugInfo writes a bug mode (null when there is none).
func AppendBugInfo(b []byte, bi *engine.BugInfo) []byte {
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
	b = jsonw.KeyString(b, `,"release":`, bi.Release)
	return append(b, '}')
}

// AppendJSONBugs writes the list of bug modes (Bugs).
func AppendJSONBugs(b []byte, bugs []engine.BugInfo) []byte {
	return list(b, bugs, AppendBugInfo)
}

// AppendPrediction writes the next barrier that marks the buffer (null when none comes).
func AppendPrediction(b []byte, p *engine.Prediction) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyInt(b, `{"step":`, int64(p.Step))
	b = jsonw.KeyInt(b, `,"epoch":`, p.Epoch)
	b = jsonw.KeyBool(b, `,"next":`, p.Next)
	b = jsonw.KeyBool(b, `,"held":`, p.Held)
	b = jsonw.Key(b, `,"rows":`)
	b = list(b, p.Rows, AppendPredictRow)
	return append(b, '}')
}

// AppendPredictRow writes what a barrier does with a buffered row.
func AppendPredictRow(b []byte, r *engine.PredictRow) []byte {
	b = jsonw.KeyInt(b, `{"arrived_step":`, int64(r.ArrivedStep))
	b = jsonw.KeyString(b, `,"op":`, r.Op)
	b = jsonw.Key(b, `,"values":`)
	b = r.Values.AppendJSON(b)
	b = jsonw.KeyInt(b, `,"vnode":`, int64(r.Vnode))
	b = jsonw.KeyBool(b, `,"visible":`, r.Visible)
	b = jsonw.KeyString(b, `,"why":`, r.Why)
	return append(b, '}')
}

// AppendChanged writes which panels the last step changed.
func AppendChanged(b []byte, c *engine.Changed) []byte {
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

// AppendChangedVnodes writes the vnodes whose part of each panel changed.
func AppendChangedVnodes(b []byte, c *engine.ChangedVnodes) []byte {
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

// AppendAddedRows writes the rows the step added.
func AppendAddedRows(b []byte, a *engine.AddedRows) []byte {
	b = jsonw.Key(b, `{"upstream_content":`)
	b = AppendRows(b, a.UpstreamContent)
	b = jsonw.Key(b, `,"downstream":`)
	b = AppendRows(b, a.Downstream)
	return append(b, '}')
}

// ---- the trace, the explorer, the teaching tables ----

// AppendTrace writes the trace contract's object (the page's state()).
func AppendTrace(b []byte, t *engine.Trace) []byte {
	b = jsonw.KeyString(b, `{"title":`, t.Title)
	b = jsonw.Key(b, `,"outputs":`)
	b = appendOutputs(b, t.Outputs)
	b = jsonw.Key(b, `,"error":`)
	b = AppendFailure(b, t.Error)
	b = jsonw.KeyString(b, `,"phase":`, t.Phase)
	b = jsonw.Key(b, `,"progress_table":`)
	b = AppendTuples(b, t.ProgressTable, false)
	b = jsonw.Key(b, `,"downstream":`)
	b = AppendRows(b, t.Downstream)
	b = jsonw.KeyInt(b, `,"step":`, int64(t.Step))
	if t.Bug != "" {
		b = jsonw.KeyString(b, `,"bug":`, t.Bug)
	}
	if t.Release != "" {
		b = jsonw.KeyString(b, `,"release":`, t.Release)
	}
	return append(b, '}')
}

// ---- the scale summary (escaped as json.Marshal escapes it: `backfill run --json` prints it) ----

// AppendScaleSummary writes the summary as compact JSON (JSON indents it).
func AppendScaleSummary(b []byte, s *engine.ScaleSummary) []byte {
	b = jsonw.KeyStringHTML(b, `{"title":`, s.Title)
	b = jsonw.KeyStringHTML(b, `,"phase":`, s.Phase)
	b = jsonw.Key(b, `,"error":`)
	b = AppendScaleFailure(b, s.Error)
	b = jsonw.KeyInt(b, `,"epochs":`, int64(s.Epochs))
	b = jsonw.KeyInt(b, `,"rows":`, int64(s.Rows))
	b = jsonw.KeyInt(b, `,"downstream_rows":`, int64(s.DownstreamRows))
	b = jsonw.KeyStringHTML(b, `,"invariant":`, s.Invariant)
	b = jsonw.Key(b, `,"series":`)
	b = AppendScaleSeries(b, &s.Series)
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
	b = list(b, s.Recoveries, AppendScaleRecovery)
	b = jsonw.Key(b, `,"violation":`)
	b = AppendScaleViolation(b, s.Violation)
	b = jsonw.Key(b, `,"totals":`)
	b = AppendScaleTotals(b, &s.Totals)
	b = jsonw.KeyInt(b, `,"vnodes":`, int64(s.Vnodes))
	b = jsonw.KeyInt(b, `,"owned":`, int64(s.Owned))
	b = jsonw.Key(b, `,"workload":`)
	b = AppendWorkload(b, &s.Workload)
	if s.Bug != "" {
		b = jsonw.KeyStringHTML(b, `,"bug":`, s.Bug)
	}
	return append(b, '}')
}

// AppendScaleSeries writes the summary's series.
func AppendScaleSeries(b []byte, s *engine.ScaleSeries) []byte {
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

// AppendScaleFailure writes a scale run's failure (null when there is none).
func AppendScaleFailure(b []byte, f *engine.ScaleFailure) []byte {
	if f == nil {
		return append(b, "null"...)
	}
	b = jsonw.KeyStringHTML(b, `{"message":`, f.Message)
	b = jsonw.KeyBool(b, `,"panic":`, f.Panic)
	b = jsonw.KeyInt(b, `,"epoch":`, f.Epoch)
	return append(b, '}')
}

// AppendScaleRecovery writes a fault and what the recovery from it threw away.
func AppendScaleRecovery(b []byte, r *engine.ScaleRecovery) []byte {
	b = jsonw.KeyInt(b, `{"barrier":`, int64(r.Barrier))
	b = jsonw.KeyInt(b, `,"epoch":`, r.Epoch)
	b = jsonw.KeyStringHTML(b, `,"kind":`, r.Kind)
	b = jsonw.KeyStringHTML(b, `,"during":`, r.During)
	b = jsonw.KeyStringHTML(b, `,"outcome":`, r.Outcome)
	b = jsonw.Key(b, `,"error":`)
	b = AppendScaleFailure(b, r.Error)
	b = jsonw.KeyInt(b, `,"rolled_back_to":`, r.RolledBackTo)
	b = jsonw.KeyInt(b, `,"lost_buffered_rows":`, int64(r.LostBufferedRows))
	b = jsonw.KeyInt(b, `,"lost_builder_rows":`, int64(r.LostBuilderRows))
	b = jsonw.KeyInt(b, `,"lost_emitted_rows":`, int64(r.LostEmittedRows))
	return append(b, '}')
}

// AppendScaleViolation writes the first violation of a scale run (null when there is none).
func AppendScaleViolation(b []byte, v *engine.ScaleViolation) []byte {
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

// AppendScaleTotals writes a scale run's totals.
func AppendScaleTotals(b []byte, t *engine.ScaleTotals) []byte {
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

// AppendWorkload writes a workload's parameters.
func AppendWorkload(b []byte, w *engine.Workload) []byte {
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

// list is jsonw.List for the functions here, which take the buffer first: xs as a JSON array
// (nil: null).
func list[T any](b []byte, xs []T, each func([]byte, *T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, &xs[i])
	}
	return append(b, ']')
}

// AppendMarks writes the timeline's marks.
func AppendMarks(b []byte, marks []engine.Mark) []byte { return list(b, marks, AppendMark) }
