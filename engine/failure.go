package engine

import (
	"fmt"
)

// FailureKind names one way the executor can stop with an error or a panic.
type FailureKind string

const (
	FailUpstreamEnded          FailureKind = "upstream-ended"                 // the upstream ends while backfilling
	FailUpstreamEndedBuffering FailureKind = "upstream-ended-while-buffering" // the upstream ends while buffering
	FailStreamClosed           FailureKind = "stream-closed"                  // the upstream ends before its first message
	FailFirstNotBarrier        FailureKind = "first-message-not-barrier"      // a chunk or watermark comes first (panic)
	FailFirstNotCheckpoint     FailureKind = "first-barrier-not-checkpoint"   // the first barrier is not a checkpoint (panic)
	FailRescale                FailureKind = "rescale"                        // a barrier carries a new vnode bitmap
	FailUpstreamError          FailureKind = "upstream-error"                 // the upstream yields an error
	FailSnapshotError          FailureKind = "snapshot-error"                 // reading the snapshot fails
)

// Files of RisingWave cited by the explanations, at SourceCommit.
const (
	FileLocalityProvider = "src/stream/src/executor/locality_provider.rs"
	FileExecutorMod      = "src/stream/src/executor/mod.rs"
	FileActor            = "src/stream/src/executor/actor.rs"
	FileMerge            = "src/stream/src/executor/merge.rs"
	FileExchangeInput    = "src/stream/src/executor/exchange/input.rs"
)

// FileURL links a range of lines of a RisingWave file at SourceCommit.
func FileURL(file string, lines [2]int) string {
	return fmt.Sprintf("https://github.com/risingwavelabs/risingwave/blob/%s/%s#L%d-L%d", SourceCommit, file, lines[0], lines[1])
}

// Citation is a sentence the cited lines prove, with where they are.
type Citation struct {
	Text  string `json:"text"`
	File  string `json:"file"`
	Lines [2]int `json:"lines"`
	URL   string `json:"url"`
}

// cite makes a citation of lines of a RisingWave file at SourceCommit. It stays out of line: see
// newSite (cite.go).
//
//go:noinline
func cite(file string, lines [2]int, text string) Citation {
	return Citation{Text: text, File: file, Lines: lines, URL: FileURL(file, lines)}
}

// Panics reports whether a failure of this kind is a panic (the first message's checks), not an
// error.
func (k FailureKind) Panics() bool { return k == FailFirstNotBarrier || k == FailFirstNotCheckpoint }

// LeftBehind is what the executor held or had done when it failed.
type LeftBehind struct {
	Phase         Phase // the phase it failed in
	BuilderRows   int
	BuilderVnodes []int
	BufferChunks  int
	BufferRows    int
	Pending       int // uncommitted state-table writes
	EmittedAtStep int // chunks emitted by the failing step before the failure
	SinceCkpt     int // outputs since the last checkpoint barrier (recovery rolls them back)
	CkptEpoch     int64
	ProgressMoved bool // some vnode's progress differs from the durable progress table
	FirstMessage  bool // it failed on its first message: nothing was loaded
}

// FailureKind is the kind of the failure that stopped the executor ("" when none).
func (e *Engine) FailureKind() FailureKind { return e.narration.failKind }

// LeftBehind is what the failure that stopped the executor left behind.
func (e *Engine) LeftBehind() LeftBehind { return e.narration.failLeft }

// captureLeftBehind records what a failure leaves behind, before the phase changes.
func (e *Engine) captureLeftBehind() LeftBehind {
	l := LeftBehind{Phase: e.phase, Pending: len(e.state.pending), CkptEpoch: e.dur.epoch, FirstMessage: e.phase == PhaseStarting}
	e.nonEmptyBuilders(func(vi OwnedIndex, b builder) {
		l.BuilderRows += b.len()
		l.BuilderVnodes = append(l.BuilderVnodes, e.owned[vi])
	})
	for _, c := range e.buffer {
		l.BufferChunks++
		l.BufferRows += len(c.rows)
	}
	for i := len(e.outputs) - 1; i >= 0 && e.outputs[i].Step == e.step; i-- {
		if e.outputs[i].Type == OutChunk {
			l.EmittedAtStep++
		}
	}
	l.SinceCkpt = len(e.outputs) - e.dur.outputs
	l.ProgressMoved = e.tally.progMoved // the progress changed since a checkpoint made it durable
	return l
}
