package lessons

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
)

func itoa(i int) string { return strconv.Itoa(i) }

// section reads one section and checks it against its scenario, run through the engine.
func (rd reader) section(n *yaml.Node, number int) Section {
	r := rd.r
	where := "section " + itoa(number)
	f := r.Mapping(n, where, sectionKeys...)
	s := Section{Pos: pos(n)}
	t := r.Require(f, "title", where)
	s.Title = r.Text(t, where+" title")
	if strings.TrimSpace(s.Title) == "" {
		r.Fail(t, "%s: title must not be empty", where)
	}
	if _, g, ok := f.Get("goal"); ok {
		s.Goal = r.Text(g, where+" goal")
	}
	if _, v, ok := f.Get("notes"); ok {
		s.Notes = r.Text(v, where+" notes")
	}
	m := r.Require(f, "minutes", where)
	s.Minutes = int(r.IntIn(m, where+" minutes", 1, MaxSectionMinutes))

	sess := rd.scenario(r.Require(f, "scenario", where), &s, where)
	if _, v, ok := f.Get("bug"); ok {
		s.Bug = r.Text(v, where+" bug")
		if _, err := engine.ParseBug(s.Bug); err != nil {
			r.Fail(v, "%s: %v", where, err)
		}
		if err := sess.SetBug(s.Bug); err != nil {
			r.Fail(v, "%s: %v", where, err)
		}
	}
	// (after the bug mode: SetBug decides anew whether the script is adapted; SetRelease then
	// adapts it too when the release is not the one it was written for)
	if _, v, ok := f.Get("release"); ok {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
			r.Fail(v, "%s: unknown release %s; one of %s", where, scenarios.Describe(v), scenarios.ReleaseNames())
		}
		s.Release = v.Value
		if err := sess.SetRelease(s.Release); err != nil {
			r.Fail(v, "%s: %v", where, err)
		}
		// the title written for that release, if the scenario has one per release
		s.ScenarioTitle, _ = sess.Scenario.TitleFor(s.Release, s.ScenarioTitle)
	}
	s.Steps = sess.Steps()
	if _, v, ok := f.Get("steps"); ok {
		s.Stops = rd.stops(v, s.Steps, where)
	} else {
		s.Stops = rangeStops(0, s.Steps)
	}
	if _, v, ok := f.Get("questions"); ok {
		items := r.Sequence(v, where+" questions")
		if len(items) > limits.questions {
			r.Fail(items[limits.questions], "%s: more than %d questions; the limit is %d", where, limits.questions, limits.questions)
		}
		for i, it := range items {
			s.Questions = append(s.Questions, rd.question(it, sess, &s, where+" question "+itoa(i+1)))
		}
	}
	return s
}

// scenario reads `scenario:` (a built-in's name, or a scenario written inline) and opens it.
func (rd reader) scenario(v *yaml.Node, s *Section, where string) *session.Session {
	r := rd.r
	if v.Kind == yaml.MappingNode {
		sc := r.Scenario(v)
		sess, err := session.Open(sc)
		if err != nil {
			r.Stop(err)
		}
		s.Inline, s.ScenarioTitle = sc, sc.Config.Title
		return sess
	}
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		r.Fail(v, "%s: scenario: expected a built-in scenario's name or a scenario written inline (a mapping), found %s", where, scenarios.Describe(v))
	}
	s.Scenario = v.Value
	if !slices.Contains(scenarios.BuiltinNames(), s.Scenario) {
		r.Fail(v, "%s: no built-in scenario named %s (`backfill list` names them)", where, scenarios.Describe(v))
	}
	sess, err := session.OpenBuiltin(s.Scenario)
	if err != nil {
		r.Fail(v, "%s: %v", where, err)
	}
	s.ScenarioTitle = sess.Scenario.Config.Title
	return sess
}

func rangeStops(from, to int) []int {
	stops := make([]int, 0, to-from+1)
	for i := from; i <= to; i++ {
		stops = append(stops, i)
	}
	return stops
}

// stops reads `steps:`: {from, to} or a list of the steps to stop at, each within 0..steps.
func (rd reader) stops(v *yaml.Node, steps int, where string) []int {
	r := rd.r
	what := where + " steps"
	within := func(n *yaml.Node, name string) int {
		i := int(r.IntIn(n, what+" "+name, 0, MaxSteps))
		if i > steps {
			r.Fail(n, "%s: %s %d is past the scenario's last step (it has %d steps)", what, name, i, steps)
		}
		return i
	}
	if v.Kind == yaml.SequenceNode {
		items := r.Sequence(v, what)
		if len(items) == 0 {
			r.Fail(v, "%s: [] is empty; list at least one step to stop at", what)
		}
		var stops []int
		for _, it := range items {
			i := within(it, "stop")
			if len(stops) > 0 && i <= stops[len(stops)-1] {
				r.Fail(it, "%s: stop %d does not come after %d; list the steps in increasing order", what, i, stops[len(stops)-1])
			}
			stops = append(stops, i)
		}
		return stops
	}
	f := r.Mapping(v, what, rangeKeys...)
	from, to := 0, steps
	if _, n, ok := f.Get("from"); ok {
		from = within(n, "from")
	}
	if _, n, ok := f.Get("to"); ok {
		to = within(n, "to")
		if to < from {
			r.Fail(n, "%s: to %d comes before from %d", what, to, from)
		}
	}
	return rangeStops(from, to)
}

// question reads a question: free text ({ask, answer, at}) or a predict checkpoint
// ({ask, at, expect}), whose expected answer is checked against the engine's prediction.
func (rd reader) question(n *yaml.Node, sess *session.Session, s *Section, where string) Question {
	r := rd.r
	f := r.Mapping(n, where, questionKeys...)
	q := Question{Pos: pos(n)}
	q.Ask = r.Text(r.Require(f, "ask", where), where+" ask")
	if strings.TrimSpace(q.Ask) == "" {
		_, a, _ := f.Get("ask")
		r.Fail(a, "%s: ask must not be empty", where)
	}
	_, ans, hasAnswer := f.Get("answer")
	_, exp, hasExpect := f.Get("expect")
	_, at, hasAt := f.Get("at")
	switch {
	case hasAnswer && hasExpect:
		r.Fail(exp, "%s: a question has either an answer (free text) or expect (a predict checkpoint), not both", where)
	case !hasAnswer && !hasExpect:
		r.Fail(n, "%s: missing key \"answer\" (free text) or \"expect\" (a predict checkpoint)", where)
	case hasAnswer:
		q.Answer = r.Text(ans, where+" answer")
		q.At = s.To()
		if hasAt {
			q.At = int(r.IntIn(at, where+" at", 0, MaxSteps))
			if q.At < s.From() || q.At > s.To() {
				r.Fail(at, "%s: at %d is outside the section's steps %d..%d", where, q.At, s.From(), s.To())
			}
		}
		return q
	}
	if !hasAt {
		r.Fail(n, "%s: missing key \"at\": the step of the barrier whose marking the room predicts", where)
	}
	q.Predict = true
	q.At = int(r.IntIn(at, where+" at", 1, MaxSteps))
	if q.At-1 < s.From() || q.At > s.To() {
		r.Fail(at, "%s: at %d: the question is asked at step %d, before the barrier, and both must be within the section's steps %d..%d", where, q.At, q.At-1, s.From(), s.To())
	}
	if err := sess.Goto(q.At - 1); err != nil {
		r.Fail(at, "%s: %v", where, err)
	}
	p := sess.Timeline().View().Predict
	if p == nil || p.Step != q.At {
		next := "no barrier within reach marks buffered rows"
		if p != nil {
			next = "the next that does is step " + itoa(p.Step)
		}
		r.Fail(at, "%s: at %d: step %d is not a barrier that marks buffered rows (%s)", where, q.At, q.At, next)
	}
	q.Epoch = p.Epoch
	rd.expect(exp, sess.Scenario.Config, p, &q, where)
	return q
}

// expect reads {visible: [rows], hidden: [rows]} and checks it against the prediction: every
// buffered row listed once, on the side the engine puts it.
func (rd reader) expect(n *yaml.Node, cfg *engine.Config, p *view.Prediction, q *Question, where string) {
	r := rd.r
	f := r.Mapping(n, where+" expect", expectKeys...)
	used := make([]bool, len(p.Rows))
	usedAt := make([]*yaml.Node, len(p.Rows)) // where each buffered row was listed
	buffered := make([]string, len(p.Rows))
	for i, pr := range p.Rows {
		buffered[i] = predicted(pr)
	}
	var whyVis, whyHid []string
	for _, side := range expectKeys {
		_, v, ok := f.Get(side)
		if !ok {
			continue
		}
		for _, it := range r.Sequence(v, where+" expect "+side) {
			row := r.ParseRow(cfg, it)
			i := firstUnused(p.Rows, used, row)
			if i < 0 {
				for k, pr := range p.Rows {
					if used[k] && same(row, pr) {
						r.Fail(it, "%s: %s is listed twice (first at line %d, column %d); the buffer holds it once", where, buffered[k], usedAt[k].Line, usedAt[k].Column)
					}
				}
				r.Fail(it, "%s: %s is not buffered when barrier e%d (step %d) marks the buffer; buffered: %s", where, row.Op.String()+row.Row.String(), p.Epoch, p.Step, strings.Join(buffered, " "))
			}
			used[i], usedAt[i] = true, it
			pr := p.Rows[i]
			if pr.Visible != (side == "visible") {
				r.FailMsg(it, fmt.Sprintf("%s: %s is %s at barrier e%d (step %d), not %s: %s", where, buffered[i], sideOf(pr.Visible), p.Epoch, p.Step, side, pr.Why))
			}
			text := scenarios.FormatRow(engine.RowOp{Op: row.Op, Row: row.Row, Visible: true})
			if side == "visible" {
				q.Visible = append(q.Visible, text)
				whyVis = append(whyVis, pr.Why)
			} else {
				q.Hidden = append(q.Hidden, text)
				whyHid = append(whyHid, pr.Why)
			}
		}
	}
	for i, u := range used {
		if !u {
			r.Fail(n, "%s: expect: the buffer also holds %s when barrier e%d (step %d) marks it; list it under visible or hidden", where, buffered[i], p.Epoch, p.Step)
		}
	}
	q.Why = append(whyVis, whyHid...)
}

func sideOf(visible bool) string {
	if visible {
		return "visible"
	}
	return "hidden"
}

// predicted writes a buffered row as a chip does: +(3,102).
func predicted(pr view.PredictRow) string { return pr.Op + pr.Values.String() }

func same(row engine.RowOp, pr view.PredictRow) bool {
	return row.Op.String() == pr.Op && slices.Equal(row.Row, pr.Values)
}

func firstUnused(rows []view.PredictRow, used []bool, row engine.RowOp) int {
	for i, pr := range rows {
		if !used[i] && same(row, pr) {
			return i
		}
	}
	return -1
}
