package engine_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
)

// every built-in, as written and under every bug mode: the runs the view parts are checked on.
func everyRun(t *testing.T, each func(t *testing.T, s *session.Session)) {
	t.Helper()
	testutil.EveryRun(t, scenarios.BuiltinNames(), bugNames(), 0, openRun, each)
}

// everyRunOrSome is everyRun, but under -short only every third built-in runs, under one mode
// (the modes in turn): for the checks that are slow on every pair.
func everyRunOrSome(t *testing.T, each func(t *testing.T, s *session.Session)) {
	t.Helper()
	testutil.EveryRun(t, scenarios.BuiltinNames(), bugNames(), 3, openRun, each)
}

// openRun opens a built-in at its start, under a bug mode ("": as written).
func openRun(name, bug string) (*session.Session, error) {
	s, err := session.OpenBuiltin(name)
	if err != nil || bug == "" {
		return s, err
	}
	if err := s.SetBug(bug); err != nil {
		return nil, err
	}
	return s, s.Goto(0)
}

func bugNames() []string {
	var n []string
	for _, b := range engine.Bugs {
		n = append(n, b.Name)
	}
	return n
}

// TestPredictAgreesWithTheBarrier: wherever the next scripted step is a barrier that marks a
// buffer with rows, the view predicts it; stepping then does exactly what was predicted: each
// buffered row, in buffer order, marked visible or hidden with the same why, or, when no vnode
// is in progress, held back (no marked chunk at all).
func TestPredictAgreesWithTheBarrier(t *testing.T) {
	checked, held := 0, 0
	everyRun(t, func(t *testing.T, s *session.Session) {
		var ahead *view.Prediction // a prediction made steps before its barrier
		for s.Timeline().Pos() < s.Steps() {
			v := s.View()
			p := v.Predict
			if p != nil && !p.Next {
				if ahead != nil && ahead.Step == p.Step {
					assert.Equal(t, ahead.Rows, p.Rows, "step %d: the look-ahead changed its mind", v.Step)
				}
				ahead = p
			}
			next := s.Timeline().Script()[v.Step]
			rows := 0
			for _, b := range v.Buffer {
				rows += len(b.Rows)
			}
			marks := v.Phase == "backfilling" && next.Kind == engine.EventBarrier && rows > 0
			require.Equal(t, marks, p != nil && p.Next, "step %d: predict %+v, but marking next is %v", v.Step, p, marks)
			if !marks {
				require.NoError(t, s.Step())
				continue
			}
			if ahead != nil {
				assert.Equal(t, ahead.Rows, p.Rows, "step %d: the look-ahead predicted other rows", v.Step)
			}
			ahead = nil
			assert.Equal(t, v.Step+1, p.Step)
			assert.Equal(t, next.Barrier.Epoch, p.Epoch)
			// the predicted rows are the buffered rows, in order
			var buffered []view.PredictRow
			for _, b := range v.Buffer {
				for _, r := range b.Rows {
					buffered = append(buffered, view.PredictRow{ArrivedStep: b.ArrivedStep, Op: r.Op, Values: r.Values, Vnode: r.Vnode})
				}
			}
			require.Len(t, p.Rows, len(buffered))
			for i := range buffered {
				assert.Equal(t, buffered[i].ArrivedStep, p.Rows[i].ArrivedStep)
				assert.Equal(t, buffered[i].Op, p.Rows[i].Op)
				assert.Equal(t, buffered[i].Values, p.Rows[i].Values)
				assert.Equal(t, buffered[i].Vnode, p.Rows[i].Vnode)
				assert.NotEmpty(t, p.Rows[i].Why)
			}
			// the real step
			require.NoError(t, s.Step())
			after := s.View()
			var marked []engine.Output
			for _, o := range s.Timeline().Engine().Outputs() {
				if o.Step == after.Step && o.Type == engine.OutChunk && o.Source == "marked" {
					marked = append(marked, o)
				}
			}
			if p.Held {
				held++
				assert.Empty(t, marked, "step %d: predicted held back, but chunks were marked", after.Step)
				for _, r := range p.Rows {
					assert.False(t, r.Visible)
					assert.Contains(t, r.Why, "held back")
				}
			} else {
				var got []engine.OutRow
				for _, o := range marked {
					got = append(got, o.Rows...)
				}
				require.Len(t, got, len(p.Rows), "step %d", after.Step)
				for i, r := range got {
					assert.Equal(t, r.Visible, p.Rows[i].Visible, "step %d row %d", after.Step, i)
					assert.Equal(t, r.Why, p.Rows[i].Why, "step %d row %d", after.Step, i)
					assert.Equal(t, r.Row, p.Rows[i].Values)
				}
			}
			checked++
		}
	})
	assert.Greater(t, checked, 20, "predictions checked")
	assert.Greater(t, held, 0, "held-back predictions checked")
}

// TestPredictLeavesTheRunAlone: computing the prediction runs a copy; the real run's view is
// the same as that of a timeline that never predicted.
func TestPredictLeavesTheRunAlone(t *testing.T) {
	a, err := session.OpenBuiltin("happy-path")
	require.NoError(t, err)
	b, err := session.OpenBuiltin("happy-path")
	require.NoError(t, err)
	for a.Timeline().Pos() < a.Steps() {
		va := a.View() // predicts
		require.NoError(t, a.Step())
		require.NoError(t, b.Step())
		va, vb := a.View(), view.Of(b.Timeline().Engine())
		assert.Equal(t, vb.Outputs, va.Outputs)
		assert.Equal(t, vb.Progress, va.Progress)
		assert.Equal(t, vb.Buffer, va.Buffer)
		assert.Equal(t, vb.Downstream, va.Downstream)
		_ = va
	}
}

// panels are the view's parts each `changed` flag stands for.
var panels = map[string][]string{
	"phase": {"phase"}, "epoch": {"epoch"}, "upstream_next": {"upstream.next", "upstream.more", "upstream.ended"},
	"upstream_content": {"upstream.content"}, "snapshot": {"snapshot"}, "buffer": {"buffer"}, "builders": {"builders"},
	"progress": {"progress"}, "state_table": {"state_table"}, "progress_table": {"progress_table"},
	"outputs": {"outputs", "outputs_total"}, "downstream": {"downstream"}, "invariant": {"invariant"},
	"narration": {"explanations"}, "note": {"note"}, "fatal": {"error", "failure"},
}

// viewJSON is a view's JSON, its top-level keys apart (once a view: marshalling the view again
// for each part was nine tenths of TestChangedAgreesWithTheViews).
func viewJSON(t *testing.T, v *view.View) map[string]json.RawMessage {
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}

// part is a view's JSON at a dotted path, the slow way.
func part(t *testing.T, m map[string]json.RawMessage, path string) string {
	if i := slices.Index([]byte(path), '.'); i >= 0 {
		var inner map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(m[path[:i]], &inner))
		return string(inner[path[i+1:]])
	}
	return string(m[path])
}

// oracle works out what changed between two consecutive views by comparing their JSON.
func oracle(t *testing.T, prev, cur *view.View) (map[string]bool, view.ChangedVnodes, view.AddedRows) {
	c := map[string]bool{}
	pj, cj := viewJSON(t, prev), viewJSON(t, cur)
	for name, paths := range panels {
		for _, p := range paths {
			if part(t, pj, p) != part(t, cj, p) {
				c[name] = true
			}
		}
	}
	js := func(x any) string { b, _ := json.Marshal(x); return string(b) }
	byVnode := func(items map[int]string, prevItems map[int]string) []int {
		out := []int{}
		for v := range max(len(cur.Config.Owned), 0) {
			vn := cur.Config.Owned[v]
			a, inA := items[vn]
			b, inB := prevItems[vn]
			if inA != inB || a != b {
				out = append(out, vn)
			}
		}
		return out
	}
	var cv view.ChangedVnodes
	lanes := func(v *view.View) map[int]string {
		m := map[int]string{}
		if v.Snapshot != nil {
			for _, l := range v.Snapshot.Vnodes {
				m[l.Vnode] = js(l)
			}
		}
		return m
	}
	cv.Snapshot = byVnode(lanes(cur), lanes(prev))
	builders := func(v *view.View) map[int]string {
		m := map[int]string{}
		for _, b := range v.Builders {
			m[b.Vnode] = js(b)
		}
		return m
	}
	cv.Builders = byVnode(builders(cur), builders(prev))
	progress := func(v *view.View) map[int]string {
		m := map[int]string{}
		for _, p := range v.Progress {
			m[p.Vnode] = js(p)
		}
		return m
	}
	cv.Progress = byVnode(progress(cur), progress(prev))
	state := func(v *view.View) map[int]string {
		m := map[int][]engine.Row{}
		for _, r := range v.StateTable.Rows {
			m[r.Vnode] = append(m[r.Vnode], r.Values)
		}
		out := map[int]string{}
		for k, rows := range m {
			out[k] = js(rows)
		}
		return out
	}
	cv.StateTable = byVnode(state(cur), state(prev))
	table := func(rows [][]any) map[int]string {
		m := map[int]string{}
		for _, r := range rows {
			m[r[0].(int)] = js(r)
		}
		return m
	}
	cv.ProgressTable = byVnode(table(cur.ProgressTable.Rows), table(prev.ProgressTable.Rows))
	cv.ProgressTableDurable = byVnode(table(cur.ProgressTable.Durable), table(prev.ProgressTable.Durable))
	minus := func(a, b []engine.Row) []engine.Row {
		left := map[string]int{}
		for _, r := range b {
			left[js(r)]++
		}
		out := []engine.Row{}
		for _, r := range a {
			if left[js(r)] > 0 {
				left[js(r)]--
				continue
			}
			out = append(out, r)
		}
		return out
	}
	added := view.AddedRows{
		UpstreamContent: minus(cur.Upstream.Content, prev.Upstream.Content),
		Downstream:      minus(cur.Downstream.Rows, prev.Downstream.Rows),
	}
	return c, cv, added
}

func flags(c view.Changed) map[string]bool {
	raw, _ := json.Marshal(c)
	var m map[string]bool
	_ = json.Unmarshal(raw, &m)
	for k, v := range m {
		if !v {
			delete(m, k)
		}
	}
	return m
}

func checkChanged(t *testing.T, s *session.Session, prev, cur *view.View, where string) {
	t.Helper()
	want, wantV, wantRows := oracle(t, prev, cur)
	assert.Equal(t, want, flags(cur.Changed), "%s: changed", where)
	assert.Equal(t, wantV, cur.ChangedVnodes, "%s: changed_vnodes", where)
	assert.Equal(t, fmt.Sprint(wantRows), fmt.Sprint(cur.AddedRows), "%s: added_rows", where)
}

// TestChangedAgreesWithTheViews: at every step of every built-in (stepping, and going to the step
// from elsewhere), `changed` says exactly which panels differ from the view one step earlier.
func TestChangedAgreesWithTheViews(t *testing.T) {
	everyRunOrSome(t, func(t *testing.T, s *session.Session) {
		v0 := s.View()
		assert.Empty(t, flags(v0.Changed), "nothing changed before the first step")
		prev := v0
		views := []*view.View{v0}
		for s.Timeline().Pos() < s.Steps() {
			require.NoError(t, s.Step())
			cur := s.View()
			checkChanged(t, s, prev, cur, fmt.Sprintf("step %d", cur.Step))
			prev = cur
			views = append(views, cur)
		}
		// going to a step (from the end, backwards) gives the same answer as stepping to it
		for n := len(views) - 1; n >= 1; n -= 3 {
			require.NoError(t, s.Goto(n))
			assert.Equal(t, views[n].Changed, s.View().Changed, "goto %d", n)
		}
	})
}

// TestChangedAfterABranch: an injected step changes exactly what the views before and after show.
func TestChangedAfterABranch(t *testing.T) {
	s, err := session.OpenBuiltin("happy-path")
	require.NoError(t, err)
	require.NoError(t, s.Goto(6))
	prev := s.View()
	require.NoError(t, s.Apply("snapshot: 1")) // the snapshot first: a branch
	cur := s.View()
	checkChanged(t, s, prev, cur, "snapshot first")
	assert.True(t, cur.Changed.Builders)
	prev = cur
	require.NoError(t, s.Apply(`chunk: ["+ 5 104"]`))
	cur = s.View()
	checkChanged(t, s, prev, cur, "an injected chunk")
	assert.True(t, cur.Changed.UpstreamContent)
	assert.Equal(t, "[(5,104)]", fmt.Sprint(cur.AddedRows.UpstreamContent))
}

// TestNameAndRevision: the view names a built-in (null for loaded text); the revision changes with
// every change of the script (a branch, a bug mode, a load) and never while moving along it.
func TestNameAndRevision(t *testing.T) {
	s, err := session.OpenBuiltin("happy-path")
	require.NoError(t, err)
	v := s.View()
	require.NotNil(t, v.Name)
	assert.Equal(t, "happy-path", *v.Name)
	r0 := v.Revision
	require.NoError(t, s.Step())
	require.NoError(t, s.Goto(5))
	require.NoError(t, s.Back())
	require.NoError(t, s.Apply(s.Actions()[0].Step)) // the scripted step: no branch
	assert.Equal(t, r0, s.View().Revision, "moving along the script keeps the revision")

	require.NoError(t, s.Apply(`chunk: ["+ 5 104"]`))
	r1 := s.View().Revision
	assert.NotEqual(t, r0, r1, "a branch")
	require.NoError(t, s.SetBug("mark-before-drain"))
	r2 := s.View().Revision
	assert.NotEqual(t, r1, r2, "a bug mode")

	text, err := scenarios.BuiltinText("happy-path")
	require.NoError(t, err)
	l1, err := session.Load("", text)
	require.NoError(t, err)
	l2, err := session.Load("", text)
	require.NoError(t, err)
	assert.Nil(t, l1.View().Name)
	assert.NotEqual(t, l1.View().Revision, l2.View().Revision, "two loads of the same text")
	assert.NotContains(t, []int64{r0, r1, r2}, l1.View().Revision)
}

// TestProgressTableColumns: the view names each position of a progress-table row.
func TestProgressTableColumns(t *testing.T) {
	s, err := session.OpenBuiltin("happy-path")
	require.NoError(t, err)
	require.NoError(t, s.Goto(s.Steps()))
	pt := s.View().ProgressTable
	var names, kinds []string
	for _, c := range pt.Columns {
		names, kinds = append(names, c.Name), append(kinds, c.Kind)
	}
	assert.Equal(t, []string{"vnode", "pos.a", "pos.id", "finished", "rows"}, names)
	assert.Equal(t, []string{"vnode", "value", "value", "bool", "count"}, kinds)
	require.NotEmpty(t, pt.Rows)
	for _, r := range pt.Rows {
		assert.Len(t, r, len(pt.Columns))
	}
}
