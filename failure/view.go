package failure

import "github.com/backfill-explainer/explainer/engine"

// FailureData says in plain words what a failure does to the data (docs/view.md): whether a
// row is lost, what is discarded or rolled back until the recovery, and what the recovery
// replays. Every sentence follows the recovery rules (engine/recovery.go, docs/protocol.md#recovery).
type FailureData struct {
	// Lost: a row is missing downstream for good after the recovery. Never in RisingWave's code
	// (the recovery replays what was discarded); under a bug mode the invariant says.
	Lost bool `json:"lost"`
	// Dropped: the recovery drops the job (a creating foreground job, engine/create.go): the view is
	// gone and the CREATE must be run again.
	Dropped bool `json:"dropped"`
	// Reason is why a recovery drops the job, in a few words for a header: "no checkpoint yet"
	// (every create type) or "created in the foreground"; "" when the job is kept.
	Reason   string `json:"reason,omitempty"`
	Headline string `json:"headline"` // the answer first: the job kept or dropped and why, the rows, the cost
	// Short is Headline without its reason: the headline's words in order with the why left
	// out; the verdict on the job, the rows, the cost (and a panic's first sentence) stay.
	Short string `json:"short"`
	Until string `json:"until"` // what is discarded or rolled back until the recovery
	After string `json:"after"` // what the recovery replays, and where the executor resumes
}

// FailureView is the view's explanation of the failure that stopped the executor (docs/view.md).
type FailureView struct {
	Kind       engine.FailureKind `json:"kind"`
	Message    string             `json:"message"`
	Panic      bool               `json:"panic"`
	Step       int                `json:"step"`
	Meaning    string             `json:"meaning"`
	Proven     []engine.Citation  `json:"proven"`
	Inferred   []string           `json:"inferred"`
	LeftBehind string             `json:"left_behind"`
	Recovery   string             `json:"recovery"`
	// Where it failed (buffering for an end that came while buffering), in words, and under
	// which release; what it does to the data (data.go).
	Phase      string      `json:"phase"`
	PhaseLabel string      `json:"phase_label"`
	Release    string      `json:"release"`
	Data       FailureData `json:"data"`
	// What to check, in order, for this message at this release: the diagnosis's advice, which
	// the layer above the engine attaches (session.View); nil when the diagnosis has none.
	Checks     []string `json:"checks"`
	ChecksFrom string   `json:"checks_from"` // whose advice it is, in a few words
}
