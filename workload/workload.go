package workload

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
)

// Workload is scale mode: instead of a script of steps, the run generates the upstream's
// messages from a seed and runs the engine on them to the end, narration off, the invariant
// checked at every barrier (docs/scenario-format.md, "Workloads").
//
// The run, epoch by epoch (every barrier is a checkpoint):
//   - the executor's first barrier, epoch 1;
//   - start_after buffering epochs: Rows inserts spread evenly over them (in chunks of
//     chunk_size rows), each epoch closed by a barrier; the last barrier carries the start
//     signal (StartFragmentBackfill naming the config's fragment);
//   - backfill epochs: up to SnapshotPerEpoch snapshot items, then one chunk of
//     UpstreamPerEpoch changes, then a barrier; the epoch in which the snapshot delivers its
//     end is the last of them, and its barrier completes the backfill;
//   - After more epochs, each one chunk then a barrier.
//
// A Fault replaces the barrier of its epoch: the upstream ends, fails, or the job recovers
// there. After an end or an error the job recovers too, and the run goes on from the last
// checkpoint until it has finished.
type Workload struct {
	Rows             int    `json:"rows"`
	Seed             int64  `json:"seed"`
	StartAfter       int    `json:"start_after"`
	SnapshotPerEpoch int    `json:"snapshot_per_epoch"`
	UpstreamPerEpoch int    `json:"upstream_per_epoch"`
	Mix              Mix    `json:"mix"`
	After            int    `json:"after"`
	Fault            *Fault `json:"fault"`
}

// Mix is the relative weights of the upstream's changes.
type Mix struct {
	Insert int `json:"insert"`
	Update int `json:"update"`
	Delete int `json:"delete"`
}

// FaultKind is what a workload's fault does instead of a barrier.
type FaultKind uint8

const (
	FaultEnd     FaultKind = iota // the upstream stream ends
	FaultError                    // the upstream yields an error
	FaultRecover                  // the job recovers (a failure elsewhere forced it)
)

// FaultKinds are the kinds' names, in order.
var FaultKinds = []string{"end", "error", "recover"}

func (k FaultKind) String() string { return FaultKinds[k] }

// ParseFaultKind reads end, error or recover.
func ParseFaultKind(s string) (FaultKind, bool) {
	for i, n := range FaultKinds {
		if n == s {
			return FaultKind(i), true
		}
	}
	return 0, false
}

// Fault is one fault of a workload, in place of the barrier of Epoch.
type Fault struct {
	Kind  FaultKind `json:"kind"`
	Epoch int64     `json:"epoch"`
}

// FaultErrorMessage is the upstream's error message of a fault of kind error.
const FaultErrorMessage = "upstream actor failed (workload fault)"

// The limits of a workload.
const (
	MaxRows             = 10_000_000  // rows
	MaxStartAfter       = 1_000       // start_after
	MaxSnapshotPerEpoch = 100_000_000 // snapshot_per_epoch
	MaxUpstreamPerEpoch = 1_000_000   // upstream_per_epoch
	MaxMixWeight        = 1_000_000   // each weight of mix
	MaxAfter            = 10_000      // after
	// MaxRunBarriers bounds the barriers a run may need at most (see Workload.MaxBarriers),
	// which bounds the summary's series and the run's time.
	MaxRunBarriers = 10_000
	// MaxChanges bounds the upstream changes after the start (upstream_per_epoch times
	// the barriers the run may need at most), which bounds the rows a run can grow to.
	MaxChanges = 10_000_000
)

// Default is a workload of rows with every other key at its default.
func Default(rows int) Workload {
	return Workload{Rows: rows, Seed: 1, StartAfter: 2, SnapshotPerEpoch: 65536, UpstreamPerEpoch: 16,
		Mix: Mix{Insert: 6, Update: 3, Delete: 1}, After: 2}
}

// Error is a workload a run refuses. Field names the offending key as the file
// writes it ("rows", "mix", "fault.epoch", …) so that a parser can point at it.
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return "workload." + e.Field + ": " + e.Msg }

func wlErr(field, format string, args ...any) *Error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// maxInsertsPerEpoch is the most rows one epoch's chunk can insert.
func (w *Workload) maxInsertsPerEpoch() int {
	if w.Mix.Insert > 0 {
		return w.UpstreamPerEpoch
	}
	return 0
}

// MaxBarriers is an upper bound of the barriers the run emits: the first one, start_after
// buffering barriers, the backfill barriers (each epoch reads SnapshotPerEpoch items and
// inserts at most maxInsertsPerEpoch rows that the snapshot may still have to read), After
// more, and up to 3 for a fault (the barrier after the recovery, the epoch done again, and a
// start signal sent again). Check refuses a workload whose bound exceeds MaxRunBarriers.
func (w *Workload) MaxBarriers() int {
	net := w.SnapshotPerEpoch - w.maxInsertsPerEpoch()
	if net < 1 {
		return -1 // the snapshot may never catch up
	}
	backfill := (w.Rows + 1 + net - 1) / net
	return 1 + w.StartAfter + backfill + w.After + 3
}

// Check reports the first value out of its range, or a combination the run cannot finish.
func (w *Workload) Check() error {
	type rng struct {
		field  string
		v      int64
		lo, hi int64
	}
	for _, r := range []rng{
		{"rows", int64(w.Rows), 0, MaxRows},
		{"seed", w.Seed, 0, 1<<63 - 1},
		{"start_after", int64(w.StartAfter), 1, MaxStartAfter},
		{"snapshot_per_epoch", int64(w.SnapshotPerEpoch), 1, MaxSnapshotPerEpoch},
		{"upstream_per_epoch", int64(w.UpstreamPerEpoch), 0, MaxUpstreamPerEpoch},
		{"mix.insert", int64(w.Mix.Insert), 0, MaxMixWeight},
		{"mix.update", int64(w.Mix.Update), 0, MaxMixWeight},
		{"mix.delete", int64(w.Mix.Delete), 0, MaxMixWeight},
		{"after", int64(w.After), 0, MaxAfter},
	} {
		if r.v < r.lo || r.v > r.hi {
			return wlErr(r.field, "must be in %d..%d, found %d", r.lo, r.hi, r.v)
		}
	}
	if w.Mix.Insert+w.Mix.Update+w.Mix.Delete == 0 {
		return wlErr("mix", "needs at least one weight above 0")
	}
	if ins := w.maxInsertsPerEpoch(); w.SnapshotPerEpoch <= ins {
		return wlErr("snapshot_per_epoch", "must be larger than upstream_per_epoch (%d) when the mix inserts: "+
			"each epoch may insert that many rows the snapshot still has to read, so it might never catch up", ins)
	}
	if n := w.MaxBarriers(); n > MaxRunBarriers {
		return wlErr("snapshot_per_epoch", "this workload may need up to %d barriers; the limit is %d "+
			"(raise snapshot_per_epoch, or lower rows or upstream_per_epoch)", n, MaxRunBarriers)
	}
	if n := int64(w.UpstreamPerEpoch) * int64(w.MaxBarriers()); n > MaxChanges {
		return wlErr("upstream_per_epoch", "this workload may generate up to %d upstream changes after the start; "+
			"the limit is %d (lower upstream_per_epoch, or raise snapshot_per_epoch)", n, MaxChanges)
	}
	if f := w.Fault; f != nil {
		if f.Kind > FaultRecover {
			return wlErr("fault.kind", "unknown kind %d; expected end, error or recover", f.Kind)
		}
		if f.Epoch < 1 {
			return wlErr("fault.epoch", "must be at least 1, found %d", f.Epoch)
		}
		if max := int64(w.MaxBarriers()); f.Epoch > max {
			return wlErr("fault.epoch", "epoch %d is never reached: this run has at most %d barriers", f.Epoch, max)
		}
	}
	return nil
}

// MaxRowNumber bounds the generator's row numbers (a varchar key holds 8 digits).
const MaxRowNumber = 99_999_999

// maxRows is the most rows a run can hold at once: the rows and every insert it may make.
func (w *Workload) maxRows() int64 {
	return int64(w.Rows) + int64(w.maxInsertsPerEpoch())*int64(max(0, w.MaxBarriers()))
}

// CheckConfig refuses a configuration a workload cannot run on: one with start state
// (a workload starts from empty tables), and one whose owned vnodes cannot take the rows the
// workload may generate. Row numbers that fall on vnodes the actor does not own are skipped,
// so an actor owning few vnodes needs more numbers than rows; numbers stop at MaxRowNumber.
func CheckConfig(cfg *engine.Config, w *Workload) error {
	if len(cfg.StartState) > 0 || len(cfg.StartProgress) > 0 {
		return wlErr("", "a workload generates its own rows; it starts from empty tables (no start state)")
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if need := MemoryNeed(cfg, w); need > MaxMemory {
		return wlErr("rows", "this workload needs ~%s at most (%d rows × %d columns, with what it may insert); "+
			"the budget is %s (2 GiB): generate fewer rows, or use fewer columns", gigabytes(need), w.maxRows(), len(cfg.Columns), gigabytes(MaxMemory))
	}
	if need, have := w.maxRows(), rowNumbersOwned(cfg); need > have {
		return wlErr("rows", "the vnodes this actor owns (%d of %d) can take only about %d generated rows "+
			"(row numbers 1..%d that fall on them), and this workload may need %d: own more vnodes, or generate fewer rows",
			len(cfg.Owned), cfg.VnodeCount, have, MaxRowNumber, need)
	}
	return nil
}

// rowNumbersOwned counts (crc32: estimates, with a margin) the row numbers 1..MaxRowNumber
// whose rows fall on owned vnodes; a generated row's locality values are its number.
func rowNumbersOwned(c *engine.Config) int64 {
	const m = int64(MaxRowNumber)
	if len(c.Owned) == c.VnodeCount {
		return m
	}
	n := int64(0)
	count := int64(c.VnodeCount)
	for _, v := range c.Owned {
		v := int64(v)
		switch c.Rule {
		case engine.RuleModulo:
			n += (m-v)/count + 1
			if v == 0 {
				n--
			}
		case engine.RuleRanges:
			lo, hi := int64(1), m+1
			if v > 0 {
				lo = max(lo, c.Bounds[v-1])
			}
			if v < int64(len(c.Bounds)) {
				hi = min(hi, c.Bounds[v])
			}
			n += max(0, hi-lo)
		}
	}
	if c.Rule == engine.RuleCRC32 {
		n = m / count * int64(len(c.Owned)) * 9 / 10
	}
	return n
}

// MaxMemory is the budget of what a run may hold at once, as MemoryNeed estimates it: checked
// before the run starts, in the command line and the page alike.
const MaxMemory = 2 << 30

// Bytes a run holds per value and per row (the tables it builds hold every row: a Value is 32
// bytes, a varchar's text 16 more; the per-row figure is the row's slices, keys and index). A
// million rows of two bigint columns measure 220 MB, 100,000 rows of 20 varchar columns 126 MB.
const (
	bytesPerNumber  = 32
	bytesPerVarchar = 48
	bytesPerRow     = 150
)

// MemoryNeed estimates the most a run holds at once: its rows at their most (the rows and every
// insert it may make) times what a row of cfg's columns holds.
func MemoryNeed(cfg *engine.Config, w *Workload) int64 {
	row := int64(bytesPerRow)
	for _, c := range cfg.Columns {
		if c.Type == engine.TypeVarchar {
			row += bytesPerVarchar
		} else {
			row += bytesPerNumber
		}
	}
	return w.maxRows() * row
}

// gigabytes writes n bytes as "5.1 GB" (or "310 MB" below a gigabyte).
func gigabytes(n int64) string {
	if n < 1e9 {
		return fmt.Sprintf("%d MB", (n+5e5)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}
