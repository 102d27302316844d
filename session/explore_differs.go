package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/explore"
	"github.com/backfill-explainer/explainer/view"
)

// OutcomeDiff says how one explorer outcome differs from the outcome nearest to it, in words a reader can take in
// at a glance: where it ended (its phase, each vnode's position), whether its schedule reached
// the end of the script, and what downstream holds that the other does not (or lacks).
type OutcomeDiff struct {
	// Versus is the outcome (1-based) this one is compared with: the one it differs from in the
	// fewest ways (the earliest of those). 0 when there is only one outcome.
	Versus int `json:"versus"`
	// Finished: the schedule played the whole script (nothing more could happen). False when the
	// search stopped before this schedule ended (a capped exploration), so its "outcome" is a
	// state on the way, not an end.
	Finished bool `json:"finished"`
	// Positions is each owned vnode's progress where the schedule ended ("v1 in progress at (12,201)").
	Positions []string `json:"positions"`
	// Differs lists, in words, each way this outcome differs from outcome Versus.
	Differs []string `json:"differs"`
	// OnlyHere and NotHere are the downstream rows this outcome holds and outcome Versus does
	// not, and the other way round (multisets, sorted).
	OnlyHere []engine.Row `json:"only_here"`
	NotHere  []engine.Row `json:"not_here"`
}

// outcomeEnd is what a replay of an outcome's example shows at its end.
type outcomeEnd struct {
	phase      string
	invariant  string
	err        string
	positions  []string
	progress   string   // persisted, joined
	persisted  []string // each owned vnode's persisted progress ("v0 at (3,102), 3 rows backfilled", "no row for v1")
	downstream []engine.Row
	finished   bool
}

// replayEnd replays one example schedule from the scenario's start and describes its end.
// script is the run the explorer explored (its upstream messages, in order).
func replayEnd(cfg *engine.Config, script, example []engine.Step) outcomeEnd {
	e, err := engine.New(cfg)
	if err != nil {
		return outcomeEnd{}
	}
	e.SetNarration(false)
	upstream := 0
	for _, s := range example {
		if e.Apply(s) != nil {
			break // cannot happen: an example is a schedule the explorer played
		}
		if s.Kind != engine.EventSnapshot {
			upstream++
		}
	}
	v := view.Of(e)
	t := e.Trace()
	end := outcomeEnd{phase: v.Phase, invariant: v.Invariant.Status, downstream: t.Downstream}
	if f := e.Failure(); f != nil {
		end.err = f.Message
	}
	for _, p := range v.Progress {
		d := fmt.Sprintf("v%d %s", p.Vnode, strings.ReplaceAll(p.State, "_", " "))
		if p.Pos != nil {
			d += " at " + p.Pos.String()
		}
		end.positions = append(end.positions, d)
	}
	end.persisted = persisted(e.Config().Owned, t.ProgressTable)
	end.progress = strings.Join(end.persisted, ", ")
	// finished: no message of the script is left that could still come, and the snapshot has
	// nothing left that it could deliver
	rest := upstreamSteps(script)[min(upstream, len(upstreamSteps(script))):]
	end.finished = true
	if len(rest) > 0 && e.Clone().Apply(rest[0]) == nil {
		end.finished = false
	}
	if e.SnapshotRemaining() > 0 && e.Clone().Apply(engine.Step{Kind: engine.EventSnapshot, Count: 1}) == nil {
		end.finished = false
	}
	return end
}

func upstreamSteps(script []engine.Step) []engine.Step {
	var out []engine.Step
	for _, s := range script {
		if s.Kind != engine.EventSnapshot {
			out = append(out, s)
		}
	}
	return out
}

// outcomeDiffs describes how each outcome differs from the outcome nearest to it: the one it
// differs from in the fewest ways (the earliest of those, so the most schedules), which is the
// comparison that says what sets it apart.
func outcomeDiffs(cfg *engine.Config, script []engine.Step, outcomes []explore.Outcome) []OutcomeDiff {
	ends := make([]outcomeEnd, len(outcomes))
	for i, o := range outcomes {
		ends[i] = replayEnd(cfg, script, o.Example)
	}
	diffs := make([]OutcomeDiff, len(outcomes))
	for i := range outcomes {
		d := OutcomeDiff{Finished: ends[i].finished, Positions: ends[i].positions, Differs: []string{},
			OnlyHere: []engine.Row{}, NotHere: []engine.Row{}}
		if d.Positions == nil {
			d.Positions = []string{}
		}
		ref, best := -1, 0
		for j := range outcomes {
			if j == i {
				continue
			}
			if n := len(features(ends[i], outcomes[i]).differ(features(ends[j], outcomes[j]))); ref < 0 || n < best {
				ref, best = j, n
			}
		}
		if ref >= 0 {
			d.Versus = ref + 1
			d.Differs, d.OnlyHere, d.NotHere = differs(ends[i], ends[ref], outcomes[i], outcomes[ref], ref+1)
		}
		diffs[i] = d
	}
	return diffs
}

// featureSet is what an outcome is made of, one comparable string per aspect.
type featureSet map[string]string

func features(e outcomeEnd, o explore.Outcome) featureSet {
	return featureSet{
		"finished":   fmt.Sprint(e.finished),
		"phase":      e.phase,
		"error":      e.err,
		"invariant":  fmt.Sprint(o.Violated, e.invariant),
		"positions":  strings.Join(e.positions, ";"),
		"persisted":  e.progress,
		"downstream": fmt.Sprint(e.downstream),
	}
}

func (a featureSet) differ(b featureSet) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	return out
}

// differs says in words how end a differs from end b (outcome n).
func differs(a, b outcomeEnd, oa, ob explore.Outcome, n int) (words []string, onlyA, onlyB []engine.Row) {
	words = []string{}
	other := fmt.Sprintf("outcome %d", n)
	if a.finished != b.finished {
		if a.finished {
			words = append(words, fmt.Sprintf("its schedule reached the end of the script (%s's stopped on the way)", other))
		} else {
			words = append(words, fmt.Sprintf("its schedule stopped on the way, when the search reached its bound (%s's reached the end)", other))
		}
	}
	if a.phase != b.phase {
		words = append(words, fmt.Sprintf("ends %s (%s: %s)", a.phase, other, b.phase))
	}
	if a.err != b.err {
		switch {
		case a.err == "":
			words = append(words, fmt.Sprintf("does not fail (%s fails: %s)", other, b.err))
		case b.err == "":
			words = append(words, fmt.Sprintf("fails: %s (%s does not)", a.err, other))
		default:
			words = append(words, fmt.Sprintf("fails with: %s (%s: %s)", a.err, other, b.err))
		}
	}
	if oa.Violated != ob.Violated || a.invariant != b.invariant {
		words = append(words, fmt.Sprintf("the invariant %s (%s: %s)", invariantWord(oa.Violated, a.invariant), other, invariantWord(ob.Violated, b.invariant)))
	}
	if !slices.Equal(a.positions, b.positions) {
		words = append(words, fmt.Sprintf("ends with %s (%s: %s)", positionsDiff(a.positions, b.positions), other, positionsDiff(b.positions, a.positions)))
	}
	if a.progress != b.progress {
		words = append(words, fmt.Sprintf("the progress table has %s (%s: %s)", positionsDiff(a.persisted, b.persisted), other, positionsDiff(b.persisted, a.persisted)))
	}
	onlyA, onlyB = diffRows(a.downstream, b.downstream)
	if len(onlyA) > 0 {
		words = append(words, fmt.Sprintf("downstream also holds %s (%s does not)", rowList(onlyA), other))
	}
	if len(onlyB) > 0 {
		words = append(words, fmt.Sprintf("downstream lacks %s (%s holds it)", rowList(onlyB), other))
	}
	if len(onlyA)+len(onlyB) == 0 {
		words = append(words, fmt.Sprintf("downstream holds the same rows as %s", other))
	}
	return words, onlyA, onlyB
}

func invariantWord(violated bool, status string) string {
	if violated {
		return "was violated on the way"
	}
	return status
}

// positionsDiff lists the vnodes of a whose progress differs from b's (all of a when the
// vnodes differ).
func positionsDiff(a, b []string) string {
	if len(a) != len(b) {
		return strings.Join(a, ", ")
	}
	var out []string
	for i := range a {
		if a[i] != b[i] {
			out = append(out, a[i])
		}
	}
	return strings.Join(out, ", ")
}

// persisted describes the durable progress table's rows ([vnode, pos…, finished, rows
// backfilled]) per owned vnode.
func persisted(owned []int, table [][]any) []string {
	byVnode := map[string]string{}
	for _, r := range table {
		if len(r) < 3 {
			continue
		}
		pos := make([]string, 0, len(r)-3)
		for _, v := range r[1 : len(r)-2] {
			pos = append(pos, fmt.Sprint(v))
		}
		d := fmt.Sprintf("v%v at (%s)", r[0], strings.Join(pos, ","))
		if f, _ := r[len(r)-2].(bool); f {
			d = fmt.Sprintf("v%v finished at (%s)", r[0], strings.Join(pos, ","))
		}
		if n := fmt.Sprint(r[len(r)-1]); n == "1" {
			d += ", 1 row backfilled"
		} else {
			d += ", " + n + " rows backfilled"
		}
		byVnode[fmt.Sprint(r[0])] = d
	}
	out := make([]string, 0, len(owned))
	for _, v := range owned {
		if d, ok := byVnode[fmt.Sprint(v)]; ok {
			out = append(out, d)
		} else {
			out = append(out, fmt.Sprintf("no row for v%d", v))
		}
	}
	return out
}

func rowList(rows []engine.Row) string {
	s := make([]string, len(rows))
	for i, r := range rows {
		s[i] = r.String()
	}
	return strings.Join(s, " ")
}
