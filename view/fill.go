package view

import (
	"sync/atomic"

	"github.com/backfill-explainer/explainer/engine"
)

// maxOutputs bounds the outputs a view carries (the trace has them all).
const maxOutputs = 200

// Of is the engine's part of the view; a timeline (package timeline) adds the script's part.
func Of(e *engine.Engine) View {
	var v View
	Fill(e, &v)
	return v
}

// Fill writes the engine's part of the view into v (the timeline's FillView writes the whole
// view into one value: the page's view is made in its final shape, never copied on).
func Fill(e *engine.Engine, v *View) {
	c := e.Config()
	*v = View{
		Title: c.Title, Summary: c.Summary, Step: e.StepCount(), Phase: e.Phase().String(), Epoch: e.Epoch(),
		Error: e.Failure(), Actor: Actor(e), Invariant: e.Invariant(), Explanations: e.Explanations(), Marks: e.Marks(), Bug: BugIn(c.Bug, e.Release()),
	}
	if v.Explanations == nil {
		v.Explanations = []engine.Explanation{}
	}
	if v.Marks == nil {
		v.Marks = []engine.Mark{}
	}
	if v.Invariant.Missing == nil {
		v.Invariant.Missing = []engine.Row{}
	}
	if v.Invariant.Extra == nil {
		v.Invariant.Extra = []engine.Row{}
	}
	names := func(cols []int) []string {
		out := make([]string, len(cols))
		for i, col := range cols {
			out[i] = c.Columns[col].Name
		}
		return out
	}
	v.Release, v.Releases, v.NewerMain = e.Release().Name, releaseList(), NewerMain
	v.Create = c.Create.String()
	v.Config = ConfigView{Locality: names(c.Locality), StreamKey: names(c.StreamKey), PK: names(e.PK()),
		VnodeCount: c.VnodeCount, Owned: e.Owned(), Rule: c.Rule.String(), ChunkSize: c.ChunkSize,
		Capacity: c.Capacity(), Fragment: c.Fragment, Actor: c.Actor}
	for _, col := range c.Columns {
		v.Config.Columns = append(v.Config.Columns, ColumnView{col.Name, col.Type.String()})
	}
	v.Upstream = UpstreamView{Next: []MessageView{}, Ended: e.UpstreamEnded(), Content: e.UpstreamContent()}
	v.Snapshot = e.SnapshotView()
	v.Buffer = Buffer(e)
	owned := e.Owned()
	v.Builders = []BuilderView{}
	if rows := e.BuilderRows(); rows != nil {
		v.Builders = make([]BuilderView, 0, len(owned))
		for i, r := range rows {
			v.Builders = append(v.Builders, BuilderView{Vnode: owned[i], Capacity: c.Capacity(), Rows: r})
		}
	}
	progress := e.Progress()
	v.Progress = make([]ProgressView, 0, len(progress))
	for i, p := range progress {
		v.Progress = append(v.Progress, ProgressView{Vnode: owned[i], State: p.State.String(), Pos: p.Pos, Rows: p.Rows})
	}
	v.StateTable = StateTableView{Epoch: e.CommittedEpoch(), DurableEpoch: e.DurableEpoch()}
	v.StateTable.Rows, v.StateTable.Pending = StateTable(e)
	v.ProgressTable = ProgressTabView{Columns: progressColumns(e), Rows: e.ProgressTableRows(), Durable: e.DurableProgress().Rows(), DurableEpoch: e.DurableEpoch()}
	v.Downstream = DownstreamView{Rows: e.DownstreamContent(), DurableEpoch: e.DurableEpoch()}
	outs := e.Outputs()
	v.OutputsTotal = len(outs)
	v.OutputsFirst = max(0, len(outs)-maxOutputs)
	v.Outputs = append([]engine.Output{}, outs[v.OutputsFirst:]...)
	v.RolledBack = append([]engine.Rollback{}, e.Rollbacks()...)
	for i := len(outs) - 1; i >= 0 && outs[i].Step == e.StepCount() && e.StepCount() > 0; i-- {
		v.NewOutputs++
	}
}

// progressColumns are the progress table's columns: vnode, the pos (one per pk column),
// finished, rows.
func progressColumns(e *engine.Engine) []TableColumn {
	cols := []TableColumn{{Name: "vnode", Kind: "vnode"}}
	for _, c := range e.PK() {
		n := e.Config().Columns[c].Name
		cols = append(cols, TableColumn{Name: "pos." + n, Kind: "value", Of: n})
	}
	return append(cols, TableColumn{Name: "finished", Kind: "bool"}, TableColumn{Name: "rows", Kind: "count"})
}

// releaseList is ReleaseList, made again only when the registry changed (a test adds one).
func releaseList() []ReleaseInfo {
	l := listed.Load()
	if l == nil || len(*l) != len(engine.Releases) || (*l)[len(*l)-1].Name != engine.Releases[len(engine.Releases)-1].Name {
		n := ReleaseList()
		l = &n
		listed.Store(l)
	}
	return *l
}

var listed atomic.Pointer[[]ReleaseInfo]

// ReleaseInfo is a release as the view and the CLI list it.
type ReleaseInfo struct {
	Name    string `json:"name"`
	Tags    string `json:"tags"`
	Ref     string `json:"ref"`
	Summary string `json:"summary"`
	Default bool   `json:"default,omitempty"`
}

// ReleaseList lists every release for a picker, oldest first.
func ReleaseList() []ReleaseInfo {
	out := make([]ReleaseInfo, len(engine.Releases))
	for i, r := range engine.Releases {
		out[i] = ReleaseInfo{Name: r.Name, Tags: r.Tags, Ref: r.Ref, Summary: r.Summary, Default: r == engine.DefaultRelease}
	}
	return out
}

// NewerMain is what the model leaves out of RisingWave's main branch after v3.1.
const NewerMain = "Newer main: PR #27020 (2026-09-10) applies the backfill rate limit to the drain; not modelled (its source is not read here)."
