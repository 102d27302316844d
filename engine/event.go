package engine

import "fmt"

// EventKind says what happens in one step.
type EventKind uint8

const (
	EventBarrier       EventKind = iota // the upstream delivers a barrier
	EventChunk                          // the upstream delivers a chunk
	EventWatermark                      // the upstream delivers a watermark
	EventEnd                            // the upstream stream ends
	EventError                          // the upstream yields an error
	EventSnapshot                       // the upstream is pending and the snapshot delivers items
	EventRecover                        // the job recovers from the last checkpoint
	EventSnapshotError                  // the upstream is pending and reading the snapshot fails
)

// Takes is what a step's key takes as its value in a scenario file.
type Takes uint8

const (
	TakesNone      Takes = iota // nothing: `end`
	TakesText                   // a message (Step.Message): `error: upstream actor panicked`
	TakesCount                  // a count of items (Step.Count): `snapshot: 2`
	TakesBarrier                // an epoch or a mapping (Step.Barrier)
	TakesRows                   // a list of rows (Step.Chunk)
	TakesWatermark              // {column, value} (Step.Watermark)
)

// EventInfo is one kind of step, declared once: everything but its behaviour (the phases' code)
// reads it from here — the scenario parser and formatter, the narration's words, the view's
// message type, the next step's kind, the page's pill (the legend's "message.KEY") and the
// glossary entry that defines it.
type EventInfo struct {
	Kind    EventKind
	Key     string // its key in a scenario file, and its message's type in the view
	By      string // who makes it happen: "upstream", "snapshot" or "recover" (a next step's kind)
	Takes   Takes
	Example string // a step of this kind with a value, for an error message
	Says    string // the step in words (Describe); a %q takes its message (TakesText)
	Label   string // what it does as a next step; a %q takes its message (TakesText)
	Pill    string // the page's pill for it as an upstream message ("" when it is none)
	Term    string // the glossary entry that defines it (glossary/)
}

// Events lists every kind of step, in the order error messages list them. The kinds whose
// words depend on the step (a barrier's mutation, a chunk's rows) leave Says and Label empty.
var Events = []EventInfo{
	{Kind: EventBarrier, Key: "barrier", By: "upstream", Takes: TakesBarrier, Example: "barrier: 1", Pill: "barrier", Term: "barrier"},
	{Kind: EventChunk, Key: "chunk", By: "upstream", Takes: TakesRows, Example: `chunk: ["+ 1 100"]`, Pill: "chunk", Term: "chunk"},
	{Kind: EventWatermark, Key: "watermark", By: "upstream", Takes: TakesWatermark, Example: "watermark: {column: a, value: 5}", Pill: "watermark", Term: "watermark"},
	{Kind: EventSnapshot, Key: "snapshot", By: "snapshot", Takes: TakesCount, Example: "snapshot: 1", Term: "snapshot"},
	{Kind: EventSnapshotError, Key: "snapshot_error", By: "snapshot", Takes: TakesText, Example: "snapshot_error: storage read timed out",
		Says: "snapshot error %q", Label: "reading the snapshot fails: %q", Term: "snapshot"},
	{Kind: EventEnd, Key: "end", By: "upstream", Takes: TakesNone, Says: "upstream end", Label: "the upstream ends", Pill: "■ end of stream", Term: "upstream"},
	{Kind: EventError, Key: "error", By: "upstream", Takes: TakesText, Example: "error: upstream actor panicked",
		Says: "upstream error %q", Label: "the upstream fails: %q", Pill: "⚠ error", Term: "upstream"},
	{Kind: EventRecover, Key: "recover", By: "recover", Takes: TakesNone, Says: "recover", Term: "recovery"},
}

// Info is the kind's entry in Events (a zero entry for a kind not there).
func (k EventKind) Info() *EventInfo {
	for i := range Events {
		if Events[i].Kind == k {
			return &Events[i]
		}
	}
	return &EventInfo{}
}

// IsUpstream reports whether the event is something the upstream delivers.
func (k EventKind) IsUpstream() bool { return k.Info().By == "upstream" }

// words fills a template of Says or Label with the step's message, when it takes one.
func (s Step) words(template string) string {
	if s.Kind.Info().Takes == TakesText {
		return fmt.Sprintf(template, s.Message)
	}
	return template
}
