// Package view is what a person sees at a step, as the page renders it (docs/view.md): View,
// made in its final shape from an engine (Fill) and completed by the timeline with what the
// script knows. The panels only the engine can make (the snapshot's lanes) it makes; this
// package makes the others from its read-outs (the actor, the buffer, the messages to come,
// the state table's rows, what changed) and puts them together.
package view

import (
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
)

// View is everything a person should see at a step (docs/view.md). It is JSON-ready.
type View struct {
	Title         string               `json:"title"`
	Summary       string               `json:"summary"`
	Step          int                  `json:"step"`
	Steps         int                  `json:"steps"`
	Phase         string               `json:"phase"`
	Epoch         int64                `json:"epoch"`
	Config        ConfigView           `json:"config"`
	Upstream      UpstreamView         `json:"upstream"`
	Snapshot      *engine.SnapshotView `json:"snapshot"`
	Buffer        []BufferView         `json:"buffer"`
	Builders      []BuilderView        `json:"builders"`
	Progress      []ProgressView       `json:"progress"`
	StateTable    StateTableView       `json:"state_table"`
	ProgressTable ProgressTabView      `json:"progress_table"`
	Downstream    DownstreamView       `json:"downstream"`
	Invariant     engine.Invariant     `json:"invariant"`
	Outputs       []engine.Output      `json:"outputs"`
	OutputsTotal  int                  `json:"outputs_total"`
	OutputsFirst  int                  `json:"outputs_first"`
	NewOutputs    int                  `json:"new_outputs"`
	RolledBack    []engine.Rollback    `json:"rolled_back"` // the outputs each recovery rolled back`
	Explanations  []engine.Explanation `json:"explanations"`
	Note          string               `json:"note"`
	NoteCaveat    string               `json:"note_caveat"` // "" or the caveat `note` begins with: the note was written for another run`
	Pause         bool                 `json:"pause"`       // the step just applied asks autoplay to stop (presenter mode)
	NextNote      string               `json:"next_note"`   // the note of the next scripted step (package timeline), or ""
	Error         *engine.Failure      `json:"error"`
	Failure       *failure.FailureView `json:"failure"` // the failure's explanation (package failure), or null
	Actor         ActorView            `json:"actor"`   // the actor around the executor (actor.go)
	Actions       []Action             `json:"actions"`
	Marks         []engine.Mark        `json:"marks"`
	Bug           *engine.BugInfo      `json:"bug"`      // the bug mode on, or null
	Branched      bool                 `json:"branched"` // the run left its scenario's script (export() replays it)
	Name          *string              `json:"name"`     // the built-in scenario's name, or null for loaded text
	Revision      int64                `json:"revision"` // changes whenever the script changes (a branch, a bug mode, a load)
	Predict       *Prediction          `json:"predict"`  // the next barrier that marks the buffer, or null
	Changed       Changed              `json:"changed"`  // which panels the last step changed
	ChangedVnodes ChangedVnodes        `json:"changed_vnodes"`
	AddedRows     AddedRows            `json:"added_rows"`
	Release       string               `json:"release"`    // the release the run plays (engine/release.go)
	Releases      []ReleaseInfo        `json:"releases"`   // every release, for a picker
	NewerMain     string               `json:"newer_main"` // what newer main does that no release here models
	CodeMap       []CodeLine           `json:"code_map"`   // the executor's code map under the release (package codemap)
	CodeLit       []string             `json:"code_lit"`   // the code-map lines this step's explanations came from
	Create        string               `json:"create"`     // foreground or background: how the job was created (engine/create.go)
	Dropped       *failure.FailureData `json:"dropped"`    // the recovery dropped the job: what that does to the data, or null
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
	Content []engine.Row  `json:"content"`
}

// BuilderView is one vnode's chunk builder.
type BuilderView struct {
	Vnode    int          `json:"vnode"`
	Capacity int          `json:"capacity"`
	Rows     []engine.Row `json:"rows"`
}

// ProgressView is one vnode's progress.
type ProgressView struct {
	Vnode int        `json:"vnode"`
	State string     `json:"state"`
	Pos   engine.Row `json:"pos"`
	Rows  int64      `json:"rows"`
}

// StateTableView is the state table, committed and pending.
type StateTableView struct {
	Rows         []VnodeRow   `json:"rows"`
	Pending      []PendingRow `json:"pending"`
	Epoch        int64        `json:"epoch"`
	DurableEpoch int64        `json:"durable_epoch"`
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

// DownstreamView is downstream's view.
type DownstreamView struct {
	Rows         []engine.Row `json:"rows"`
	DurableEpoch int64        `json:"durable_epoch"`
}

// Prediction is what the next scripted barrier that marks the upstream buffer will do with each
// buffered row (docs/view.md `predict`), worked out by running a copy of the engine to it: the
// real run is untouched. It is the answer predict mode checks a learner's guesses against.
type Prediction struct {
	Step  int          `json:"step"`  // the script step (1-based) of that barrier
	Epoch int64        `json:"epoch"` // the barrier's epoch
	Next  bool         `json:"next"`  // it is the next scripted step
	Held  bool         `json:"held"`  // no vnode is in progress then: no buffered chunk is emitted
	Rows  []PredictRow `json:"rows"`  // every row buffered when it comes, in buffer order
}

// PredictRow is one buffered row and what the barrier does with it.
type PredictRow struct {
	ArrivedStep int        `json:"arrived_step"` // the step that delivered its chunk
	Op          string     `json:"op"`
	Values      engine.Row `json:"values"`
	Vnode       int        `json:"vnode"`
	Visible     bool       `json:"visible"` // emitted visible at that barrier (false: hidden or held back)
	Why         string     `json:"why"`
}
