package engine

import (
	"fmt"
	"strings"
)

// Op is a row's change operation.
type Op uint8

const (
	OpInsert Op = iota
	OpDelete
	OpUpdateDelete
	OpUpdateInsert
)

func (o Op) String() string {
	switch o {
	case OpDelete:
		return "-"
	case OpUpdateDelete:
		return "U-"
	case OpUpdateInsert:
		return "U+"
	}
	return "+"
}

// IsInsert reports whether the op puts a row (+ or U+).
func (o Op) IsInsert() bool { return o == OpInsert || o == OpUpdateInsert }

// RowOp is one row of a chunk: an op, the row, and its visibility bit.
type RowOp struct {
	Op      Op
	Row     Row
	Visible bool
}

// String renders the row as in a scenario file's chunk, e.g. +(3,102) or (+(3,102)) when invisible.
func (r RowOp) String() string {
	s := r.Op.String() + r.Row.String()
	if !r.Visible {
		return "(" + s + ")"
	}
	return s
}

// Barrier is a barrier message. It carries at most one mutation: the start signal, a rescale,
// or one of the mutations the locality provider ignores (Mutation).
type Barrier struct {
	Epoch         int64
	Checkpoint    bool
	StartBackfill []int64  // StartFragmentBackfill{fragment_ids}, nil when absent
	Rescale       bool     // an Update mutation carrying this actor's new vnode bitmap
	Mutation      Mutation // pause, resume, throttle or stop (ignored by the executor)
	Throttle      int64    // MutationThrottle: the rate limit, 0 to MaxThrottle
}

// Watermark is a watermark message on one column.
type Watermark struct {
	Column int
	Value  Value
}

// Step is one step of a scenario: one event (a snapshot step delivers Count items) and a note.
type Step struct {
	Kind      EventKind
	Barrier   Barrier
	Chunk     []RowOp
	Watermark Watermark
	Message   string // EventError's and EventSnapshotError's message
	Count     int    // EventSnapshot: items to deliver, ≥ 1
	Note      string
	// NoteBy holds the note written for each release, when the file writes it per release
	// (`note: {v3.1: …, v3.0: …}`); Note is then the one for the file's release.
	NoteBy map[string]string
	Pause  bool // presenter mode: autoplay stops after this step
}

// InputError is a step the engine refuses: the scenario (or an injected event) is invalid.
// Row is the index of the offending chunk row, or -1 when the step as a whole is wrong.
type InputError struct {
	Row int
	Msg string
}

func (e *InputError) Error() string {
	if e.Row >= 0 {
		return fmt.Sprintf("row %d: %s", e.Row+1, e.Msg)
	}
	return e.Msg
}

func inputErr(row int, format string, args ...any) *InputError {
	return &InputError{Row: row, Msg: fmt.Sprintf(format, args...)}
}

// chunkString renders a chunk's rows for narration.
func chunkString(rows []RowOp) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = r.String()
	}
	if len(parts) == 0 {
		return "chunk (empty)"
	}
	return "chunk " + strings.Join(parts, " ")
}

// Describe renders a step for people, e.g. "barrier e3 (start signal for fragment 7)".
func (s Step) Describe(cols []Column) string {
	switch s.Kind {
	case EventBarrier:
		d := fmt.Sprintf("barrier e%d", s.Barrier.Epoch)
		var extra []string
		if s.Barrier.StartBackfill != nil {
			extra = append(extra, "start signal for "+fragmentsText(s.Barrier.StartBackfill))
		}
		if s.Barrier.Rescale {
			extra = append(extra, "rescale")
		}
		switch s.Barrier.Mutation {
		case MutationPause, MutationResume, MutationStop:
			extra = append(extra, s.Barrier.Mutation.String())
		case MutationThrottle:
			extra = append(extra, fmt.Sprintf("throttle %d", s.Barrier.Throttle))
		}
		if !s.Barrier.Checkpoint {
			extra = append(extra, "not a checkpoint")
		}
		if len(extra) > 0 {
			d += " (" + strings.Join(extra, ", ") + ")"
		}
		return d
	case EventChunk:
		return chunkString(s.Chunk)
	case EventWatermark:
		return fmt.Sprintf("watermark %s=%s", cols[s.Watermark.Column].Name, s.Watermark.Value)
	case EventSnapshot:
		if s.Count == 1 {
			return "snapshot delivers 1 item"
		}
		return fmt.Sprintf("snapshot delivers %d items", s.Count)
	}
	return s.words(s.Kind.Info().Says)
}

// Label says in words what step s would do now, as an action the view offers.
func (e *Engine) Label(s Step) string {
	switch s.Kind {
	case EventSnapshot:
		if e.SnapshotRemaining() == 0 {
			return s.Describe(e.cfg.Columns)
		}
		if s.Count == 1 {
			return "snapshot delivers " + e.peekSnapshot()
		}
		return fmt.Sprintf("snapshot delivers %d items, starting with %s", s.Count, e.peekSnapshot())
	case EventRecover:
		return e.recoverLabel()
	}
	if l := s.Kind.Info().Label; l != "" {
		return s.words(l)
	}
	return "upstream delivers " + s.Describe(e.cfg.Columns)
}

// peekSnapshot names the snapshot's next item, e.g. "(v0,(3,102))" or "its end".
func (e *Engine) peekSnapshot() string {
	vi, row, ok := e.snap.peek()
	if !ok {
		return "its end"
	}
	return fmt.Sprintf("(v%d,%s)", e.owned[vi], row.Project(e.pk))
}
