package engine

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
)

// ErrCanceled is what RunWorkload returns when its progress callback asked it to stop.
var ErrCanceled = errors.New("the workload's run was canceled")

// workloadPlan is where the run is in the workload's plan; it is saved at every checkpoint and
// restored by a recovery, with the generator.
type workloadPlan struct {
	parts    int // buffering epochs done (their rows delivered)
	inserted int // buffering rows delivered
	after    int // epochs done after the completion barrier
}

// workloadRun is one run of a workload on one engine.
type workloadRun struct {
	e        *Engine
	w        *Workload
	g        *generator
	count    outputCounter
	sum      *ScaleSummary
	sampler  *progressSampler
	plan, ck workloadPlan
	faulted  bool

	checkChunks  bool        // validate generated chunks against the upstream's content (tests)
	afterBarrier func(k int) // tests: called after each barrier's series entry
	progress     func(done, total int) bool
	work         int // generated rows and snapshot items so far
	reported     int // work at the last progress call
	yielded      int // work at the last yield
}

// RunWorkload runs a workload on a new engine made from cfg (which has no start state) and
// returns its scale summary. It is deterministic: the same cfg and workload give the same
// summary on every machine.
//
// progress, when not nil, is called now and then (at most about 200 times, and once at the
// end) with the work done and the work expected in all, in rows: the rows the upstream
// generates plus the snapshot items delivered. total is an estimate that is refined as the
// run goes (it never falls below done; the last call has done == total). When progress
// returns false the run stops and RunWorkload returns ErrCanceled.
//
// An invalid workload is a *WorkloadError; an invalid configuration is a plain error.
func RunWorkload(cfg *Config, w Workload, progress func(done, total int) bool) (*ScaleSummary, error) {
	r, err := newWorkloadRun(cfg, w, progress, false)
	if err != nil {
		return nil, err
	}
	if err := r.run(); err != nil {
		return nil, err
	}
	return r.sum, nil
}

// newWorkloadRun checks a workload and makes its run: an engine at its start, narration off,
// counting its outputs.
func newWorkloadRun(cfg *Config, w Workload, progress func(done, total int) bool, checkChunks bool) (*workloadRun, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	if err := CheckWorkloadConfig(cfg, &w); err != nil {
		return nil, err
	}
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	e.SetNarration(false)
	r := &workloadRun{e: e, w: &w, g: newGenerator(cfg, &w), checkChunks: checkChunks, progress: progress,
		sampler: newProgressSampler(len(e.owned))}
	e.counter = &r.count
	r.sum = &ScaleSummary{Title: cfg.Title, Rows: w.Rows, Vnodes: cfg.VnodeCount, Owned: len(cfg.Owned),
		Workload: w, Bug: bugName(cfg.Bug), Invariant: "holds", Recoveries: []ScaleRecovery{}, Series: ScaleSeries{
			Epoch: []int64{}, Phase: []string{}, BufferedRows: []int{}, SnapshotRows: []int{}, UpstreamVisible: []int{},
			UpstreamHidden: []int{}, VnodesCompleted: []int{}, VnodesInProgress: []int{}}}
	return r, nil
}

// apply feeds a generated step. Snapshot steps and barriers are validated as always (cheap);
// chunks only when checkChunks is set: the generator makes only consistent changes, which the
// tests check with it.
func (r *workloadRun) apply(s Step) error {
	if s.Kind != EventChunk || r.checkChunks {
		if err := r.e.validate(s); err != nil {
			return fmt.Errorf("internal error: the workload generated an invalid step (%s): %w", s.Describe(r.e.cfg.Columns), err)
		}
	}
	r.e.apply(s)
	return nil
}

func (r *workloadRun) chunk(rows []RowOp) error {
	if r.g.full {
		return wlErr("rows", "the row numbers 1..%d that fall on this actor's vnodes ran out", MaxRowNumber)
	}
	if len(rows) == 0 {
		return nil
	}
	for _, ro := range rows {
		switch ro.Op {
		case OpInsert:
			r.sum.Totals.Inserted++
		case OpDelete:
			r.sum.Totals.Deleted++
		case OpUpdateInsert:
			r.sum.Totals.Updated++
		}
	}
	r.work += len(rows)
	r.yield()
	if r.checkChunks { // the engine places the rows itself: they must land where the generator said
		r.e.placeChunk(rows)
		for i, vi := range r.e.placed {
			if vi != r.g.vis[i] {
				return fmt.Errorf("internal error: the generator placed %s on owned vnode %d, the engine on %d", rows[i], r.g.vis[i], vi)
			}
		}
	} else {
		r.e.placed, r.e.preplaced = r.g.vis, true
		defer func() { r.e.placed, r.e.preplaced = nil, false }()
	}
	return r.apply(Step{Kind: EventChunk, Chunk: rows})
}

func (r *workloadRun) run() error {
	e, w := r.e, r.w
	epoch := int64(0)
	for {
		// the traffic of the epoch the next barrier closes
		start := false
		switch e.phase {
		case PhaseBuffering:
			if r.plan.parts < w.StartAfter {
				if err := r.bufferingPart(); err != nil {
					return err
				}
			}
			start = r.plan.parts == w.StartAfter
		case PhaseBackfilling:
			if n := min(w.SnapshotPerEpoch, e.SnapshotRemaining()); n > 0 {
				r.work += n
				if err := r.apply(Step{Kind: EventSnapshot, Count: n}); err != nil {
					return err
				}
				r.yield()
			}
			if err := r.chunk(r.g.changes(w.UpstreamPerEpoch)); err != nil {
				return err
			}
		case PhaseForwarding:
			if err := r.chunk(r.g.changes(w.UpstreamPerEpoch)); err != nil {
				return err
			}
			r.plan.after++
		}
		epoch++
		if f := w.Fault; f != nil && !r.faulted && f.Epoch == epoch {
			r.faulted = true
			if err := r.fault(f); err != nil {
				return err
			}
			epoch-- // the barrier never came: the epoch is still to be closed
		} else if err := r.barrier(epoch, start); err != nil {
			return err
		}
		if !r.report(false) {
			return ErrCanceled
		}
		if e.phase == PhaseForwarding && r.plan.after >= w.After {
			break
		}
		if len(r.sum.Series.Epoch) > MaxWorkloadBarriers+3 {
			return fmt.Errorf("internal error: the workload did not finish within %d barriers", MaxWorkloadBarriers)
		}
	}
	if f := w.Fault; f != nil && !r.faulted {
		return wlErr("fault.epoch", "epoch %d is never reached: this run's last barrier has epoch %d", f.Epoch, epoch)
	}
	r.finish()
	r.report(true)
	return nil
}

// bufferingPart delivers the next buffering epoch's share of the rows, in chunks of chunk_size.
func (r *workloadRun) bufferingPart() error {
	w := r.w
	share := w.Rows / w.StartAfter
	if r.plan.parts < w.Rows%w.StartAfter {
		share++
	}
	size := r.e.cfg.ChunkSize
	// the epoch's writes wait in the state table until its barrier: make room for them at once
	r.e.state.pending = slices.Grow(r.e.state.pending, share)
	for left := share; left > 0; {
		k := min(size, left)
		if err := r.chunk(r.g.inserts(k)); err != nil {
			return err
		}
		left -= k
		if r.work-r.reported >= 1<<16 && !r.report(false) {
			return ErrCanceled
		}
	}
	r.plan.parts++
	r.plan.inserted += share
	return nil
}

// barrier delivers a checkpoint barrier and records its series entry.
func (r *workloadRun) barrier(epoch int64, start bool) error {
	e := r.e
	buffered := 0
	for _, c := range e.buffer {
		buffered += len(c.rows)
	}
	b := Barrier{Epoch: epoch, Checkpoint: true}
	if start {
		b.StartBackfill = []int64{e.cfg.Fragment}
	}
	if e.startRefused(b) {
		return fmt.Errorf("%s: after the fault the executor buffers again and waits for a signal that never comes, so this workload cannot finish under %s (run it under v2.8 or later, or put the fault after the start)", e.startRefusedText(), e.rel().Name)
	}
	before := r.count.barriers
	if err := r.apply(Step{Kind: EventBarrier, Barrier: b}); err != nil {
		return err
	}
	if r.count.barriers == before {
		return fmt.Errorf("internal error: barrier e%d was not emitted (the executor is %s)", epoch, e.phase)
	}
	s := &r.sum.Series
	k := len(s.Epoch)
	completed, inProgress := e.progCount[Completed], e.progCount[InProgress]
	s.Epoch = append(s.Epoch, epoch)
	s.Phase = append(s.Phase, e.phase.String())
	s.BufferedRows = append(s.BufferedRows, buffered)
	s.SnapshotRows = append(s.SnapshotRows, r.count.snapshotRows)
	s.UpstreamVisible = append(s.UpstreamVisible, r.count.upVisible)
	s.UpstreamHidden = append(s.UpstreamHidden, r.count.upHidden)
	s.VnodesCompleted = append(s.VnodesCompleted, completed)
	s.VnodesInProgress = append(s.VnodesInProgress, inProgress)
	r.sum.Totals.SnapshotRows += r.count.snapshotRows
	r.sum.Totals.UpstreamVisible += r.count.upVisible
	r.sum.Totals.UpstreamHidden += r.count.upHidden
	r.count.snapshotRows, r.count.upVisible, r.count.upHidden, r.count.emitted = 0, 0, 0, 0
	r.observeInvariant(k)
	r.sampler.observe(e, k)
	if r.afterBarrier != nil {
		r.afterBarrier(k)
	}
	// every barrier is a checkpoint: a recovery comes back to here
	r.g.checkpoint()
	r.ck = r.plan
	return nil
}

// observeInvariant records the first barrier at which the invariant failed.
func (r *workloadRun) observeInvariant(k int) {
	inv := r.e.inv
	if inv.Status != "violated" || r.sum.Violation != nil {
		return
	}
	r.sum.Invariant = "violated"
	r.sum.Violation = &ScaleViolation{Barrier: k, Epoch: inv.Epoch, Missing: len(inv.Missing), Extra: len(inv.Extra), Text: inv.Text}
}

// fault delivers the fault instead of the barrier of its epoch, then recovers (unless the
// fault is the recovery), and rolls the generator and the plan back to the last checkpoint.
func (r *workloadRun) fault(f *Fault) error {
	e := r.e
	rec := ScaleRecovery{Barrier: len(r.sum.Series.Epoch), Epoch: f.Epoch, Kind: f.Kind.String(), During: e.phase.String(),
		LostEmittedRows: r.count.emitted}
	for _, c := range e.buffer {
		rec.LostBufferedRows += len(c.rows)
	}
	rec.LostBuilderRows += e.builderRows
	switch f.Kind {
	case FaultEnd:
		if err := r.apply(Step{Kind: EventEnd}); err != nil {
			return err
		}
	case FaultError:
		if err := r.apply(Step{Kind: EventError, Message: FaultErrorMessage}); err != nil {
			return err
		}
	}
	rec.Outcome = e.phase.String()
	if fl := e.failure; fl != nil {
		rec.Error = &ScaleFailure{Message: fl.Message, Panic: fl.Panic, Epoch: f.Epoch}
	}
	if e.phase == PhaseEnded || e.phase == PhaseFailed {
		r.observeEndInvariant()
	}
	rec.RolledBackTo = e.dur.epoch
	if err := r.apply(Step{Kind: EventRecover}); err != nil {
		return err
	}
	r.g.rollback()
	r.plan = r.ck
	r.count.snapshotRows, r.count.upVisible, r.count.upHidden, r.count.emitted = 0, 0, 0, 0
	r.sum.Recoveries = append(r.sum.Recoveries, rec)
	return nil
}

// observeEndInvariant records a violation found when the stream ended (the engine checks then).
func (r *workloadRun) observeEndInvariant() {
	if r.e.phase == PhaseEnded {
		r.observeInvariant(len(r.sum.Series.Epoch) - 1)
	}
}

// yield lets other goroutines run once in a while (every yieldWork rows of work). It changes
// nothing in the run. Under WebAssembly there is one thread and no preemption: a run that never
// yields keeps the collector's background worker from ever running, so a collection that
// starts is finished by the run's allocations alone, late, with the heap far past its goal
// (the wasm memory then grows, a costly step for the JavaScript engine, and is never given
// back) and the write barrier on for most of the run.
func (r *workloadRun) yield() {
	if r.work-r.yielded >= yieldWork {
		r.yielded = r.work
		runtime.Gosched()
	}
}

// yieldWork is the work between two yields: a few hundred microseconds of a run.
const yieldWork = 1 << 12

// report calls the progress callback when enough work was done since the last call (or at
// the end); it returns false when the run is to stop.
func (r *workloadRun) report(final bool) bool {
	if r.progress == nil {
		return true
	}
	total := r.estimate()
	if final {
		total = r.work
	} else if r.work-r.reported < max(1, total/200) {
		return true
	}
	r.reported = r.work
	return r.progress(r.work, total)
}

// estimate is the work expected in all: what is done, plus the buffering rows still to come,
// the snapshot items still to read (all rows once more before the backfill starts) and the
// upstream changes of the epochs that this suggests.
func (r *workloadRun) estimate() int {
	w, e := r.w, r.e
	left := w.Rows - r.plan.inserted
	snap := 0
	switch e.phase {
	case PhaseStarting, PhaseBuffering:
		snap = w.Rows + 1
	case PhaseBackfilling:
		snap = e.SnapshotRemaining()
	}
	epochs := (snap+w.SnapshotPerEpoch-1)/w.SnapshotPerEpoch + w.After - r.plan.after
	return r.work + left + snap + max(0, epochs)*w.UpstreamPerEpoch
}

// finish fills the totals and the progress matrix from the engine at the last barrier.
func (r *workloadRun) finish() {
	e, sum := r.e, r.sum
	sum.Phase = e.phase.String()
	if fl := e.failure; fl != nil {
		sum.Error = &ScaleFailure{Message: fl.Message, Panic: fl.Panic, Epoch: e.epoch}
	}
	sum.Epochs = len(sum.Series.Epoch)
	e.down.each(func(_ int, en rsEntry) bool {
		if en.count > 0 {
			sum.DownstreamRows += en.count
		}
		return true
	})
	sum.Totals.UpstreamRows = e.upstream.rows
	sum.Totals.Steps = e.step
	r.sampler.finish(e, sum.Epochs-1, sum)
	// the engine checks the invariant at every barrier; the last check stands for the end
	if e.inv.Status == "violated" && sum.Violation == nil {
		r.observeInvariant(sum.Epochs - 1)
	}
}
