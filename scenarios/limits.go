package scenarios

// Limits of a scenario file (docs/scenario-format.md §1). Each is reported with a clear error.
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
)

// limits are the values the parser enforces; tests lower them to exercise the errors.
var limits = struct{ bytes, steps, rows int }{MaxBytes, MaxSteps, MaxRows}
