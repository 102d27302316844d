package engine

// Trace is the trace contract of `backfill run --json` (scenario-format.md §2), plus `step`.
type Trace struct {
	Title         string   `json:"title"`
	Outputs       []Output `json:"outputs"`
	Error         *Failure `json:"error"`
	Phase         string   `json:"phase"`
	ProgressTable [][]any  `json:"progress_table"`
	Downstream    []Row    `json:"downstream"`
	Step          int      `json:"step"`
	Bug           string   `json:"bug,omitempty"`
	Release       string   `json:"release,omitempty"` // a release other than DefaultRelease
	Create        string   `json:"create,omitempty"`  // background (foreground, the default, is left out)
}

// Trace returns the contract's view of the engine now.
func (e *Engine) Trace() Trace {
	down := e.world.down.sorted()
	outs := e.outputs
	if outs == nil {
		outs = []Output{}
	}
	return Trace{
		Title:         e.cfg.Title,
		Outputs:       outs,
		Error:         e.failure,
		Phase:         e.phase.String(),
		ProgressTable: e.dur.progress.Rows(),
		Downstream:    down,
		Step:          e.step,
		Bug:           bugName(e.cfg.Bug),
		Release:       e.traceRelease(),
		Create:        e.createName(),
	}
}
