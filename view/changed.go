package view

import "github.com/backfill-explainer/explainer/engine"

// Changed says which panels of the view the last step changed (docs/view.md): each flag is
// true exactly when that panel's part of the view differs from the view one step earlier on the
// same script. The engine works it out from a small record of the state before the step (slice
// headers, lengths, counts), never by rendering and comparing views.
type Changed struct {
	Phase           bool `json:"phase"`
	Epoch           bool `json:"epoch"`
	UpstreamNext    bool `json:"upstream_next"`
	UpstreamContent bool `json:"upstream_content"`
	Snapshot        bool `json:"snapshot"`
	Buffer          bool `json:"buffer"`
	Builders        bool `json:"builders"`
	Progress        bool `json:"progress"`
	StateTable      bool `json:"state_table"`
	ProgressTable   bool `json:"progress_table"`
	Outputs         bool `json:"outputs"`
	Downstream      bool `json:"downstream"`
	Invariant       bool `json:"invariant"`
	Narration       bool `json:"narration"`
	Note            bool `json:"note"`
	Fatal           bool `json:"fatal"`
}

// ChangedVnodes names, per panel, the vnodes whose part of it the last step changed, so that
// the page can mark the lane, builder, progress entry or table row itself.
type ChangedVnodes struct {
	Snapshot             []int `json:"snapshot"`
	Builders             []int `json:"builders"`
	Progress             []int `json:"progress"`
	StateTable           []int `json:"state_table"`
	ProgressTable        []int `json:"progress_table"`
	ProgressTableDurable []int `json:"progress_table_durable"`
}

// AddedRows lists the rows the last step added to the upstream's content and to downstream.
type AddedRows struct {
	UpstreamContent []engine.Row `json:"upstream_content"`
	Downstream      []engine.Row `json:"downstream"`
}

// NoChange is what a step changed when nothing was recorded before it (step 0, a jump).
func NoChange() (Changed, ChangedVnodes, AddedRows) {
	return Changed{}, ChangedVnodes{}.nonNil(), AddedRows{}.nonNil()
}

// Before is what a step's view showed before it: the engine's record of its private panels
// (engine.Before) and the read-outs the rest of the view is made of.
type Before struct {
	panels       *engine.Before
	phase        engine.Phase
	epoch        int64
	upEnded      bool
	failure      *engine.Failure
	inv          engine.Invariant
	explanations []engine.Explanation
}

// Record notes what the view's panels show now, before a step is applied to e (Changes compares).
func Record(e *engine.Engine) *Before {
	return &Before{panels: e.Record(), phase: e.Phase(), epoch: e.Epoch(), upEnded: e.UpstreamEnded(),
		failure: e.Failure(), inv: e.Invariant(), explanations: e.Explanations()}
}

// Step is the step count the record was made at.
func (b *Before) Step() int { return b.panels.Step() }

// Changes compares the view's panels now with what b recorded before the step s was applied.
// Only the engine's panels are compared; the note and a branch's queue belong to the script
// (package timeline). Every list is a JSON array.
func Changes(e *engine.Engine, b *Before, s engine.Step) (Changed, ChangedVnodes, AddedRows) {
	p := e.Changes(b.panels, s)
	c := Changed{
		Phase: e.Phase() != b.phase, Epoch: e.Epoch() != b.epoch, Fatal: !sameFailure(e.Failure(), b.failure),
		Outputs: p.Outputs, Invariant: !sameInvariant(e.Invariant(), b.inv),
		Narration: !sameExplanations(e.Explanations(), b.explanations), Buffer: p.Buffer,
		Builders: len(p.Builders) > 0, Progress: len(p.Progress) > 0, Snapshot: p.SnapshotChanged,
		StateTable: p.StateTableChanged, ProgressTable: p.ProgressTableChanged,
		UpstreamContent: p.UpstreamChanged, Downstream: p.DownstreamChanged,
		UpstreamNext: s.Kind.IsUpstream() || e.UpstreamEnded() != b.upEnded,
	}
	cv := ChangedVnodes{Snapshot: p.Snapshot, Builders: p.Builders, Progress: p.Progress, StateTable: p.StateTable,
		ProgressTable: p.ProgressTable, ProgressTableDurable: p.ProgressTableDurable}
	return c, cv.nonNil(), AddedRows{UpstreamContent: p.UpstreamAdded, Downstream: p.DownstreamAdded}.nonNil()
}

func sameFailure(a, b *engine.Failure) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameInvariant(a, b engine.Invariant) bool {
	return a.Status == b.Status && a.Step == b.Step && a.Epoch == b.Epoch && a.Text == b.Text &&
		sameRowList(a.Missing, b.Missing) && sameRowList(a.Extra, b.Extra)
}

// sameRowList and sameExplanations are loops rather than slices.EqualFunc and slices.Equal,
// whose generic instances cost the wasm more.
func sameRowList(a, b []engine.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func sameExplanations(a, b []engine.Explanation) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// nonNil makes every list a JSON array.
func (cv ChangedVnodes) nonNil() ChangedVnodes {
	for _, l := range []*[]int{&cv.Snapshot, &cv.Builders, &cv.Progress, &cv.StateTable, &cv.ProgressTable, &cv.ProgressTableDurable} {
		if *l == nil {
			*l = []int{}
		}
	}
	return cv
}

func (a AddedRows) nonNil() AddedRows {
	if a.UpstreamContent == nil {
		a.UpstreamContent = []engine.Row{}
	}
	if a.Downstream == nil {
		a.Downstream = []engine.Row{}
	}
	return a
}
