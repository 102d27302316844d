package engine

import (
	"fmt"
	"path"
)

// SourceCommit is the RisingWave commit the model was read off.
const SourceCommit = "448c6570b1b9d636736708340f61a85900c2b7d7"

// Line ranges of locality_provider.rs at SourceCommit that more than one place cites (the rest
// are in the narration sites, engine/cite.go). Each is checked against the source by a test.
var (
	LinesProgressStates  = [2]int{40, 150}
	LinesSnapshotStream  = [2]int{220, 266}
	LinesPersist         = [2]int{268, 312}
	LinesLoad            = [2]int{314, 368}
	LinesMarking         = [2]int{370, 403}
	LinesSnapshotChunk   = [2]int{405, 425}
	LinesFirstBarrier    = [2]int{437, 465}
	LinesBuffering       = [2]int{466, 518}
	LinesBackfillLoop    = [2]int{546, 656}
	LinesFatalEnd        = [2]int{599, 604}
	LinesBackfillBarrier = [2]int{657, 735}
	LinesMarkWhen        = [2]int{672, 682}
	LinesCompletion      = [2]int{741, 799}
	LinesForwarding      = [2]int{801, 833}
)

// Why a sentence cites no lines.
const (
	UncitedOurs    = "ours"    // the explainer's own check or decision, not RisingWave's
	UncitedOutside = "outside" // RisingWave does it outside locality_provider.rs (e.g. recovery)
)

// Explanation is one thing that happened in a step, in plain words, with the source lines that do it.
// A sentence about something the explainer does itself (its invariant, adapting a script to a
// bug mode) or that RisingWave does outside the cited files cites nothing: then Lines is [0, 0],
// File and URL are empty, and Uncited says why.
type Explanation struct {
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	Lines   [2]int `json:"lines"`
	URL     string `json:"url"`
	File    string `json:"file,omitempty"`    // the RisingWave file the lines are in
	Uncited string `json:"uncited,omitempty"` // "ours" or "outside" when nothing is cited
	Fix     string `json:"fix,omitempty"`     // a link to the real fix, for a bug mode's explanation
	Site    string `json:"-"`                 // the narration site that said it (engine/cite.go)
}

// shortFile names a RisingWave file as a reader knows it: locality_provider.rs, executor/mod.rs,
// exchange/input.rs (a name too common alone keeps its folder).
func shortFile(file string) string {
	if m, ok := metaFile(file); ok {
		return m
	}
	if b := path.Base(file); b == "mod.rs" || b == "input.rs" || b == "error.rs" {
		return path.Base(path.Dir(file)) + "/" + b
	}
	return path.Base(file)
}

// explain records an explanation of the current step, as the site says it.
func (e *Engine) explain(s *Site, format string, args ...any) {
	if !e.narration.on {
		return
	}
	ex := Explanation{Kind: s.Kind, Text: fmt.Sprintf(format, args...), Lines: s.Lines, File: s.File, Uncited: s.Uncited, Site: s.ID}
	if s.File != "" {
		ex.Lines, ex.URL = e.siteLines(s)
	}
	e.narration.explanations = append(e.narration.explanations, ex)
}

// Plural renders "1 row" / "2 rows".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// narration is what the engine keeps only to explain a step: the explanations, the timeline's
// marks, what a failure left behind.
type narration struct {
	on           bool          // explain (off for benchmarks and exploration)
	explanations []Explanation // the last step's
	quietRow     bool          // narration of this snapshot row is folded into a summary
	quietRows    int           // snapshot rows folded so far in this step
	// heldFates: for each row the last barrier held back (no vnode in progress), in buffer
	// order, what becomes of it (predict mode reads them)
	heldFates []string
	marks     []Mark // the timeline's marks (barriers, ends, errors, recoveries, a broken invariant)
	// skipped: the last step was a script step that could not happen in this run (Play)
	skipped bool
	// rollbacks: the outputs each recovery rolled back
	rollbacks []Rollback
	failKind  FailureKind // what kind of failure stopped the executor (the failure table's key)
	failLeft  LeftBehind  // what the failure left behind
}
