package workload

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
)

// ErrCanceled is what Run returns when its progress callback asked it to stop.
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
	e        *engine.Engine
	w        *Workload
	g        *generator
	count    outputCounter
	sum      *ScaleSummary
	sampler  *progressSampler
	plan, ck workloadPlan
	faulted  bool

	opt      Options
	work     int // generated rows and snapshot items so far
	reported int // work at the last progress call
	yielded  int // work at the last yield
}

// Options are the optional parts of a run (see Run and RunWith).
type Options struct {
	// Progress, when not nil, is told how far the run is (see Run).
	Progress func(done, total int) bool
	// CheckChunks validates every generated chunk as Apply does, and its placement against the
	// engine's (slower: the tests check the generator with it).
	CheckChunks bool
	// AfterBarrier, when not nil, is called after each barrier's series entry (k counts from
	// 0) with the engine at that barrier, which it must not change.
	AfterBarrier func(e *engine.Engine, k int)
}

// Run runs a workload on a new engine made from cfg (which has no start state) and
// returns its scale summary. It is deterministic: the same cfg and workload give the same
// summary on every machine.
//
// progress, when not nil, is called now and then (at most about 200 times, and once at the
// end) with the work done and the work expected in all, in rows: the rows the upstream
// generates plus the snapshot items delivered. total is an estimate that is refined as the
// run goes (it never falls below done; the last call has done == total). When progress
// returns false the run stops and Run returns ErrCanceled.
//
// An invalid workload is a *Error; an invalid configuration is a plain error.
func Run(cfg *engine.Config, w Workload, progress func(done, total int) bool) (*ScaleSummary, error) {
	return RunWith(cfg, w, Options{Progress: progress})
}

// RunWith is Run with options.
func RunWith(cfg *engine.Config, w Workload, opt Options) (*ScaleSummary, error) {
	r, err := newWorkloadRun(cfg, w, opt)
	if err != nil {
		return nil, err
	}
	if err := r.run(); err != nil {
		return nil, err
	}
	return r.sum, nil
}

// newWorkloadRun checks a workload and makes its run: an engine at its start, narration off,
// counting its outputs (scale mode).
func newWorkloadRun(cfg *engine.Config, w Workload, opt Options) (*workloadRun, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	if err := CheckConfig(cfg, &w); err != nil {
		return nil, err
	}
	e, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	e.SetNarration(false)
	r := &workloadRun{e: e, w: &w, g: newGenerator(cfg, &w), opt: opt,
		sampler: newProgressSampler(len(cfg.Owned))}
	e.CountOutputs(&r.count)
	r.sum = &ScaleSummary{Title: cfg.Title, Rows: w.Rows, Vnodes: cfg.VnodeCount, Owned: len(cfg.Owned),
		Workload: w, Bug: bugName(cfg.Bug), Invariant: "holds", Recoveries: []ScaleRecovery{}, Series: ScaleSeries{
			Epoch: []int64{}, Phase: []string{}, BufferedRows: []int{}, SnapshotRows: []int{}, UpstreamVisible: []int{},
			UpstreamHidden: []int{}, VnodesCompleted: []int{}, VnodesInProgress: []int{}}}
	return r, nil
}

// apply feeds a generated step, validated as always (snapshot steps and barriers are cheap to
// validate; chunk applies a chunk with ApplyPlaced unless CheckChunks is set).
func (r *workloadRun) apply(s engine.Step) error {
	if err := r.e.Apply(s); err != nil {
		return fmt.Errorf("internal error: the workload generated an invalid step (%s): %w", s.Describe(r.e.Config().Columns), err)
	}
	return nil
}

func (r *workloadRun) chunk(rows []engine.RowOp) error {
	if r.g.full {
		return wlErr("rows", "the row numbers 1..%d that fall on this actor's vnodes ran out", MaxRowNumber)
	}
	if len(rows) == 0 {
		return nil
	}
	for _, ro := range rows {
		switch ro.Op {
		case engine.OpInsert:
			r.sum.Totals.Inserted++
		case engine.OpDelete:
			r.sum.Totals.Deleted++
		case engine.OpUpdateInsert:
			r.sum.Totals.Updated++
		}
	}
	r.work += len(rows)
	r.yield()
	if !r.opt.CheckChunks {
		// the generator makes only changes the upstream can send, placed as the engine places
		// them: the tests check both (Options.CheckChunks)
		r.e.ApplyPlaced(rows, r.g.vis)
		return nil
	}
	cfg := r.e.Config()
	for i, ro := range rows { // the rows must land where the generator said
		v, err := cfg.Vnode(ro.Row)
		vi := engine.OwnedIndex(-1)
		if err == nil {
			vi = r.g.vidx[v]
		}
		if vi != r.g.vis[i] {
			return fmt.Errorf("internal error: the generator placed %s on owned vnode %d, the engine on %d", ro, r.g.vis[i], vi)
		}
	}
	return r.apply(engine.Step{Kind: engine.EventChunk, Chunk: rows})
}

func (r *workloadRun) run() error {
	e, w := r.e, r.w
	epoch := int64(0)
	for {
		// the traffic of the epoch the next barrier closes
		start := false
		switch e.Phase() {
		case engine.PhaseBuffering:
			if r.plan.parts < w.StartAfter {
				if err := r.bufferingPart(); err != nil {
					return err
				}
			}
			start = r.plan.parts == w.StartAfter
		case engine.PhaseBackfilling:
			if n := min(w.SnapshotPerEpoch, e.SnapshotRemaining()); n > 0 {
				r.work += n
				if err := r.apply(engine.Step{Kind: engine.EventSnapshot, Count: n}); err != nil {
					return err
				}
				r.yield()
			}
			if err := r.chunk(r.g.changes(w.UpstreamPerEpoch)); err != nil {
				return err
			}
		case engine.PhaseForwarding:
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
			if e.Phase() == engine.PhaseDropped {
				break // the recovery dropped the job (engine/create.go): nothing follows
			}
		} else if err := r.barrier(epoch, start); err != nil {
			return err
		}
		if !r.report(false) {
			return ErrCanceled
		}
		if e.Phase() == engine.PhaseForwarding && r.plan.after >= w.After {
			break
		}
		if len(r.sum.Series.Epoch) > MaxRunBarriers+3 {
			return fmt.Errorf("internal error: the workload did not finish within %d barriers", MaxRunBarriers)
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
	size := r.e.Config().ChunkSize
	// the epoch's writes wait in the state table until its barrier: make room for them at once
	r.e.ReserveWrites(share)
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
	buffered := e.Sizes().BufferedRows
	b := engine.Barrier{Epoch: epoch, Checkpoint: true}
	if start {
		b.StartBackfill = []int64{e.Config().Fragment}
	}
	if why, refused := e.StartRefused(b); refused {
		return fmt.Errorf("%s: after the fault the executor buffers again and waits for a signal that never comes, so this workload cannot finish under %s (run it under v2.8 or later, or put the fault after the start)", why, e.Release().Name)
	}
	before := r.count.barriers
	if err := r.apply(engine.Step{Kind: engine.EventBarrier, Barrier: b}); err != nil {
		return err
	}
	if r.count.barriers == before {
		return fmt.Errorf("internal error: barrier e%d was not emitted (the executor is %s)", epoch, e.Phase())
	}
	s := &r.sum.Series
	k := len(s.Epoch)
	sizes := e.Sizes()
	completed, inProgress := sizes.Completed, sizes.InProgress
	s.Epoch = append(s.Epoch, epoch)
	s.Phase = append(s.Phase, e.Phase().String())
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
	if r.opt.AfterBarrier != nil {
		r.opt.AfterBarrier(e, k)
	}
	// every barrier is a checkpoint: a recovery comes back to here
	r.g.checkpoint()
	r.ck = r.plan
	return nil
}

// observeInvariant records the first barrier at which the invariant failed.
func (r *workloadRun) observeInvariant(k int) {
	inv := r.e.Invariant()
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
	sizes := e.Sizes()
	rec := ScaleRecovery{Barrier: len(r.sum.Series.Epoch), Epoch: f.Epoch, Kind: f.Kind.String(), During: e.Phase().String(),
		LostEmittedRows: r.count.emitted, LostBufferedRows: sizes.BufferedRows, LostBuilderRows: sizes.BuilderRows}
	switch f.Kind {
	case FaultEnd:
		if err := r.apply(engine.Step{Kind: engine.EventEnd}); err != nil {
			return err
		}
	case FaultError:
		if err := r.apply(engine.Step{Kind: engine.EventError, Message: FaultErrorMessage}); err != nil {
			return err
		}
	}
	rec.Outcome = e.Phase().String()
	if fl := e.Failure(); fl != nil {
		rec.Error = &ScaleFailure{Message: fl.Message, Panic: fl.Panic, Epoch: f.Epoch}
	}
	if e.Phase() == engine.PhaseEnded || e.Phase() == engine.PhaseFailed {
		r.observeEndInvariant()
	}
	rec.RolledBackTo = e.Sizes().Checkpoint
	if err := r.apply(engine.Step{Kind: engine.EventRecover}); err != nil {
		return err
	}
	if d := failure.Dropped(e); d != nil {
		rec.Dropped, rec.DropReason, rec.DropText = true, d.Reason, d.Short
	}
	r.g.rollback()
	r.plan = r.ck
	r.count.snapshotRows, r.count.upVisible, r.count.upHidden, r.count.emitted = 0, 0, 0, 0
	r.sum.Recoveries = append(r.sum.Recoveries, rec)
	return nil
}

// observeEndInvariant records a violation found when the stream ended (the engine checks then).
func (r *workloadRun) observeEndInvariant() {
	if r.e.Phase() == engine.PhaseEnded {
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
	if r.opt.Progress == nil {
		return true
	}
	total := r.estimate()
	if final {
		total = r.work
	} else if r.work-r.reported < max(1, total/200) {
		return true
	}
	r.reported = r.work
	return r.opt.Progress(r.work, total)
}

// estimate is the work expected in all: what is done, plus the buffering rows still to come,
// the snapshot items still to read (all rows once more before the backfill starts) and the
// upstream changes of the epochs that this suggests.
func (r *workloadRun) estimate() int {
	w, e := r.w, r.e
	left := w.Rows - r.plan.inserted
	snap := 0
	switch e.Phase() {
	case engine.PhaseStarting, engine.PhaseBuffering:
		snap = w.Rows + 1
	case engine.PhaseBackfilling:
		snap = e.SnapshotRemaining()
	}
	epochs := (snap+w.SnapshotPerEpoch-1)/w.SnapshotPerEpoch + w.After - r.plan.after
	return r.work + left + snap + max(0, epochs)*w.UpstreamPerEpoch
}

// finish fills the totals and the progress matrix from the engine at the last barrier.
func (r *workloadRun) finish() {
	e, sum := r.e, r.sum
	sum.Phase = e.Phase().String()
	if fl := e.Failure(); fl != nil {
		sum.Error = &ScaleFailure{Message: fl.Message, Panic: fl.Panic, Epoch: e.Sizes().Epoch}
	}
	sum.Epochs = len(sum.Series.Epoch)
	sum.DownstreamRows = e.DownstreamRows()
	sum.Totals.UpstreamRows = e.Sizes().UpstreamRows
	sum.Totals.Steps = e.StepCount()
	r.sampler.finish(e, sum.Epochs-1, sum)
	// the engine checks the invariant at every barrier; the last check stands for the end
	if e.Invariant().Status == "violated" && sum.Violation == nil {
		r.observeInvariant(sum.Epochs - 1)
	}
}
