package engine

import (
	"fmt"
	"slices"

	"github.com/backfill-explainer/explainer/internal/persist"
)

// Phase is where the executor is.
type Phase uint8

const (
	PhaseStarting Phase = iota
	PhaseBuffering
	PhaseBackfilling
	PhaseCompleting
	PhaseForwarding
	PhaseEnded
	PhaseFailed
	PhaseDropped // a recovery dropped the job (create: foreground, v2.7–v3.0)
)

func (p Phase) String() string {
	return [...]string{"starting", "buffering", "backfilling", "completing", "forwarding", "ended", "failed", "dropped"}[p]
}

// Failure is what stopped the executor.
type Failure struct {
	Message string `json:"message"`
	Panic   bool   `json:"panic"`
	Step    int    `json:"step"`
}

// The error texts of locality_provider.rs and the executor framework.
const (
	ErrUpstreamEnded   = "locality provider upstream ended unexpectedly during backfill"
	ErrStreamClosed    = "failed to extract the first message: stream closed unexpectedly"
	ErrRescale         = "updating vnode bitmap in place is not supported"
	PanicFirstMessage  = "the first message must be a barrier"
	PanicNotCheckpoint = "assertion failed: matches!(barrier.kind, BarrierKind::Checkpoint | BarrierKind::Initial)"
)

type bufferedChunk struct {
	rows   []RowOp  // compacted: visible rows only
	step   int      // the step it arrived at
	marked []OutRow // bug mode mark-on-arrival: the marking made on arrival
}

// durable is what the last checkpoint made durable; recovery restores it.
type durable struct {
	epoch    int64
	state    *persist.Vec[OwnedIndex, persist.Seq[Row]]
	progress *ProgressTable
	down     *rowset
	upstream *rowset
	outputs  int             // outputs emitted up to and including that checkpoint's barrier
	loaded   *loadedProgress // the progress loaded from it (nil until known)
}

// Engine is one locality-provider actor. Its fields read as the model: the actor (its table
// and vnodes), where the executor is, the state RisingWave's executor keeps
// (locality_provider.rs) and what it emitted; then, in sub-structs, what the model keeps around
// it — counts kept from that state, the world it is checked against, the check, the narration,
// the job's ignored mutations, the cost and scale mode.
type Engine struct {
	// the actor
	cfg   *Config
	pk    []int
	owned []int        // its vnodes, ascending
	vidx  []OwnedIndex // vnode → its index in owned, or -1

	// where the executor is
	phase     Phase
	step      int   // steps applied
	lastEpoch int64 // the last epoch any barrier carried (epochs must increase)
	epoch     int64 // the last barrier the executor processed

	// what the executor keeps
	state    *StateTable                             // its state table (committed versions and pending writes)
	progTab  *ProgressTable                          // its progress table (what the last barrier committed)
	dur      durable                                 // what the last checkpoint made durable
	progress *persist.Vec[OwnedIndex, VnodeProgress] // per-vnode progress; nil until the first barrier loads it
	builders *persist.Vec[OwnedIndex, builder]       // per-vnode chunk builders; nil outside backfill
	buffer   []bufferedChunk                         // the upstream buffer (chunks since the last barrier)
	snap     *Snapshot                               // the snapshot stream being read
	// snapshotFinished: this run's snapshot stream delivered its end
	snapshotFinished bool
	// barrierFails: the barrier being marked fails before it commits (a rescale)
	barrierFails bool
	upEnded      bool // the upstream stream has ended (fused)
	// stopEpoch: the Stop barrier the actor stopped at (0: it has not stopped)
	stopEpoch int64
	// recovered: the executor was restarted by a recovery (its first barrier is Initial)
	recovered bool
	droppedAt int // the step whose recovery dropped the job (PhaseDropped)
	// reportFinishOnFirstBarrier: the executor started with every vnode Completed, so it reports
	// finished at the first barrier it forwards, once (LP:460, 817-825)
	reportFinishOnFirstBarrier bool
	reports                    []ProgressReport // progress reported to the meta service
	bufferedRows               int64            // v2.7: rows buffered before the start signal (reported)

	// what it emitted, and what stopped it
	outputs []Output
	failure *Failure

	tally     tallies      // counts kept up to date from the state above (pervnode.go)
	world     world        // the upstream's content and downstream's view (invariant.go)
	check     checker      // the invariant's bookkeeping (invariant.go)
	narration narration    // what is kept only to explain (explain.go)
	job       jobMutations // the job's pause and throttle, which the executor ignores (mutation.go)
	cost      workCost     // work done and its limit (work.go)
	scale     scaleMode    // scale mode's counting and the chunk's placement (scale_mode.go)
}

// New makes an engine at its configured start: the committed state of cfg.Start*, downstream
// holding what it must already have seen.
func New(cfg *Config) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg, pk: cfg.PK(), owned: cfg.Owned, narration: narration{on: true}}
	e.vidx = make([]OwnedIndex, cfg.VnodeCount)
	for i := range e.vidx {
		e.vidx[i] = -1
	}
	for i, v := range cfg.Owned {
		e.vidx[v] = OwnedIndex(i)
	}
	e.state = newStateTable(e.pk, len(e.owned))
	e.progTab = newProgressTable(len(e.owned))
	e.world.upstream = newRowset(e.pk, len(e.owned))
	e.world.down = newRowset(e.pk, len(e.owned))
	e.check.parts = persist.NewVec[OwnedIndex, vnodeCheck](len(e.owned))
	// place the start rows and take them in (vnode, pk) order, so that each vnode's rows are
	// appended, not inserted
	type placed struct {
		vi  OwnedIndex
		i   int
		row Row
	}
	start := make([]placed, len(cfg.StartState))
	for i, r := range cfg.StartState {
		if err := e.checkRow(r); err != nil {
			return nil, fmt.Errorf("start state row %d: %s", i+1, err.Msg)
		}
		vi, _ := e.vnodeIndex(r)
		start[i] = placed{vi, i, r}
	}
	order := func(a, b placed) int {
		if a.vi != b.vi {
			return int(a.vi - b.vi)
		}
		if c := e.world.upstream.cmpPK(a.row, b.row); c != 0 {
			return c
		}
		return a.i - b.i // file order among equal pks: the second is the duplicate
	}
	if !slices.IsSortedFunc(start, order) {
		slices.SortFunc(start, order)
	}
	for k, p := range start {
		if k > 0 && start[k-1].vi == p.vi && e.world.upstream.cmpPK(start[k-1].row, p.row) == 0 {
			return nil, fmt.Errorf("start state row %d: pk %s appears twice", p.i+1, p.row.Project(e.pk))
		}
		e.world.upstream.putPK(p.vi, p.row)
		e.state.write(true, p.vi, p.row)
	}
	e.commitState(0)
	for _, p := range cfg.StartProgress {
		if p.Vnode < 0 || p.Vnode >= cfg.VnodeCount || e.vidx[p.Vnode] < 0 {
			return nil, fmt.Errorf("start progress names vnode %d, which the actor does not own", p.Vnode)
		}
		if len(p.Pos) != len(e.pk) {
			return nil, fmt.Errorf("start progress of vnode %d: pos has %d values, the pk has %d", p.Vnode, len(p.Pos), len(e.pk))
		}
		if e.progTab.get(e.vidx[p.Vnode]) != nil {
			return nil, fmt.Errorf("start progress names vnode %d twice", p.Vnode)
		}
		e.progTab.put(e.vidx[p.Vnode], p)
	}
	// downstream already holds every start row the persisted progress has passed
	e.loadProgress()
	e.world.upstream.each(func(vi OwnedIndex, en rsEntry) bool {
		if e.passed(en.row) {
			e.world.down.add(vi, en.row, 1)
		}
		return true
	})
	loaded := e.dur.loaded
	e.unloadProgress()
	e.dur = durable{epoch: 0, state: e.state.version(), progress: e.progTab.clone(), down: e.world.down.share(), upstream: e.world.upstream.share(), loaded: loaded}
	e.check.result = Invariant{Status: "unchecked"}
	return e, nil
}

// SetNarration turns the plain-words explanations on or off (off for benchmarks and exploration).
func (e *Engine) SetNarration(on bool) { e.narration.on = on }

// Narrating reports whether the explanations are on.
func (e *Engine) Narrating() bool { return e.narration.on }

// DurableEpoch is the epoch of the last checkpoint (0: none yet); CommittedEpoch the state
// table's last commit, a checkpoint or not.
func (e *Engine) DurableEpoch() int64 { return e.dur.epoch }

// CommittedEpoch: see DurableEpoch.
func (e *Engine) CommittedEpoch() int64 { return e.state.epoch }

// DurableProgress is the progress table as the last checkpoint made it durable (read-only).
func (e *Engine) DurableProgress() *ProgressTable { return e.dur.progress }

// Owned lists the actor's vnodes, ascending (read-only).
func (e *Engine) Owned() []int { return e.owned }

// HeldFates says, for each row the last barrier held back (no vnode in progress), in buffer
// order, what becomes of it.
func (e *Engine) HeldFates() []string { return e.narration.heldFates }

// Marks lists the timeline's marks so far (barriers, ends, errors, recoveries, a broken invariant).
func (e *Engine) Marks() []Mark { return e.narration.marks }

// Config returns the engine's configuration.
func (e *Engine) Config() *Config { return e.cfg }

// Phase returns the executor's phase.
func (e *Engine) Phase() Phase { return e.phase }

// StepCount returns how many steps have been applied.
func (e *Engine) StepCount() int { return e.step }

// Failure returns what stopped the executor, or nil.
func (e *Engine) Failure() *Failure { return e.failure }

// Explanations returns the explanations of the last step.
func (e *Engine) Explanations() []Explanation { return e.narration.explanations }

// Outputs returns every message the executor emitted so far (read-only).
func (e *Engine) Outputs() []Output { return e.outputs }

// SnapshotRemaining returns how many items the snapshot can still deliver (0 when none is open).
func (e *Engine) SnapshotRemaining() int {
	if e.phase != PhaseBackfilling || e.snap == nil {
		return 0
	}
	return e.snap.Remaining()
}

// Clone returns an independent copy; stepping one never changes the other.
func (e *Engine) Clone() *Engine {
	c := *e
	c.state = e.state.clone()
	c.progTab = e.progTab.clone()
	if e.progress != nil {
		c.progress = e.progress.Share()
		c.tally.unread = e.tally.unread.Share()
	}
	if e.builders != nil {
		c.builders = e.builders.Share()
	}
	c.buffer = slices.Clone(e.buffer)
	if e.snap != nil {
		c.snap = e.snap.clone()
	}
	c.reports = e.reports[:len(e.reports):len(e.reports)]
	c.outputs = e.outputs[:len(e.outputs):len(e.outputs)]
	if e.failure != nil {
		f := *e.failure
		c.failure = &f
	}
	c.tally.progChanged = slices.Clone(e.tally.progChanged)
	c.world.upstream = e.world.upstream.share()
	c.world.down = e.world.down.share()
	c.check.dirty = slices.Clone(e.check.dirty)
	c.check.parts = e.check.parts.Share()
	c.narration.explanations = slices.Clone(e.narration.explanations)
	c.narration.marks = e.narration.marks[:len(e.narration.marks):len(e.narration.marks)]
	c.narration.rollbacks = e.narration.rollbacks[:len(e.narration.rollbacks):len(e.narration.rollbacks)]
	c.scale.placed = nil // scratch: never shared
	return &c
}

// vnodeIndex places a row and returns its owned index (-1 when not owned).
func (e *Engine) vnodeIndex(r Row) (OwnedIndex, int) {
	v, err := e.cfg.Vnode(r)
	if err != nil {
		return -1, -1
	}
	return e.vidx[v], v
}

// Apply feeds one step. An *InputError means the step is invalid and nothing changed.
func (e *Engine) Apply(s Step) error {
	if err := e.validate(s); err != nil {
		return err
	}
	if err := e.checkWork(s); err != nil {
		return err
	}
	e.cost.work += e.stepWork(s)
	e.apply(s)
	return nil
}

// apply feeds one step that validate accepted (or that a workload generated).
func (e *Engine) apply(s Step) {
	e.step++
	e.narration.explanations = e.narration.explanations[:0:0]
	e.narration.skipped = false
	switch s.Kind {
	case EventRecover:
		e.recover()
	case EventSnapshotError:
		e.explain(siteSnapshotError, "The upstream has nothing ready (the select tries it first: lines %s), so the executor reads the snapshot stream; reading the state table fails, and the stream yields that error%s.", e.raceLines(), prefixed("; ", e.lostWork()))
		e.fail(FailSnapshotError, s.Message, siteFailSnapError)
	case EventSnapshot:
		e.deliverSnapshot(s.Count)
	default:
		if s.Kind == EventError && e.narration.on {
			e.exchangeClosed(s.Message)
		}
		e.deliver(s)
	}
}

// deliverSnapshot delivers the snapshot's next count items (the upstream has nothing ready).
func (e *Engine) deliverSnapshot(count int) {
	if e.job.paused && !e.upEnded {
		e.explain(sitePausedSnapshot, "The job is paused (since barrier e%d), and this executor ignores that: the upstream has nothing ready, so the snapshot delivers.", e.job.pausedAt)
	}
	e.narration.quietRows = 0
	if !e.narration.on {
		e.snapshotItems(count)
		return
	}
	for i := 0; i < count; i++ {
		// in a long run, narrate the first two and the last item and sum up the rest
		e.narration.quietRow = count > 6 && i >= 2 && i < count-1
		if i == count-1 && e.narration.quietRows > 0 {
			e.explain(siteRowsSummary, "… %s more went into their builders the same way (the snapshot lanes show them) …", Plural(e.narration.quietRows, "row"))
		}
		e.snapshotItem()
	}
	e.narration.quietRow = false
}

// deliver hands an upstream message to the executor in its current phase.
func (e *Engine) deliver(s Step) {
	if s.Kind == EventChunk {
		e.placeChunk(s.Chunk)
		e.applyToUpstream(s.Chunk)
	}
	if s.Kind == EventBarrier {
		e.lastEpoch = s.Barrier.Epoch
	}
	was := e.phase
	switch e.phase {
	case PhaseStarting:
		e.onFirstMessage(s)
	case PhaseBuffering:
		e.onBuffering(s)
	case PhaseBackfilling:
		e.onBackfillUpstream(s)
	case PhaseCompleting:
		e.onCompleting(s)
	case PhaseForwarding:
		e.onForwarding(s)
	}
	if s.Kind == EventBarrier && e.stopping(s.Barrier) && e.phase != PhaseFailed {
		e.actorStops(s.Barrier, was)
	}
}

// fail stops the executor with an error (or a panic) of the given kind; the site cites where
// the executor does it.
func (e *Engine) fail(kind FailureKind, msg string, site *Site) {
	panicked := kind.Panics()
	e.narration.failKind = kind
	e.narration.failLeft = e.captureLeftBehind()
	e.phase = PhaseFailed
	e.failure = &Failure{Message: msg, Panic: panicked, Step: e.step}
	e.check.result = Invariant{Status: "unchecked", Step: e.step, Epoch: e.epoch, Text: "not checked: the executor failed; recover to continue"}
	e.narration.marks = append(e.narration.marks, Mark{Step: e.step, Kind: "error"})
	verb := "fails with"
	if panicked {
		verb = "panics:"
	}
	e.explain(site, "The executor %s %q. Its stream stops here: nothing more is emitted.", verb, msg)
	if panicked {
		e.explain(sitePanicAbort, "The panic is not caught, so the panic hook aborts the compute node's process: actor %d and every other actor on that node die at once. %s", e.cfg.Actor, PanicNodeWords)
	}
}
