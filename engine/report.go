package engine

// ReportKind is which call of RisingWave's progress reporter a report is.
type ReportKind string

const (
	// ReportUpdate is update_with_buffered_rows: at every barrier of the backfill, how many
	// snapshot rows the executor has processed (LP:697-713).
	ReportUpdate ReportKind = "update"
	// ReportFinish is finish_with_buffered_rows: the backfill has finished, at the completion
	// barrier (LP:758-778) or, for an executor that started with every vnode Completed, at the
	// first barrier it forwards (LP:460, 817-825).
	ReportFinish ReportKind = "finish"
)

// ProgressReport is what the executor told the meta service at a barrier. Rows is the sum of
// every vnode's processed snapshot rows.
type ProgressReport struct {
	Step  int        `json:"step"`
	Epoch int64      `json:"epoch"`
	Kind  ReportKind `json:"kind"`
	Rows  int64      `json:"rows"`
	// Buffered is the report's buffered rows: v2.7 the rows buffered before the start signal;
	// later releases 0, and the snapshot rows at the finish.
	Buffered int64 `json:"buffered"`
}

// Reports returns every progress report the executor made so far, in order (read-only).
// Recovery does not undo them: the meta service has already received them.
func (e *Engine) Reports() []ProgressReport { return e.reports }

func (e *Engine) report(kind ReportKind, epoch, rows int64) {
	e.reportWith(kind, epoch, rows, e.bufferedInReport(kind, rows))
}

func (e *Engine) reportWith(kind ReportKind, epoch, rows, buffered int64) {
	e.reports = append(e.reports, ProgressReport{Step: e.step, Epoch: epoch, Kind: kind, Rows: rows, Buffered: buffered})
}

// processedRows is what a report carries: the rows of every vnode's progress.
func (e *Engine) processedRows() int64 { return e.tally.progRows }
