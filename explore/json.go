package explore

import (
	"github.com/backfill-explainer/explainer/internal/jsonw"
	"github.com/backfill-explainer/explainer/wire"
)

// AppendJSONFields writes the exploration's keys but its outcomes, without braces: a report
// that embeds it (session.ExploreReport) writes its own outcomes after them.
func (x *Exploration) AppendJSONFields(b []byte) []byte {
	b = jsonw.KeyUint(b, `"schedules":`, x.Schedules)
	b = jsonw.KeyInt(b, `,"states":`, int64(x.States))
	b = jsonw.KeyBool(b, `,"capped":`, x.Capped)
	b = jsonw.KeyBool(b, `,"exhaustive":`, x.Exhaustive)
	b = jsonw.KeyString(b, `,"stopped":`, x.Stopped)
	b = jsonw.KeyInt(b, `,"budget":{"states":`, int64(x.Budget.States))
	b = jsonw.KeyInt(b, `,"bytes":`, x.Budget.Bytes)
	b = jsonw.KeyInt(b, `,"work":`, x.Budget.Work)
	b = jsonw.KeyInt(b, `},"work":`, x.Work)
	b = jsonw.KeyInt(b, `,"bytes":`, x.Bytes)
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
// (session.ExploreOutcome) adds its own keys after them.
func (o *Outcome) AppendJSONFields(b []byte) []byte {
	b = jsonw.KeyString(b, `"phase":`, o.Phase)
	b = jsonw.Key(b, `,"error":`)
	b = wire.AppendFailure(b, o.Error)
	b = jsonw.KeyBool(b, `,"violated":`, o.Violated)
	b = jsonw.Key(b, `,"invariant":`)
	b = wire.AppendInvariant(b, &o.Invariant)
	b = jsonw.Key(b, `,"downstream":`)
	b = wire.AppendRows(b, o.Downstream)
	b = jsonw.Key(b, `,"progress_table":`)
	b = wire.AppendTuples(b, o.ProgressTable, false)
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
	b = wire.AppendFailureHTML(b, o.Error)
	b = jsonw.KeyBool(b, `,"V":`, o.Violated)
	b = jsonw.KeyStringHTML(b, `,"S":`, o.Invariant.Status)
	b = jsonw.Key(b, `,"D":`)
	b = wire.AppendRows(b, o.Downstream)
	b = jsonw.Key(b, `,"T":`)
	b = wire.AppendTuples(b, o.ProgressTable, true)
	return append(b, '}')
}
