package engine

import (
	"fmt"

	"github.com/backfill-explainer/explainer/internal/quote"
)

// Bug is a deliberate deviation from the protocol, to show why each step of it is there. Off
// by default; a scenario, the command line or the page turns one on.
type Bug uint8

const (
	BugNone Bug = iota
	// BugNoStateWrite: upstream chunks are not written to the state table at backfill barriers:
	// today's executor without the write that RisingWave PR #23838 (commit 75c4201d9ab) added.
	// Hidden inserts and updates never reach downstream, and hidden deletes come back.
	BugNoStateWrite
	// BugMarkBeforeDrain: buffered chunks are marked before the builders are drained, against
	// positions that lag behind the rows the snapshot has delivered.
	BugMarkBeforeDrain
	// BugMarkOnArrival: upstream rows are marked when they arrive instead of at the barrier.
	BugMarkOnArrival
	// BugEmitBeyondPos: rows past an in-progress vnode's position are emitted instead of hidden.
	BugEmitBeyondPos
)

// BugInfo describes a bug mode for people.
type BugInfo struct {
	Bug      Bug    `json:"-"`
	Name     string `json:"name"`
	Summary  string `json:"summary"`
	Why      string `json:"why"`   // what the real code does instead, and why
	Lines    [2]int `json:"lines"` // the lines of locality_provider.rs that do it right
	URL      string `json:"url"`
	Fix      string `json:"fix,omitempty"`     // a link to the real fix, where there is one
	History  string `json:"history,omitempty"` // how the mode relates to RisingWave's history, where it does
	Scenario string `json:"scenario"`          // the built-in scenario that shows it best
	Release  string `json:"release"`           // the release whose lines Lines and URL cite
	cause    *Site  // the narration site of "caused this" at the violation
}

// Bugs lists the bug modes.
var Bugs = []BugInfo{
	{Bug: BugNoStateWrite, Name: "no-state-write",
		Summary: "buffered upstream chunks are not written to the state table at backfill barriers",
		Why:     "A hidden row (past its vnode's pos, or in a vnode not started) reaches downstream only through the refreshed snapshot, which reads the state table. RisingWave writes every buffered chunk there at the barrier. Without that write a hidden insert or update never reaches downstream, and a hidden delete comes back, because the snapshot still reads the old row.",
		History: "This mode is today's executor without the state-table write that RisingWave PR #23838 (commit 75c4201d9ab) added; that PR fixed exactly this loss. The executor before the PR differed in other ways too: it rebuilt the snapshot at every barrier, and had neither the upstream-ended error nor the rescale checks, which came later.",
		Lines:   [2]int{684, 686}, Fix: "https://github.com/risingwavelabs/risingwave/pull/23838",
		Scenario: "bug-no-state-write", cause: siteCauseNoWrite},
	{Bug: BugMarkBeforeDrain, Name: "mark-before-drain",
		Summary: "buffered chunks are marked before the builders are drained",
		Why:     "Rows waiting in a builder have been read by the snapshot, but the vnode's pos moves only when the builder is emitted. Marking first uses that lagging pos: a change to a key between the old pos and the builder's last row is hidden, the drain then moves pos past it, and the refreshed snapshot starts after the new pos, so that change is never emitted. RisingWave drains every builder first, then marks.",
		Lines:   [2]int{658, 682}, Scenario: "bug-mark-before-drain", cause: siteCauseMarkFirst},
	{Bug: BugMarkOnArrival, Name: "mark-on-arrival",
		Summary: "upstream rows are marked when they arrive instead of at the barrier",
		Why:     "Between a chunk's arrival and the barrier the snapshot keeps reading, so positions move on. A row hidden on arrival may be passed by the snapshot before the barrier; the refreshed snapshot starts after the new pos and never emits it. RisingWave marks at the barrier, after the drain, against end-of-epoch positions.",
		Lines:   LinesMarkWhen, Scenario: "bug-mark-on-arrival", cause: siteCauseMarkArrive},
	{Bug: BugEmitBeyondPos, Name: "emit-beyond-pos",
		Summary: "rows past an in-progress vnode's pos are emitted instead of hidden",
		Why:     "A row past pos is in the state table (the chunk is written there), so the refreshed snapshot will emit it. Emitting it now as well sends it downstream twice; a delete or update past pos removes or replaces a row downstream never had. RisingWave hides such rows.",
		Lines:   [2]int{391, 394}, Scenario: "bug-emit-beyond-pos", cause: siteCauseEmitBeyond},
}

func init() {
	for i := range Bugs {
		Bugs[i].URL = FileURL(FileLocalityProvider, Bugs[i].Lines)
		Bugs[i].Release = DefaultRelease.Name
	}
}

// ParseBug reads a bug mode's name ("" or "none" is no bug).
func ParseBug(name string) (Bug, error) {
	if name == "" || name == "none" {
		return BugNone, nil
	}
	for _, b := range Bugs {
		if b.Name == name {
			return b.Bug, nil
		}
	}
	names := ""
	for i, b := range Bugs {
		if i > 0 {
			names += ", "
		}
		names += b.Name
	}
	return BugNone, fmt.Errorf("unknown bug mode %s (one of: %s)", quote.Q(name), names)
}

func (b Bug) String() string {
	for _, i := range Bugs {
		if i.Bug == b {
			return i.Name
		}
	}
	return "none"
}

// Info returns the bug mode's description (nil for BugNone).
func (b Bug) Info() *BugInfo {
	for i := range Bugs {
		if Bugs[i].Bug == b {
			return &Bugs[i]
		}
	}
	return nil
}

func bugName(b Bug) string {
	if b == BugNone {
		return ""
	}
	return b.String()
}

// explainBug narrates what a bug mode does differently at this point; the site cites what
// RisingWave does instead.
func (e *Engine) explainBug(site *Site, format string, args ...any) {
	e.explain(site, "[bug mode %s] "+format, append([]any{e.cfg.Bug.String()}, args...)...)
}
