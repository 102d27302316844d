package engine

// View is everything a person should see at a step (docs/view.md). It is JSON-ready.
type View struct {
	Title         string          `json:"title"`
	Summary       string          `json:"summary"`
	Step          int             `json:"step"`
	Steps         int             `json:"steps"`
	Phase         string          `json:"phase"`
	Epoch         int64           `json:"epoch"`
	Config        ConfigView      `json:"config"`
	Upstream      UpstreamView    `json:"upstream"`
	Snapshot      *SnapshotView   `json:"snapshot"`
	Buffer        []BufferView    `json:"buffer"`
	Builders      []BuilderView   `json:"builders"`
	Progress      []ProgressView  `json:"progress"`
	StateTable    StateTableView  `json:"state_table"`
	ProgressTable ProgressTabView `json:"progress_table"`
	Downstream    DownstreamView  `json:"downstream"`
	Invariant     Invariant       `json:"invariant"`
	Outputs       []Output        `json:"outputs"`
	OutputsTotal  int             `json:"outputs_total"`
	OutputsFirst  int             `json:"outputs_first"`
	NewOutputs    int             `json:"new_outputs"`
	RolledBack    []Rollback      `json:"rolled_back"` // the outputs each recovery rolled back`
	Explanations  []Explanation   `json:"explanations"`
	Note          string          `json:"note"`
	NoteCaveat    string          `json:"note_caveat"` // "" or the caveat `note` begins with: the note was written for another run`
	Pause         bool            `json:"pause"`       // the step just applied asks autoplay to stop (presenter mode)
	NextNote      string          `json:"next_note"`   // the note of the next scripted step (package timeline), or ""
	Error         *Failure        `json:"error"`
	Failure       *FailureView    `json:"failure"` // the failure's explanation (package failure), or null
	Actor         ActorView       `json:"actor"`   // the actor around the executor (engine/actor.go)
	Actions       []Action        `json:"actions"`
	Marks         []Mark          `json:"marks"`
	Bug           *BugInfo        `json:"bug"`      // the bug mode on, or null
	Branched      bool            `json:"branched"` // the run left its scenario's script (export() replays it)
	Name          *string         `json:"name"`     // the built-in scenario's name, or null for loaded text
	Revision      int64           `json:"revision"` // changes whenever the script changes (a branch, a bug mode, a load)
	Predict       *Prediction     `json:"predict"`  // the next barrier that marks the buffer, or null
	Changed       Changed         `json:"changed"`  // which panels the last step changed
	ChangedVnodes ChangedVnodes   `json:"changed_vnodes"`
	AddedRows     AddedRows       `json:"added_rows"`
	Release       string          `json:"release"`    // the release the run plays (engine/release.go)
	Releases      []ReleaseInfo   `json:"releases"`   // every release, for a picker
	NewerMain     string          `json:"newer_main"` // what newer main does that no release here models
	CodeMap       []CodeLine      `json:"code_map"`   // the executor's code map under the release (package codemap)
	CodeLit       []string        `json:"code_lit"`   // the code-map lines this step's explanations came from
	Create        string          `json:"create"`     // foreground or background: how the job was created (engine/create.go)
	Dropped       *FailureData    `json:"dropped"`    // the recovery dropped the job: what that does to the data, or null
}

// CodeLine is one line of the code map (package codemap) as a view carries it.
type CodeLine struct {
	ID      string `json:"id"`
	Depth   int    `json:"depth"`   // its indent: 0 is the executor's top level
	Section string `json:"section"` // the branch it is in, e.g. "backfill loop"
	Text    string `json:"text"`
	File    string `json:"file,omitempty"` // the RisingWave file; absent for a line that cites nothing
	Lines   [2]int `json:"lines"`          // [0, 0] when it cites nothing
	URL     string `json:"url"`            // "" when it cites nothing
}

// Action is something that can happen next (docs/view.md).
type Action struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Step     string `json:"step"`
	Kind     string `json:"kind"`
	Scripted bool   `json:"scripted"`
}

// ConfigView describes the actor.
type ConfigView struct {
	Columns    []ColumnView `json:"columns"`
	Locality   []string     `json:"locality"`
	StreamKey  []string     `json:"stream_key"`
	PK         []string     `json:"pk"`
	VnodeCount int          `json:"vnode_count"`
	Owned      []int        `json:"owned"`
	Rule       string       `json:"rule"`
	ChunkSize  int          `json:"chunk_size"`
	Capacity   int          `json:"capacity"`
	Fragment   int64        `json:"fragment"`
	Actor      int64        `json:"actor"`
}

// ColumnView is a column's name and type.
type ColumnView struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// UpstreamView is the upstream: what is still to come and what it holds.
type UpstreamView struct {
	Next    []MessageView `json:"next"`
	More    int           `json:"more"`
	Ended   bool          `json:"ended"`
	Content []Row         `json:"content"`
}

// MessageView is an upstream message still to come.
type MessageView struct {
	Type          string       `json:"type"`
	Step          int          `json:"step"`
	Epoch         int64        `json:"epoch,omitempty"`
	Checkpoint    bool         `json:"checkpoint,omitempty"`
	StartBackfill []int64      `json:"start_backfill,omitempty"`
	Rescale       bool         `json:"rescale,omitempty"`
	Mutation      string       `json:"mutation,omitempty"` // pause | resume | throttle: a mutation the executor ignores
	Throttle      *int64       `json:"throttle,omitempty"` // the throttle's rate limit
	Rows          []outRowJSON `json:"rows,omitempty"`
	Column        string       `json:"column,omitempty"`
	Value         *Value       `json:"value,omitempty"`
	Message       string       `json:"message,omitempty"`
}

// SnapshotView is the open snapshot stream.
type SnapshotView struct {
	Epoch     int64      `json:"epoch"`
	Vnodes    []LaneView `json:"vnodes"`
	Remaining int        `json:"remaining"`
	OpenedAt  int        `json:"refreshed_at_step"`
	Refreshed bool       `json:"refreshed"`
}

// LaneView is one vnode's rows in the snapshot, with the index of the next one to deliver.
type LaneView struct {
	Vnode  int   `json:"vnode"`
	Rows   []Row `json:"rows"`
	Next   int   `json:"next"`
	Pos    Row   `json:"pos"`
	Offset int   `json:"offset"` // index of rows[0] in the lane (a long lane is shown in a window around next)
	Total  int   `json:"total"`  // rows in the lane
}

// BufferView is one buffered upstream chunk.
type BufferView struct {
	ArrivedStep int          `json:"arrived_step"`
	Rows        []outRowJSON `json:"rows"`
}

// BuilderView is one vnode's chunk builder.
type BuilderView struct {
	Vnode    int   `json:"vnode"`
	Capacity int   `json:"capacity"`
	Rows     []Row `json:"rows"`
}

// ProgressView is one vnode's progress.
type ProgressView struct {
	Vnode int    `json:"vnode"`
	State string `json:"state"`
	Pos   Row    `json:"pos"`
	Rows  int64  `json:"rows"`
}

// StateTableView is the state table, committed and pending.
type StateTableView struct {
	Rows         []VnodeRow   `json:"rows"`
	Pending      []PendingRow `json:"pending"`
	Epoch        int64        `json:"epoch"`
	DurableEpoch int64        `json:"durable_epoch"`
}

// VnodeRow is a state-table row with its vnode.
type VnodeRow struct {
	Vnode  int `json:"vnode"`
	Values Row `json:"values"`
}

// PendingRow is an uncommitted state-table write.
type PendingRow struct {
	Op     string `json:"op"`
	Vnode  int    `json:"vnode"`
	Values Row    `json:"values"`
}

// ProgressTabView is the progress table: committed and durable.
type ProgressTabView struct {
	Columns      []TableColumn `json:"columns"` // what each position of a row holds
	Rows         [][]any       `json:"rows"`
	Durable      [][]any       `json:"durable"`
	DurableEpoch int64         `json:"durable_epoch"`
}

// TableColumn names a column of a table the view gives as tuples, and says what it holds:
// "vnode" (a vnode number), "value" (a value of the table's column Of), "bool" or "count".
type TableColumn struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Of   string `json:"of,omitempty"`
}

// progressColumns are the progress table's columns: vnode, the pos (one per pk column),
// finished, rows.
func (e *Engine) progressColumns() []TableColumn {
	cols := []TableColumn{{Name: "vnode", Kind: "vnode"}}
	for _, c := range e.pk {
		n := e.cfg.Columns[c].Name
		cols = append(cols, TableColumn{Name: "pos." + n, Kind: "value", Of: n})
	}
	return append(cols, TableColumn{Name: "finished", Kind: "bool"}, TableColumn{Name: "rows", Kind: "count"})
}

// DownstreamView is downstream's view.
type DownstreamView struct {
	Rows         []Row `json:"rows"`
	DurableEpoch int64 `json:"durable_epoch"`
}

// maxViewOutputs bounds the outputs a view carries (the trace has them all).
const maxViewOutputs = 200

// maxLaneRows bounds a snapshot lane's window.
const maxLaneRows = 64

// maxViewRows bounds the rows of one panel of the view (a snapshot lane, the state table).
const maxViewRows = 500

// View renders the engine's part of the view; a timeline (package timeline) adds the script's part.
func (e *Engine) View() View {
	var v View
	e.FillView(&v)
	return v
}

// FillView writes the engine's part of the view into v (the timeline's FillView writes the whole
// view into one value: the page's view is made in its final shape, never copied on).
func (e *Engine) FillView(v *View) {
	c := e.cfg
	*v = View{
		Title: c.Title, Summary: c.Summary, Step: e.step, Phase: e.phase.String(), Epoch: e.epoch,
		Error: e.failure, Actor: e.actorView(), Invariant: e.check.result, Explanations: e.narration.explanations, Marks: e.narration.marks, Bug: c.Bug.InfoIn(e.rel()),
	}
	if v.Explanations == nil {
		v.Explanations = []Explanation{}
	}
	if v.Marks == nil {
		v.Marks = []Mark{}
	}
	if v.Invariant.Missing == nil {
		v.Invariant.Missing = []Row{}
	}
	if v.Invariant.Extra == nil {
		v.Invariant.Extra = []Row{}
	}
	names := func(cols []int) []string {
		out := make([]string, len(cols))
		for i, col := range cols {
			out[i] = c.Columns[col].Name
		}
		return out
	}
	v.Release, v.Releases, v.NewerMain = e.rel().Name, releaseList(), NewerMain
	v.Create = e.cfg.Create.String()
	v.Config = ConfigView{Locality: names(c.Locality), StreamKey: names(c.StreamKey), PK: names(e.pk),
		VnodeCount: c.VnodeCount, Owned: e.owned, Rule: c.Rule.String(), ChunkSize: c.ChunkSize,
		Capacity: c.Capacity(), Fragment: c.Fragment, Actor: c.Actor}
	for _, col := range c.Columns {
		v.Config.Columns = append(v.Config.Columns, ColumnView{col.Name, col.Type.String()})
	}
	v.Upstream = UpstreamView{Next: []MessageView{}, Ended: e.upEnded, Content: e.world.upstream.firstRows(maxViewRows)}
	if e.snap != nil {
		sv := &SnapshotView{Epoch: e.snap.epoch, Remaining: e.snap.Remaining(), OpenedAt: e.snap.openedAt, Refreshed: e.snap.refreshed}
		sv.Vnodes = e.laneViews()
		v.Snapshot = sv
	}
	v.Buffer = []BufferView{}
	for _, b := range e.buffer {
		bv := BufferView{ArrivedStep: b.step, Rows: make([]outRowJSON, len(b.rows))}
		for i, r := range b.rows {
			_, vn := e.vnodeIndex(r.Row)
			bv.Rows[i] = outRowJSON{Op: r.Op.String(), Values: r.Row, Visible: r.Visible, Vnode: vn}
		}
		v.Buffer = append(v.Buffer, bv)
	}
	v.Builders = []BuilderView{}
	if e.builders != nil {
		v.Builders = make([]BuilderView, 0, len(e.owned))
		for vi := range OwnedIndex(len(e.owned)) {
			v.Builders = append(v.Builders, BuilderView{Vnode: e.owned[vi], Capacity: c.Capacity(), Rows: append([]Row{}, e.builderOf(vi)...)})
		}
	}
	v.Progress = make([]ProgressView, 0, len(e.owned)*btoi(e.progress != nil))
	if e.progress != nil {
		for vi := range OwnedIndex(len(e.owned)) {
			p := e.progress.At(vi)
			v.Progress = append(v.Progress, ProgressView{Vnode: e.owned[vi], State: p.State.String(), Pos: p.Pos, Rows: p.Rows})
		}
	}
	v.StateTable = StateTableView{Rows: []VnodeRow{}, Pending: []PendingRow{}, Epoch: e.state.epoch, DurableEpoch: e.dur.epoch}
	for vi, rows := range e.state.committed.Present() {
		rows.Each(0, func(r Row) bool {
			v.StateTable.Rows = append(v.StateTable.Rows, VnodeRow{e.owned[vi], r})
			return len(v.StateTable.Rows) < maxViewRows
		})
		if len(v.StateTable.Rows) >= maxViewRows {
			break
		}
	}
	for _, w := range e.state.pending {
		op := "-"
		if w.put {
			op = "+"
		}
		v.StateTable.Pending = append(v.StateTable.Pending, PendingRow{op, e.owned[w.vi], w.row})
	}
	v.ProgressTable = ProgressTabView{Columns: e.progressColumns(), Rows: e.progTab.Rows(), Durable: e.dur.progress.Rows(), DurableEpoch: e.dur.epoch}
	v.Downstream = DownstreamView{Rows: e.world.down.firstRows(maxViewRows), DurableEpoch: e.dur.epoch}
	v.OutputsTotal = len(e.outputs)
	v.OutputsFirst = max(0, len(e.outputs)-maxViewOutputs)
	v.Outputs = append([]Output{}, e.outputs[v.OutputsFirst:]...)
	v.RolledBack = append([]Rollback{}, e.narration.rollbacks...)
	for i := len(e.outputs) - 1; i >= 0 && e.outputs[i].Step == e.step && e.step > 0; i-- {
		v.NewOutputs++
	}
}

// NextEpoch is the smallest epoch the next barrier may carry (epochs increase strictly, also
// across a recovery).
func (e *Engine) NextEpoch() int64 { return e.lastEpoch + 1 }

// MessageView is upstream message s, script step step, as the view lists it still to come.
func (e *Engine) MessageView(s Step, step int) MessageView {
	m := MessageView{Step: step, Type: s.Kind.Info().Key}
	if s.Kind.Info().Takes == TakesText {
		m.Message = s.Message
	}
	switch s.Kind {
	case EventBarrier:
		m.Epoch, m.Checkpoint, m.StartBackfill, m.Rescale = s.Barrier.Epoch, s.Barrier.Checkpoint, s.Barrier.StartBackfill, s.Barrier.Rescale
		if s.Barrier.Mutation != MutationNone {
			m.Mutation = s.Barrier.Mutation.String()
		}
		if s.Barrier.Mutation == MutationThrottle {
			t := s.Barrier.Throttle
			m.Throttle = &t
		}
	case EventChunk:
		for _, r := range s.Chunk {
			_, vn := e.vnodeIndex(r.Row)
			m.Rows = append(m.Rows, outRowJSON{Op: r.Op.String(), Values: r.Row, Visible: r.Visible, Vnode: vn})
		}
	case EventWatermark:
		val := s.Watermark.Value
		m.Column, m.Value = e.cfg.Columns[s.Watermark.Column].Name, &val
	}
	return m
}
