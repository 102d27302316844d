package engine

import (
	"encoding/json"
	"math"
	"sort"
)

// DefaultExploreStates bounds the distinct states the explorer visits by default.
const DefaultExploreStates = 100_000

// Outcome is one distinct end of a scenario's schedules.
type Outcome struct {
	Phase         string    `json:"phase"`
	Error         *Failure  `json:"error"`
	Violated      bool      `json:"violated"` // the invariant failed at some barrier on the way
	Invariant     Invariant `json:"invariant"`
	Downstream    []Row     `json:"downstream"`
	ProgressTable [][]any   `json:"progress_table"`
	Schedules     uint64    `json:"schedules"` // how many schedules end here (saturating)
	Example       []Step    `json:"-"`         // one schedule that ends here: every step, snapshot deliveries one item each
	key           string
}

// Exploration is what the interleaving explorer found.
type Exploration struct {
	Schedules     uint64    `json:"schedules"`      // schedules explored (saturating at 2^64-1)
	States        int       `json:"states"`         // distinct states visited
	Capped        bool      `json:"capped"`         // the state bound was reached: the counts are a lower bound
	InvariantHeld bool      `json:"invariant_held"` // in every schedule explored
	Outcomes      []Outcome `json:"outcomes"`       // most schedules first
}

// exampleNode is a shared suffix of an example schedule.
type exampleNode struct {
	step Step
	next *exampleNode
}

type partial struct {
	count   uint64
	example *exampleNode
}

type explorer struct {
	seq      []Step // upstream messages and recoveries, in order
	memo     map[string]map[string]partial
	outcomes map[string]*Outcome
	max      int
	capped   bool
}

// Explore enumerates every order in which a script's upstream messages (and recoveries) and
// the snapshot's deliveries can interleave: each keeps its own order, and the snapshot delivers
// only while the executor backfills. Equal states are explored once (their schedules are
// counted, not repeated). maxStates bounds the distinct states (0: DefaultExploreStates).
func Explore(base *Engine, script []Step, maxStates int) *Exploration {
	if maxStates <= 0 {
		maxStates = DefaultExploreStates
	}
	x := &explorer{memo: map[string]map[string]partial{}, outcomes: map[string]*Outcome{}, max: maxStates}
	for _, s := range script {
		if s.Kind != EventSnapshot {
			s.Note, s.Pause = "", false
			x.seq = append(x.seq, s)
		}
	}
	e := base.Clone()
	e.SetNarration(false)
	res := x.visit(e, 0, false)
	r := &Exploration{States: len(x.memo), Capped: x.capped, InvariantHeld: true}
	for key, p := range res {
		o := x.outcomes[key]
		o.Schedules = p.count
		for n := p.example; n != nil; n = n.next {
			o.Example = append(o.Example, n.step)
		}
		r.Schedules = addSat(r.Schedules, p.count)
		if o.Violated {
			r.InvariantHeld = false
		}
		r.Outcomes = append(r.Outcomes, *o)
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

var snapshotOne = Step{Kind: EventSnapshot, Count: 1}

// visit returns, for the schedules from this state, each reachable outcome with its count and
// one example.
func (x *explorer) visit(e *Engine, i int, violated bool) map[string]partial {
	violated = violated || e.inv.Status == "violated"
	key := e.stateKey() + "#" + string(rune('0'+btoi(violated))) + "#" + itoa(i)
	if r, ok := x.memo[key]; ok {
		return r
	}
	res := map[string]partial{}
	merge := func(s Step, sub map[string]partial) {
		for k, p := range sub {
			q := res[k]
			if q.example == nil {
				q.example = &exampleNode{step: s, next: p.example}
			}
			q.count = addSat(q.count, p.count)
			res[k] = q
		}
	}
	moved := false
	if len(x.memo) < x.max {
		if i < len(x.seq) {
			next := e.Clone()
			if next.Apply(x.seq[i]) == nil {
				moved = true
				merge(x.seq[i], x.visit(next, i+1, violated))
			}
		}
		if e.SnapshotRemaining() > 0 {
			next := e.Clone()
			if next.Apply(snapshotOne) == nil {
				moved = true
				merge(snapshotOne, x.visit(next, i, violated))
			}
		}
	} else {
		x.capped = true
	}
	if !moved {
		o := x.outcome(e, violated)
		res[o.key] = partial{count: 1}
	}
	x.memo[key] = res
	return res
}

// outcome describes where a schedule ended.
func (x *explorer) outcome(e *Engine, violated bool) *Outcome {
	t := e.Trace()
	o := &Outcome{Phase: t.Phase, Error: t.Error, Violated: violated, Invariant: e.inv, Downstream: t.Downstream, ProgressTable: t.ProgressTable}
	if o.Error != nil {
		f := *o.Error
		f.Step = 0 // where it happened differs between schedules; what happened does not
		o.Error = &f
	}
	b, _ := json.Marshal(struct {
		P string
		E *Failure
		V bool
		S string
		D []Row
		T [][]any
	}{o.Phase, o.Error, o.Violated, o.Invariant.Status, o.Downstream, o.ProgressTable})
	o.key = string(b)
	if prev, ok := x.outcomes[o.key]; ok {
		return prev
	}
	x.outcomes[o.key] = o
	return o
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func itoa(i int) string {
	var k keyWriter
	k.int(int64(i))
	return string(k)
}
