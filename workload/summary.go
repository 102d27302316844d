package workload

import (
	"math"

	"github.com/backfill-explainer/explainer/engine"
)

// ScaleSummary is what a workload's run shows (docs/scenario-format.md, "The scale summary"):
// totals, one series entry per barrier the executor emitted, and each vnode's progress.
type ScaleSummary struct {
	Title          string        `json:"title"`
	Phase          string        `json:"phase"`
	Error          *ScaleFailure `json:"error"` // the failure the run ends in, or null
	Epochs         int           `json:"epochs"`
	Rows           int           `json:"rows"`
	DownstreamRows int           `json:"downstream_rows"`
	Invariant      string        `json:"invariant"` // holds: at every barrier; violated: at some barrier
	Series         ScaleSeries   `json:"series"`
	Progress       [][]float64   `json:"progress"` // progress[v][k], see ProgressBarriers

	// ProgressBarriers says which barriers progress's columns are: progress[v][j] is vnode v's
	// fraction at series entry ProgressBarriers[j]. Every barrier while there are at most
	// ProgressColumns(vnodes) of them (then progress[v][k] is the k-th barrier); otherwise every
	// s-th one (s the smallest power of two that fits), and always the last (in the place of
	// the s-th before it when the columns are full).
	ProgressBarriers []int           `json:"progress_barriers"`
	Recoveries       []ScaleRecovery `json:"recoveries"`
	Violation        *ScaleViolation `json:"violation"` // the first barrier the invariant failed at, or null
	Totals           ScaleTotals     `json:"totals"`
	Vnodes           int             `json:"vnodes"` // vnodes.count: progress has one entry per vnode
	Owned            int             `json:"owned"`  // vnodes this actor owns (others' progress entries are null)
	Workload         Workload        `json:"workload"`
	Bug              string          `json:"bug,omitempty"`
}

// ScaleSeries has one entry per barrier the executor emitted, in order, in parallel arrays.
type ScaleSeries struct {
	Epoch            []int64  `json:"epoch"`
	Phase            []string `json:"phase"`              // the executor's phase once it processed the barrier
	BufferedRows     []int    `json:"buffered_rows"`      // rows in the upstream buffer when the barrier arrived
	SnapshotRows     []int    `json:"snapshot_rows"`      // snapshot rows emitted in the epoch the barrier closes
	UpstreamVisible  []int    `json:"upstream_visible"`   // upstream rows emitted visible in that epoch
	UpstreamHidden   []int    `json:"upstream_hidden"`    // upstream rows emitted hidden in that epoch
	VnodesCompleted  []int    `json:"vnodes_completed"`   // once the barrier was processed
	VnodesInProgress []int    `json:"vnodes_in_progress"` // once the barrier was processed
}

// ScaleFailure is a failure of the executor in scale mode.
type ScaleFailure struct {
	Message string `json:"message"`
	Panic   bool   `json:"panic"`
	Epoch   int64  `json:"epoch"` // the epoch whose barrier the failure replaced
}

// ScaleRecovery is a fault and the recovery after it.
type ScaleRecovery struct {
	Barrier int    `json:"barrier"` // series entries before it: it came between series[barrier-1] and series[barrier]
	Epoch   int64  `json:"epoch"`   // the barrier's epoch the fault came instead of
	Kind    string `json:"kind"`    // end | error | recover
	During  string `json:"during"`  // the executor's phase when the fault came
	// Outcome is the phase the fault left the executor in: failed, ended (an end or error during
	// completion or an end while forwarding stops the stream without an error), or the phase
	// it was in (kind recover).
	Outcome      string        `json:"outcome"`
	Error        *ScaleFailure `json:"error"`          // the failure, or null
	RolledBackTo int64         `json:"rolled_back_to"` // the checkpoint epoch the recovery returned to
	// Dropped: the recovery dropped the job (engine/create.go: one before its first checkpoint,
	// or a creating foreground one): the run ends there, and nothing is read again.
	Dropped bool `json:"dropped"`
	// DropReason and DropText: the engine's few words on why it was dropped and its short
	// headline (the job, the rows, the cost); "" unless dropped.
	DropReason string `json:"drop_reason,omitempty"`
	DropText   string `json:"drop_text,omitempty"`
	// What the recovery threw away: rows still in memory (the upstream buffer, the builders)
	// and rows emitted since the checkpoint (downstream rolls back too).
	LostBufferedRows int `json:"lost_buffered_rows"`
	LostBuilderRows  int `json:"lost_builder_rows"`
	LostEmittedRows  int `json:"lost_emitted_rows"`
}

// ScaleViolation is the first barrier at which the invariant failed.
type ScaleViolation struct {
	Barrier int    `json:"barrier"` // its series index
	Epoch   int64  `json:"epoch"`
	Missing int    `json:"missing"` // rows downstream lacks
	Extra   int    `json:"extra"`   // rows downstream holds too often
	Text    string `json:"text"`    // the invariant's explanation (naming the first rows)
}

// ScaleTotals sums the run up.
type ScaleTotals struct {
	Inserted        int `json:"inserted"` // upstream changes delivered, recoveries' replays included
	Updated         int `json:"updated"`
	Deleted         int `json:"deleted"`
	SnapshotRows    int `json:"snapshot_rows"`    // sum of the series' snapshot_rows
	UpstreamVisible int `json:"upstream_visible"` // sum of the series' upstream_visible
	UpstreamHidden  int `json:"upstream_hidden"`  // sum of the series' upstream_hidden
	UpstreamRows    int `json:"upstream_rows"`    // rows the upstream holds at the end
	Steps           int `json:"steps"`            // engine steps the run applied
}

// ProgressBudget bounds the summary's progress matrix: vnodes × columns stays within it
// (about 1.5 MB of JSON), whatever the vnode count and the number of barriers.
const ProgressBudget = 1 << 18

// ProgressColumns is how many barriers' progress a summary keeps per vnode for a vnode count.
func ProgressColumns(vnodes int) int { return max(2, ProgressBudget/max(1, vnodes)) }

// outputCounter counts what the executor emits in scale mode instead of keeping it (it is the
// run's engine.OutputCounter).
type outputCounter struct {
	snapshotRows, upVisible, upHidden int // since the last barrier
	emitted                           int // rows emitted since the last barrier (lost if a recovery follows)
	barriers                          int
}

// Chunk counts an output chunk's rows by source and visibility.
func (c *outputCounter) Chunk(rows []engine.OutRow, source string) {
	c.emitted += len(rows)
	if source == "builder" {
		c.snapshotRows += len(rows)
		return
	}
	for i := range rows {
		if rows[i].Visible {
			c.upVisible++
		} else {
			c.upHidden++
		}
	}
}

// BuilderRows counts rows a builder emitted.
func (c *outputCounter) BuilderRows(n int) {
	c.emitted += n
	c.snapshotRows += n
}

// Barrier counts a barrier.
func (c *outputCounter) Barrier() { c.barriers++ }

// progressSampler keeps each vnode's progress at a bounded number of barriers.
type progressSampler struct {
	cols     int // at most this many columns, the last barrier's included
	stride   int
	barriers []int
	fracs    [][]uint16 // per kept column, per owned vnode: the fraction × 10000
}

func newProgressSampler(vnodes int) *progressSampler {
	return &progressSampler{cols: ProgressColumns(vnodes), stride: 1}
}

// observe is called at each barrier k (0-based); it keeps a column when k is on the stride,
// and halves the columns (doubling the stride) when they would exceed the bound.
func (s *progressSampler) observe(e *engine.Engine, k int) {
	if k%s.stride != 0 {
		return
	}
	s.barriers = append(s.barriers, k)
	s.fracs = append(s.fracs, progressColumn(e))
	if len(s.barriers) <= s.cols {
		return
	}
	s.stride *= 2
	j := 0
	for i, b := range s.barriers {
		if b%s.stride == 0 {
			s.barriers[j], s.fracs[j] = b, s.fracs[i]
			j++
		}
	}
	clear(s.fracs[j:])
	s.barriers, s.fracs = s.barriers[:j], s.fracs[:j]
}

// finish adds the last barrier (the engine is at it; when the columns are full it takes the
// place of the last kept one) and writes the matrix, by vnode.
func (s *progressSampler) finish(e *engine.Engine, last int, sum *ScaleSummary) {
	if last >= 0 && (len(s.barriers) == 0 || s.barriers[len(s.barriers)-1] != last) {
		if len(s.barriers) == s.cols {
			s.barriers, s.fracs = s.barriers[:s.cols-1], s.fracs[:s.cols-1]
		}
		s.barriers = append(s.barriers, last)
		s.fracs = append(s.fracs, progressColumn(e))
	}
	sum.ProgressBarriers = append([]int{}, s.barriers...)
	cfg := e.Config()
	sum.Progress = make([][]float64, cfg.VnodeCount)
	flat := make([]float64, len(cfg.Owned)*len(s.fracs))
	for vi, v := range cfg.Owned {
		row := flat[vi*len(s.fracs) : (vi+1)*len(s.fracs) : (vi+1)*len(s.fracs)]
		for j, col := range s.fracs {
			row[j] = float64(col[vi]) / 10000
		}
		sum.Progress[v] = row
	}
}

// progressColumn is every owned vnode's fraction of its rows the backfill has passed, × 10000.
func progressColumn(e *engine.Engine) []uint16 {
	col := make([]uint16, len(e.Config().Owned))
	for vi := range col {
		col[vi] = uint16(math.Round(e.PassedFraction(vi) * 10000))
	}
	return col
}

// bugName is the summary's bug: the bug mode's name, or empty without one.
func bugName(b engine.Bug) string {
	if b == engine.BugNone {
		return ""
	}
	return b.String()
}
