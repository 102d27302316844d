package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/explore"
	"github.com/backfill-explainer/explainer/scenarios"
)

// Export is the current run as files: a scenario that replays it exactly (injected events and
// choices included) and its trace.
type Export struct {
	Scenario string       `json:"scenario"`
	Trace    engine.Trace `json:"trace"`
	// Positions[n] is the step of Scenario that matches step n of this run. They differ only
	// when steps that could not happen in this run are left out of the file.
	Positions []int `json:"positions"`
	// Whole is the trace of the whole run, every step of the script (Trace stops at this step).
	Whole engine.Trace `json:"whole_trace"`
}

// Export writes the session's current run as a scenario file that replays it exactly, and the
// trace at this step. Under a bug mode its script was not written for, the file holds the steps
// as this run played them (they must all be possible under the file's bug mode): a snapshot
// delivery that found fewer items left has the count it delivered, and a step that could not
// happen is left out, with a comment in its place saying so. A note written for another run
// (another bug mode, or the script before this run left it) keeps its caveat in the file, so
// the file never states as true of this run what was written for another.
func (s *Session) Export() Export {
	sc := s.Script()
	played, end := s.tl.Played()
	cfg := sc.Config
	steps := make([]engine.Step, 0, len(played))
	comments := map[int][]string{}
	positions := make([]int, 1, len(played)+1)
	for i, p := range played {
		if p.Skipped != "" {
			st := p.Step
			st.Note, st.Pause = "", false
			comments[len(steps)] = append(comments[len(steps)], fmt.Sprintf("step %d of the run (%s) could not happen in it: %s; it is left out", i+1, scenarios.FormatStep(cfg, st), p.Skipped))
		} else {
			st := p.Step
			if !s.Scenario.NoteWritten(st, cfg.RunRelease().Name) {
				st.Note = "" // written for another release: hidden in the run, left out of its file
			} else if st.NoteBy != nil {
				st.Note = st.NoteBy[cfg.RunRelease().Name]
			}
			st.NoteBy = nil
			if p.Caveat != "" && st.Note != "" {
				st.Note = p.Caveat + strings.TrimSpace(st.Note)
			}
			steps = append(steps, st)
		}
		positions = append(positions, len(steps))
	}
	sc.Steps = steps
	return Export{Scenario: scenarios.FormatScenarioCommented(sc, comments), Trace: s.Trace(), Positions: positions, Whole: end.Trace()}
}

// ExploreOutcome is an explorer outcome with its example schedule as scenario text.
type ExploreOutcome struct {
	explore.Outcome
	Example string `json:"example"`
	// Diff says how this outcome differs from another (explore_differs.go).
	Diff OutcomeDiff `json:"diff"`
}

// ExploreReport is the explorer's report with example schedules as scenario files.
type ExploreReport struct {
	*explore.Exploration
	Outcomes []ExploreOutcome `json:"outcomes"`
}

// Explore runs the interleaving explorer over the session's script (see explore.Explore).
func (s *Session) Explore(maxStates int) (*ExploreReport, error) {
	return s.ExploreWithin(explore.ExploreBudget{States: maxStates})
}

// ExploreWithin runs the interleaving explorer within a budget (see explore.ExploreWithin).
func (s *Session) ExploreWithin(budget explore.ExploreBudget) (*ExploreReport, error) {
	base, err := engine.New(s.Scenario.Config)
	if err != nil {
		return nil, err
	}
	x := explore.ExploreWithin(base, s.tl.Script(), budget)
	r := &ExploreReport{Exploration: x, Outcomes: []ExploreOutcome{}}
	diffs := outcomeDiffs(s.Scenario.Config, s.tl.Script(), x.Outcomes)
	for i, o := range x.Outcomes {
		sc := &scenarios.Scenario{Config: s.exampleConfig(i + 1), Steps: o.Example}
		r.Outcomes = append(r.Outcomes, ExploreOutcome{Outcome: o, Example: scenarios.FormatScenario(sc), Diff: diffs[i]})
	}
	return r, nil
}

func (s *Session) exampleConfig(n int) *engine.Config {
	cfg := *s.Scenario.Config
	cfg.Title = fmt.Sprintf("%s — explored schedule %d", cfg.Title, n)
	return &cfg
}

// CompareSide is one run's state at one step.
type CompareSide struct {
	Step       string   `json:"step"`       // what happened, in words ("" past the run's end)
	Outputs    []string `json:"outputs"`    // what it emitted at this step, ✓/✗ per row
	Progress   []string `json:"progress"`   // each vnode's progress
	Downstream int      `json:"downstream"` // rows downstream holds
	Invariant  string   `json:"invariant"`  // holds | violated | unchecked
	Phase      string   `json:"phase"`
	Error      string   `json:"error"`
}

// CompareRow is one step of two runs side by side, with what differs.
type CompareRow struct {
	Step              int          `json:"step"`
	Left              CompareSide  `json:"left"`
	Right             CompareSide  `json:"right"`
	OutputsDiffer     bool         `json:"outputs_differ"`
	ProgressDiffers   bool         `json:"progress_differs"`
	DownstreamDiffers bool         `json:"downstream_differs"`
	OnlyLeft          []engine.Row `json:"only_left"`  // downstream rows only the left run holds
	OnlyRight         []engine.Row `json:"only_right"` // and only the right
}

// Comparison is two runs of one scenario aligned by step.
type Comparison struct {
	Left  string       `json:"left"` // a label: "as RisingWave does it" or the bug mode
	Right string       `json:"right"`
	Rows  []CompareRow `json:"rows"`
}

func label(cfg *engine.Config) string {
	if info := cfg.Bug.Info(); info != nil {
		return "bug mode " + info.Name
	}
	return "as RisingWave does it"
}

// CompareBug compares this session's script as it is with the same script under a bug mode
// (or, when that bug mode is already on, without it).
func (s *Session) CompareBug(bug string) (*Comparison, error) {
	b, err := engine.ParseBug(bug)
	if err != nil {
		return nil, err
	}
	if b == s.Scenario.Config.Bug {
		b = engine.BugNone
	}
	cfg := *s.Scenario.Config
	cfg.Bug = b
	return compareRuns(s.Scenario.Config, s.tl.Script(), s.tl.Adapt, &cfg, s.tl.Script(), b != s.fileBug || s.tl.Branched)
}

// CompareText compares this session's run with another run of the same scenario written as
// scenario text (an explorer's example, an exported run).
func (s *Session) CompareText(text string) (*Comparison, error) {
	other, err := Load("", []byte(text))
	if err != nil {
		return nil, err
	}
	return compareRuns(s.Scenario.Config, s.tl.Script(), s.tl.Adapt, other.Scenario.Config, other.tl.Script(), false)
}

// compareRuns runs two scripts step by step and aligns them. A script played under another bug
// mode than it was written for is adapted (engine.Engine.Play); otherwise it runs as far as it
// can go.
func compareRuns(lc *engine.Config, ls []engine.Step, ladapt bool, rc *engine.Config, rs []engine.Step, radapt bool) (*Comparison, error) {
	le, err := engine.New(lc)
	if err != nil {
		return nil, err
	}
	re, err := engine.New(rc)
	if err != nil {
		return nil, err
	}
	c := &Comparison{Left: label(lc), Right: label(rc), Rows: []CompareRow{}}
	if c.Left == c.Right {
		c.Left, c.Right = "this run", "the other run"
	}
	// Downstream changes only by a visible emitted row, a recovery's rollback or the job's drop:
	// both downstreams are diffed again only after a step that did one of those on either side
	// (a step costs what it touches, not what came before it).
	var onlyLeft, onlyRight []engine.Row
	for i := 0; i < max(len(ls), len(rs)); i++ {
		row := CompareRow{Step: i + 1}
		var lt, rt bool
		row.Left, lt = advance(le, ls, i, ladapt)
		row.Right, rt = advance(re, rs, i, radapt)
		row.OutputsDiffer = !slices.Equal(row.Left.Outputs, row.Right.Outputs)
		row.ProgressDiffers = !slices.Equal(row.Left.Progress, row.Right.Progress)
		if i == 0 || lt || rt {
			onlyLeft, onlyRight = diffRows(le.Trace().Downstream, re.Trace().Downstream)
		}
		row.OnlyLeft, row.OnlyRight = onlyLeft, onlyRight
		row.DownstreamDiffers = len(row.OnlyLeft)+len(row.OnlyRight) > 0
		c.Rows = append(c.Rows, row)
	}
	return c, nil
}

// advance applies script step i (if there is one and it can happen, or adapted when adapt) and
// describes the result; touched reports whether the step may have changed downstream's rows (it
// emitted a visible row, recovered, or dropped the job).
func advance(e *engine.Engine, script []engine.Step, i int, adapt bool) (side CompareSide, touched bool) {
	phase := e.Phase()
	applied := false
	if i < len(script) && e.StepCount() == i {
		if adapt {
			e.Play(script[i])
			applied = true
		} else {
			applied = e.Apply(script[i]) == nil
		}
	}
	if applied {
		side.Step = script[i].Describe(e.Config().Columns)
		// this step's outputs are the last ones (outputs are in step order)
		outs := e.Outputs()
		first := len(outs)
		for first > 0 && outs[first-1].Step == e.StepCount() {
			first--
		}
		for _, o := range outs[first:] {
			side.Outputs = append(side.Outputs, o.String())
			touched = touched || o.Type == engine.OutRecovery || slices.ContainsFunc(o.Rows, func(r engine.OutRow) bool { return r.Visible })
		}
	}
	touched = touched || e.Phase() != phase
	owned := e.Owned()
	for k, p := range e.Progress() {
		d := fmt.Sprintf("v%d %s", owned[k], p.State)
		if p.Pos != nil {
			d += " " + p.Pos.String()
		}
		side.Progress = append(side.Progress, d)
	}
	side.Downstream = e.DownstreamRows()
	side.Invariant = e.Invariant().Status
	side.Phase = e.Phase().String()
	if f := e.Failure(); f != nil {
		side.Error = f.Message
	}
	if side.Outputs == nil {
		side.Outputs = []string{}
	}
	if side.Progress == nil {
		side.Progress = []string{}
	}
	return side, touched
}

// diffRows returns the rows (as multisets) only in a and only in b; both are sorted.
func diffRows(a, b []engine.Row) (onlyA, onlyB []engine.Row) {
	onlyA, onlyB = []engine.Row{}, []engine.Row{}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && engine.CompareRows(a[i], b[j]) < 0):
			onlyA = append(onlyA, a[i])
			i++
		case i == len(a) || engine.CompareRows(a[i], b[j]) > 0:
			onlyB = append(onlyB, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return onlyA, onlyB
}
