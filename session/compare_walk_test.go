package session

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/view"
)

// TestCompareEqualsTheWholeViewWalk: compare reads each step's part cheaply (the step's own
// outputs, the engine's progress, downstream diffed only when a side's downstream may have
// changed); its rows equal the plain walk that fills a whole view and diffs both downstreams at
// every step, on every built-in against every bug mode and every release.
func TestCompareEqualsTheWholeViewWalk(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		s, err := OpenBuiltin(name)
		require.NoError(t, err)
		var others []*engine.Config
		for _, b := range engine.Bugs {
			c := *s.Scenario.Config
			c.Bug = b.Bug
			others = append(others, &c)
		}
		for _, r := range engine.Releases {
			c := *s.Scenario.Config
			c.Release = r
			others = append(others, &c)
		}
		for i, oc := range others {
			script := s.tl.Script()
			got, err := compareRuns(s.Scenario.Config, script, false, oc, script, true)
			require.NoError(t, err)
			want := wholeViewWalk(t, s.Scenario.Config, script, false, oc, script, true)
			require.Equal(t, len(want), len(got.Rows))
			for j := range want {
				assert.Equal(t, want[j], got.Rows[j], fmt.Sprintf("%s against run %d, step %d", name, i, j+1))
			}
		}
	}
}

// wholeViewWalk is compare as first written: a whole view and both whole downstreams at every step.
func wholeViewWalk(t *testing.T, lc *engine.Config, ls []engine.Step, ladapt bool, rc *engine.Config, rs []engine.Step, radapt bool) []CompareRow {
	le, err := engine.New(lc)
	require.NoError(t, err)
	re, err := engine.New(rc)
	require.NoError(t, err)
	side := func(e *engine.Engine, script []engine.Step, i int, adapt bool) CompareSide {
		var sd CompareSide
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
			sd.Step = script[i].Describe(e.Config().Columns)
			for _, o := range e.Outputs() {
				if o.Step == e.StepCount() {
					sd.Outputs = append(sd.Outputs, o.String())
				}
			}
		}
		v := view.Of(e)
		for _, p := range v.Progress {
			d := fmt.Sprintf("v%d %s", p.Vnode, p.State)
			if p.Pos != nil {
				d += " " + p.Pos.String()
			}
			sd.Progress = append(sd.Progress, d)
		}
		sd.Downstream = len(e.Trace().Downstream)
		sd.Invariant, sd.Phase = v.Invariant.Status, v.Phase
		if f := e.Failure(); f != nil {
			sd.Error = f.Message
		}
		if sd.Outputs == nil {
			sd.Outputs = []string{}
		}
		if sd.Progress == nil {
			sd.Progress = []string{}
		}
		return sd
	}
	var rows []CompareRow
	for i := 0; i < max(len(ls), len(rs)); i++ {
		row := CompareRow{Step: i + 1, Left: side(le, ls, i, ladapt), Right: side(re, rs, i, radapt)}
		row.OutputsDiffer = !slices.Equal(row.Left.Outputs, row.Right.Outputs)
		row.ProgressDiffers = !slices.Equal(row.Left.Progress, row.Right.Progress)
		row.OnlyLeft, row.OnlyRight = diffRows(le.Trace().Downstream, re.Trace().Downstream)
		row.DownstreamDiffers = len(row.OnlyLeft)+len(row.OnlyRight) > 0
		rows = append(rows, row)
	}
	return rows
}

// BenchmarkCompareLong compares a 4,000-step run (web/bench's long10k, shorter) with itself under
// a bug mode: a step's work must not grow with the steps before it.
func BenchmarkCompareLong(b *testing.B) {
	text := "title: bench\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4, rule: modulo}\nchunk_size: 4\nsteps:\n  - barrier: 1\n"
	for i := 0; i < 2000; i++ {
		text += fmt.Sprintf("  - chunk: [\"+ %d %d\"]\n  - barrier: %d\n", i, i, i+2)
	}
	s, err := Load("long.yaml", []byte(text))
	require.NoError(b, err)
	b.ResetTimer()
	for range b.N {
		_, err := s.CompareBug("mark-before-drain")
		require.NoError(b, err)
	}
}
