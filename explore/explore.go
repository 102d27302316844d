// Package explore is the interleaving explorer: it runs every order in which a scenario's
// upstream messages and the snapshot's deliveries can interleave and reports the distinct
// outcomes. It drives the model from outside (engine.Engine's Clone, Apply, StateKey and
// OutcomeKey).
package explore

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/backfill-explainer/explainer/engine"
)

// DefaultExploreStates bounds the distinct states the explorer visits by default.
const DefaultExploreStates = 100_000

// DefaultExploreBytes bounds the memory the explorer holds by default (an estimate of what it
// keeps: its table of states, their outcomes and example schedules, and the engine copies on
// its path). The page's worker has a few hundred megabytes at most.
const DefaultExploreBytes = 256 << 20

// The most a budget may ask for: MaxExploreStates states, MaxExploreBytes bytes (1 TiB).
const (
	MaxExploreStates = 100_000_000
	MaxExploreBytes  = 1 << 40
)

// Estimated sizes of what the explorer keeps, in bytes (measured on amd64; a budget, not an
// accounting of the Go heap).
const (
	exploreStateBytes   = 96   // a table entry: the state's 16-byte key, map overhead, a slice header
	exploreResultBytes  = 40   // one outcome of a state: its id, count and example link
	exploreExampleBytes = 24   // one step of an example schedule
	exploreFrameBytes   = 8192 // an engine copy on the search's path (copies share almost everything)
)

// ExploreBudget bounds an exploration. A zero field takes its default.
type ExploreBudget struct {
	States int   `json:"states"` // the most distinct states to visit
	Bytes  int64 `json:"bytes"`  // the most memory to hold (estimated)
	Work   int64 `json:"work"`   // the most work to do (see exploreMoveWork)
}

// DefaultExploreWork bounds the explorer's work by default: each move costs exploreMoveWork,
// the engine's work it does and the bytes of the state's encoding it hashes, so that the time
// is bounded by more than the state count (an 800 KB scenario took 31 s within the default
// state bound). 2×10^8 units are about 100,000 states of a 250 KB scenario: a few seconds.
const DefaultExploreWork = 200_000_000

// exploreMoveWork is what a move costs besides the bytes it hashes (a copy of the engine), and
// exploreEngineWork what a unit of the engine's work costs (engine.Engine.Work: a chunk row, a
// snapshot item delivered, a vnode completed…).
const (
	exploreMoveWork   = 1024
	exploreEngineWork = 256
)

// Outcome is one distinct end of a scenario's schedules.
type Outcome struct {
	Phase         string           `json:"phase"`
	Error         *engine.Failure  `json:"error"`
	Violated      bool             `json:"violated"` // the invariant failed at some barrier on the way
	Invariant     engine.Invariant `json:"invariant"`
	Downstream    []engine.Row     `json:"downstream"`
	ProgressTable [][]any          `json:"progress_table"`
	Schedules     uint64           `json:"schedules"` // how many schedules end here (saturating)
	Example       []engine.Step    `json:"-"`         // one schedule that ends here: every step, snapshot deliveries one item each
	key           string
}

// Exploration is what the interleaving explorer found.
type Exploration struct {
	Schedules     uint64        `json:"schedules"`      // complete schedules explored (saturating at 2^64-1)
	States        int           `json:"states"`         // distinct states visited
	Capped        bool          `json:"capped"`         // a budget stopped the search: the counts are a lower bound
	Exhaustive    bool          `json:"exhaustive"`     // every schedule was explored (not capped)
	Stopped       string        `json:"stopped"`        // why the search stopped early, for people ("" when exhaustive)
	Budget        ExploreBudget `json:"budget"`         // the budget it ran under
	Work          int64         `json:"work"`           // the work it did
	Bytes         int64         `json:"bytes"`          // the memory it held at most (estimated)
	InvariantHeld bool          `json:"invariant_held"` // in every schedule explored
	Outcomes      []Outcome     `json:"outcomes"`       // most schedules first
}

// exampleNode is a shared suffix of an example schedule: the step (an index into the upstream
// sequence, or -1 for one snapshot delivery) and what follows.
type exampleNode struct {
	step int32
	next *exampleNode
}

// result is one outcome reachable from a state: how many schedules reach it and one example.
type result struct {
	id      int32
	count   uint64
	example *exampleNode
}

// stateKey is a state's identity: a 128-bit digest of its canonical encoding (digestOf, FNV-1a
// with 128 bits, mixed). The search only needs two different states not to meet by chance among
// the at most budget.States it visits: the encoding is made of the engine's own values and its
// row digests (the same 128-bit digests), nothing chosen to collide, and two of even 10^7 states
// share a key with a probability near 10^-25. A cryptographic hash buys resistance to crafted
// collisions, which no one here has a reason to make (a crafted scenario could only miscount
// its own exploration), at the price of crypto/sha256 and its FIPS packages in the wasm and a
// slower hash there, where it has no hardware help.
type stateKey = engine.StateKey

// frame is a state on the search's path.
type frame struct {
	e        *engine.Engine // nil once both moves from it were tried
	i        int            // next upstream message
	violated bool
	key      stateKey
	tried    int   // moves tried: 0, 1 (the upstream's), 2 (the snapshot's too)
	moved    bool  // some move was possible
	via      int32 // the move that led here from the frame below (see exampleNode)
	res      []result
}

type explorer struct {
	seq      []engine.Step // upstream messages and recoveries, in order
	memo     map[stateKey][]result
	outcomes []*Outcome
	byKey    map[string]int32
	budget   ExploreBudget
	bytes    int64 // held now (estimated)
	work     int64 // done so far
	peak     int64
	capped   string // why the search stopped early
	buf      []byte
	root     *frame
}

// Explore enumerates every order in which a script's upstream messages (and recoveries) and the
// snapshot's deliveries can interleave, within the default memory budget and at most maxStates
// distinct states (0: DefaultExploreStates). See ExploreWithin.
func Explore(base *engine.Engine, script []engine.Step, maxStates int) *Exploration {
	return ExploreWithin(base, script, ExploreBudget{States: maxStates})
}

// ExploreWithin enumerates every order in which a script's upstream messages (and recoveries)
// and the snapshot's deliveries can interleave: each keeps its own order, and the snapshot
// delivers only while the executor backfills. Equal states are explored once (their schedules
// are counted, not repeated). The search is depth-first with its own stack, keeps an engine
// copy only for the states on its path that still have a move to try, and counts a state when
// it first meets it: when the next state would exceed the budget (states, or estimated bytes),
// it stops making new states, finishes the ones on its path and reports that it stopped
// (Capped, Stopped); the counts are then those of the schedules it completed.
func ExploreWithin(base *engine.Engine, script []engine.Step, budget ExploreBudget) *Exploration {
	if budget.States <= 0 {
		budget.States = DefaultExploreStates
	}
	if budget.Bytes <= 0 {
		budget.Bytes = DefaultExploreBytes
	}
	x := newExplorer(base, script, budget)
	res := x.search(x.root)
	return x.report(res)
}

func newExplorer(base *engine.Engine, script []engine.Step, budget ExploreBudget) *explorer {
	if budget.Work <= 0 {
		budget.Work = DefaultExploreWork
	}
	x := &explorer{memo: map[stateKey][]result{}, byKey: map[string]int32{}, budget: budget}
	for _, s := range script {
		if s.Kind != engine.EventSnapshot {
			s.Note, s.Pause = "", false
			x.seq = append(x.seq, s)
		}
	}
	e := base.Clone()
	e.SetNarration(false)
	e.SetWorkLimit(0) // the budget bounds the search; a limit would hide schedules
	e.ForgetHistory()
	x.root = x.enter(e, 0, false, -1)
	return x
}

// report turns the root's results into the exploration.
func (x *explorer) report(res []result) *Exploration {
	budget := x.budget
	r := &Exploration{States: len(x.memo), Capped: x.capped != "", Exhaustive: x.capped == "", Stopped: x.capped,
		Budget: budget, Bytes: x.peak, Work: x.work, InvariantHeld: true, Outcomes: []Outcome{}}
	for _, p := range res {
		o := *x.outcomes[p.id]
		o.Schedules = p.count
		for n := p.example; n != nil; n = n.next {
			if n.step < 0 {
				o.Example = append(o.Example, snapshotOne)
			} else {
				o.Example = append(o.Example, x.seq[n.step])
			}
		}
		r.Schedules = addSat(r.Schedules, p.count)
		if o.Violated {
			r.InvariantHeld = false
		}
		r.Outcomes = append(r.Outcomes, o)
	}
	sort.Slice(r.Outcomes, func(i, j int) bool {
		a, b := r.Outcomes[i], r.Outcomes[j]
		if a.Schedules != b.Schedules {
			return a.Schedules > b.Schedules
		}
		return a.key < b.key
	})
	return r
}

func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

var snapshotOne = engine.Step{Kind: engine.EventSnapshot, Count: 1}

// keyOf is the state's identity: a hash of its canonical encoding, the invariant's history and
// the next upstream message.
func (x *explorer) keyOf(e *engine.Engine, i int, violated bool) stateKey {
	var k stateKey
	x.buf, k = e.StateKey(x.buf, violated, i)
	x.work += exploreMoveWork + int64(len(x.buf))
	return k
}

// enter makes the frame of a state reached by move via.
func (x *explorer) enter(e *engine.Engine, i int, violated bool, via int32) *frame {
	violated = violated || e.Invariant().Status == "violated"
	return &frame{e: e, i: i, violated: violated, key: x.keyOf(e, i, violated), via: via}
}

// room reports whether one more state fits the budget, and notes why not.
func (x *explorer) room() bool {
	switch {
	case x.capped != "":
		return false
	case len(x.memo) >= x.budget.States:
		x.capped = fmt.Sprintf("stopped at the budget of %d states, not exhaustive: the counts are those of the schedules explored", x.budget.States)
	case x.work > x.budget.Work:
		x.capped = fmt.Sprintf("stopped at the work budget (%d units), not exhaustive: the counts are those of the schedules explored", x.budget.Work)
	case x.bytes+exploreStateBytes+exploreFrameBytes > x.budget.Bytes:
		x.capped = fmt.Sprintf("stopped at the memory budget (%d MiB, estimated), not exhaustive: the counts are those of the schedules explored", x.budget.Bytes>>20)
	default:
		return true
	}
	return false
}

func (x *explorer) hold(n int64) {
	x.bytes += n
	x.peak = max(x.peak, x.bytes)
}

// search explores from root and returns its results.
func (x *explorer) search(root *frame) []result {
	x.memo[root.key] = nil // counted on entry
	x.hold(exploreStateBytes + exploreFrameBytes)
	stack := []*frame{root}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		if f.tried < 2 {
			child := x.move(f)
			if child != nil {
				stack = append(stack, child)
			}
			continue
		}
		// both moves tried: the state is done
		if !f.moved {
			f.res = []result{{id: x.outcome(f.e, f.violated), count: 1}}
		}
		f.e = nil
		x.hold(-exploreFrameBytes + int64(len(f.res))*exploreResultBytes)
		x.memo[f.key] = f.res
		stack = stack[:len(stack)-1]
		if len(stack) > 0 {
			x.merge(stack[len(stack)-1], f.via, f.res)
		}
	}
	return root.res
}

// move tries the frame's next move (the upstream's next message, then one snapshot delivery)
// and returns the new state's frame, or nil when the move was impossible, led to a state
// already explored (merged at once) or no longer fits the budget.
func (x *explorer) move(f *frame) *frame {
	f.tried++
	var s engine.Step
	var via int32 = -1
	i := f.i
	switch f.tried {
	case 1:
		if f.i >= len(x.seq) {
			return nil
		}
		s, via, i = x.seq[f.i], int32(f.i), f.i+1
	default:
		if f.e.SnapshotRemaining() == 0 {
			return nil
		}
		s = snapshotOne
	}
	next := f.e.Clone()
	before := next.Work()
	err := next.Apply(s)
	x.work += exploreEngineWork * (next.Work() - before)
	if err != nil {
		return nil
	}
	f.moved = true
	if f.tried == 2 {
		f.e = nil // the last move: the engine is no longer needed
	}
	next.ForgetHistory()
	c := x.enter(next, i, f.violated, via)
	if res, seen := x.memo[c.key]; seen {
		x.merge(f, via, res)
		return nil
	}
	if !x.room() {
		return nil // unexplored: this schedule is not counted
	}
	x.memo[c.key] = nil
	x.hold(exploreStateBytes + exploreFrameBytes)
	return c
}

// merge adds the results of a state reached by move via to the frame's.
func (x *explorer) merge(f *frame, via int32, sub []result) {
	for _, p := range sub {
		k, found := slices.BinarySearchFunc(f.res, p.id, func(r result, id int32) int { return int(r.id) - int(id) })
		if !found {
			f.res = slices.Insert(f.res, k, result{id: p.id, example: &exampleNode{step: via, next: p.example}})
			x.hold(exploreExampleBytes)
		}
		f.res[k].count = addSat(f.res[k].count, p.count)
	}
}

// outcome describes where a schedule ended and returns its id. An outcome is known by a digest
// of what makes it (so a schedule's end costs what changed, not every row downstream holds);
// its description is made once, when it is first met.
func (x *explorer) outcome(e *engine.Engine, violated bool) int32 {
	k := e.OutcomeKey(x.buf[:0], violated)
	x.buf = k
	id, ok := x.byKey[string(k)]
	if ok {
		return id
	}
	t := e.Trace()
	o := &Outcome{Phase: t.Phase, Error: t.Error, Violated: violated, Invariant: e.Invariant(), Downstream: t.Downstream, ProgressTable: t.ProgressTable}
	if o.Error != nil {
		f := *o.Error
		f.Step = 0 // where it happened differs between schedules; what happened does not
		o.Error = &f
	}
	b := outcomeKey(o)
	o.key = string(b)
	o.Invariant.Text = lastCheckText(o.Invariant, len(o.Downstream))
	id = int32(len(x.outcomes))
	x.outcomes = append(x.outcomes, o)
	x.byKey[string(k)] = id
	x.hold(int64(3*len(b) + len(k))) // the keys, the outcome's rows and tables
	return id
}
