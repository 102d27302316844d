package session

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/timeline"
	"github.com/backfill-explainer/explainer/view"
)

// Run is one of the two runs compare lays side by side: the open run as it is, under another bug
// mode or another RisingWave release, or another script of the same scenario. An empty field
// keeps the open run's.
type Run struct {
	Bug     string `json:"bug"`     // a bug mode's name, "none" for none; "" keeps the open run's
	Text    string `json:"text"`    // a scenario text of the same scenario; "" keeps the open run's script
	Release string `json:"release"` // a release ("v3.0"); "" keeps the open run's (engine.Releases)
	Create  string `json:"create"`  // foreground or background; "" keeps the open run's
}

// Stages is two runs of one scenario laid side by side, step by step: their labels, and the
// steps at which their stages differ, with the panels that differ there.
type Stages struct {
	Left   string      `json:"left"` // a label: "as RisingWave does it", the bug mode, "this run"
	Right  string      `json:"right"`
	Steps  int         `json:"steps"` // the longer run's steps (the shorter stays at its end)
	Differ []StepDiffs `json:"differ"`
	left   *Session
	right  *Session
}

// StepDiffs names the panels (the keys of the view's `changed`) in which the two runs differ
// after a step.
type StepDiffs struct {
	Step   int      `json:"step"`
	Panels []string `json:"panels"`
}

// Differs says how the two runs' views at one step differ: the panels (keyed as the view's
// `changed`), the vnodes within them (as `changed_vnodes`), and the downstream rows only one
// run holds.
type Differs struct {
	Panels    view.Changed       `json:"panels"`
	Vnodes    view.ChangedVnodes `json:"vnodes"`
	OnlyLeft  []engine.Row       `json:"only_left"`
	OnlyRight []engine.Row       `json:"only_right"`
}

// StagesAt is both runs' views after step n (a shorter run's at its end) and how they differ.
type StagesAt struct {
	Step    int        `json:"step"`
	Left    *view.View `json:"left"`
	Right   *view.View `json:"right"`
	Differs Differs    `json:"differs"`
}

// Stages lays two runs of this session's scenario side by side. Each run's script plays whole:
// under a bug mode it was not written for, a step that no longer fits is adapted (SetBug).
func (s *Session) Stages(left, right Run) (*Stages, error) {
	l, err := s.runOf(left)
	if err != nil {
		return nil, fmt.Errorf("left run: %w", err)
	}
	r, err := s.runOf(right)
	if err != nil {
		return nil, fmt.Errorf("right run: %w", err)
	}
	st := &Stages{Left: label(l.Scenario.Config), Right: label(r.Scenario.Config), Steps: max(l.Steps(), r.Steps()), Differ: []StepDiffs{}, left: l, right: r}
	if lr, rr := l.Scenario.Config.RunRelease(), r.Scenario.Config.RunRelease(); lr != rr {
		// the runs differ in their release: each is named by it, and by its bug mode when that differs too
		ll, rl := st.Left, st.Right
		st.Left, st.Right = lr.Name, rr.Name
		if ll != rl {
			st.Left, st.Right = lr.Name+", "+ll, rr.Name+", "+rl
		}
	} else if lc, rc := l.Scenario.Config.Create, r.Scenario.Config.Create; lc != rc {
		st.Left, st.Right = lc.String(), rc.String() // foreground beside background
	} else if st.Left == st.Right {
		st.Left, st.Right = "this run", "the other run"
	}
	for n := 0; n <= st.Steps; n++ {
		at, err := st.At(n)
		if err != nil {
			return nil, err
		}
		if p := panelNames(at.Differs.Panels); len(p) > 0 {
			st.Differ = append(st.Differ, StepDiffs{Step: n, Panels: p})
		}
	}
	return st, nil
}

// runOf makes a session of its own for one run.
func (s *Session) runOf(run Run) (*Session, error) {
	var r *Session
	if run.Text != "" {
		var err error
		if r, err = Load("", []byte(run.Text)); err != nil {
			return nil, err
		}
	} else {
		r = s.fork()
	}
	if run.Bug != "" {
		if err := r.SetBug(run.Bug); err != nil {
			return nil, err
		}
	}
	// (after the bug mode: SetBug decides anew whether the script is adapted; SetRelease then
	// adapts it too under a release it was not written for)
	if run.Release != "" {
		if err := r.SetRelease(run.Release); err != nil {
			return nil, err
		}
	}
	if run.Create != "" {
		if err := r.SetCreate(run.Create); err != nil {
			return nil, err
		}
	}
	return r, r.Goto(0)
}

// fork is a session of its own on this session's run (its script, bug mode and choices).
func (s *Session) fork() *Session {
	f := *s
	f.tl = timeline.New(s.base, append([]engine.Step(nil), s.tl.Script()...), f.format)
	f.tl.Branched, f.tl.Adapt, f.tl.NoteCaveat, f.tl.NoteFor = s.tl.Branched, s.tl.Adapt, s.tl.NoteCaveat, s.tl.NoteFor
	return &f
}

// At is both runs after step n.
func (st *Stages) At(n int) (*StagesAt, error) {
	if n < 0 || n > st.Steps {
		return nil, fmt.Errorf("compare: step %d is out of range 0..%d", n, st.Steps)
	}
	if err := st.left.Goto(min(n, st.left.Steps())); err != nil {
		return nil, err
	}
	if err := st.right.Goto(min(n, st.right.Steps())); err != nil {
		return nil, err
	}
	l, r := st.left.View(), st.right.View()
	return &StagesAt{Step: n, Left: l, Right: r, Differs: viewDiffers(l, r, st.left.Trace().Downstream, st.right.Trace().Downstream)}, nil
}

// viewDiffers compares two views panel by panel (the stage's panels; not the narration, which
// tells each run's step in its own words).
func viewDiffers(l, r *view.View, ld, rd []engine.Row) Differs {
	eq := reflect.DeepEqual
	d := Differs{Panels: view.Changed{
		Phase:           l.Phase != r.Phase,
		Epoch:           l.Epoch != r.Epoch,
		UpstreamNext:    !eq(l.Upstream.Next, r.Upstream.Next) || l.Upstream.More != r.Upstream.More || l.Upstream.Ended != r.Upstream.Ended,
		UpstreamContent: !eq(l.Upstream.Content, r.Upstream.Content),
		Snapshot:        !eq(l.Snapshot, r.Snapshot),
		Buffer:          !eq(l.Buffer, r.Buffer),
		Builders:        !eq(l.Builders, r.Builders),
		Progress:        !eq(l.Progress, r.Progress),
		StateTable:      !eq(l.StateTable, r.StateTable),
		ProgressTable:   !eq(l.ProgressTable, r.ProgressTable),
		Outputs:         l.OutputsTotal != r.OutputsTotal || !eq(l.Outputs, r.Outputs),
		Downstream:      !eq(l.Downstream, r.Downstream),
		Invariant:       !eq(l.Invariant, r.Invariant),
		Fatal:           !eq(l.Error, r.Error),
	}}
	var lanes [2][]engine.LaneView
	for i, v := range []*view.View{l, r} {
		if v.Snapshot != nil {
			lanes[i] = v.Snapshot.Vnodes
		}
	}
	d.Vnodes = view.ChangedVnodes{
		Snapshot:             vnodesDiffer(lanes[0], lanes[1], func(x engine.LaneView) int { return x.Vnode }),
		Builders:             vnodesDiffer(l.Builders, r.Builders, func(x view.BuilderView) int { return x.Vnode }),
		Progress:             vnodesDiffer(l.Progress, r.Progress, func(x view.ProgressView) int { return x.Vnode }),
		StateTable:           slices.Compact(slices.Sorted(slices.Values(append(vnodesDiffer(l.StateTable.Rows, r.StateTable.Rows, func(x view.VnodeRow) int { return x.Vnode }), vnodesDiffer(l.StateTable.Pending, r.StateTable.Pending, func(x view.PendingRow) int { return x.Vnode })...)))),
		ProgressTable:        vnodesDiffer(l.ProgressTable.Rows, r.ProgressTable.Rows, tupleVnode),
		ProgressTableDurable: vnodesDiffer(l.ProgressTable.Durable, r.ProgressTable.Durable, tupleVnode),
	}
	d.OnlyLeft, d.OnlyRight = diffRows(ld, rd)
	return d
}

// tupleVnode is a progress-table row's vnode (its first column, engine.progressColumns).
func tupleVnode(t []any) int {
	if len(t) > 0 {
		switch v := t[0].(type) {
		case int:
			return v
		case int64:
			return int(v)
		}
	}
	return -1
}

// vnodesDiffer lists, sorted, the vnodes whose items differ between a and b (an item only one
// side has differs).
func vnodesDiffer[T any](a, b []T, vnode func(T) int) []int {
	group := func(xs []T) map[int][]T {
		m := map[int][]T{}
		for _, x := range xs {
			m[vnode(x)] = append(m[vnode(x)], x)
		}
		return m
	}
	ga, gb := group(a), group(b)
	out := []int{}
	for v, xs := range ga {
		if !reflect.DeepEqual(xs, gb[v]) {
			out = append(out, v)
		}
	}
	for v := range gb {
		if _, ok := ga[v]; !ok {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// panelNames lists the panels flagged, as the view's `changed` keys, in the stage's order.
func panelNames(c view.Changed) []string {
	out := []string{}
	for _, p := range []struct {
		on   bool
		name string
	}{
		{c.Phase, "phase"}, {c.Epoch, "epoch"}, {c.UpstreamNext, "upstream_next"}, {c.Snapshot, "snapshot"},
		{c.UpstreamContent, "upstream_content"}, {c.Buffer, "buffer"}, {c.Builders, "builders"},
		{c.Progress, "progress"}, {c.StateTable, "state_table"}, {c.ProgressTable, "progress_table"},
		{c.Outputs, "outputs"}, {c.Downstream, "downstream"}, {c.Invariant, "invariant"}, {c.Fatal, "fatal"},
	} {
		if p.on {
			out = append(out, p.name)
		}
	}
	return out
}
