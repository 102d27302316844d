package scenarios

// Limits of a scenario file (docs/scenario-format.md). Each is reported with a clear error.
const (
	MaxBytes = 1 << 20   // text of a scenario file (or of one step for ParseStep)
	MaxSteps = 100_000   // entries of `steps`
	MaxRows  = 1_000_000 // chunk rows + start.state_table rows, in all
	// MaxChunkSize bounds chunk_size: a builder larger than the row limit could never fill, and
	// the engine may allocate a builder of this capacity.
	MaxChunkSize = MaxRows
	MaxVnodes    = 32768 // vnodes.count is 1..MaxVnodes
	// MaxID bounds fragment and actor ids (RisingWave stores them as u32).
	MaxID = 1<<32 - 1
	// MaxWork bounds what running a scenario may cost, in the engine's units of work (a step,
	// a chunk row, a snapshot item delivered, a vnode completed, a row checked again; see
	// engine.Engine.Work): a file within the other limits can ask for far more, by reading the
	// same rows again after each of many recoveries. One pass over a million rows, with a
	// million changes, is well within it.
	MaxWork = 5_000_000
	// Texts the page draws at every step: a title (a scenario's, a lesson's, a section's), any
	// other free text (summary, note, error message, a lesson's notes and questions), and a
	// string value. A 900 KB title made every step take half a second.
	MaxTitleChars = 200
	MaxTextChars  = 10_000
	MaxValueChars = 1_000
)

// limits are the values the parser enforces (a session keeps its own copy: session/limits.go);
// tests lower them to exercise the errors.
var limits = struct{ bytes, steps, rows, work int }{MaxBytes, MaxSteps, MaxRows, MaxWork}
