package lessons

import (
	"fmt"
	"strings"

	"github.com/backfill-explainer/explainer/scenarios"
)

// Plan is a lesson as the trainer's plan shows it and the page receives it: every section with
// its scenario, steps, goal, timing, and questions with their answers.
type Plan struct {
	Name     string        `json:"name"`
	Title    string        `json:"title"`
	Summary  string        `json:"summary"`
	Minutes  int           `json:"minutes"`
	Sections []PlanSection `json:"sections"`
}

// PlanSection is one section of a Plan.
type PlanSection struct {
	Title         string `json:"title"`
	Goal          string `json:"goal"`
	Scenario      string `json:"scenario"`       // a built-in's name, "" for an inline scenario
	ScenarioTitle string `json:"scenario_title"` // the scenario's title
	// ScenarioText is an inline scenario written out (the page loads it), "" for a built-in.
	ScenarioText string         `json:"scenario_text"`
	Steps        int            `json:"steps"`   // the scenario's number of steps
	Release      string         `json:"release"` // the release the section plays, "" for the default
	Bug          string         `json:"bug"`
	Stops        []int          `json:"stops"` // the steps shown, in order
	Minutes      int            `json:"minutes"`
	Notes        string         `json:"notes"`
	Questions    []PlanQuestion `json:"questions"`
}

// PlanQuestion is a question of a section with its answer.
type PlanQuestion struct {
	Ask     string   `json:"ask"`
	At      int      `json:"at"`
	Predict bool     `json:"predict"`
	Answer  string   `json:"answer"`
	Epoch   int64    `json:"epoch"`
	Visible []string `json:"visible"`
	Hidden  []string `json:"hidden"`
	Why     []string `json:"why"`
}

// Plan makes the lesson's plan.
func (l *Lesson) Plan() *Plan {
	p := &Plan{Name: l.Name, Title: l.Title, Summary: l.Summary, Minutes: l.Minutes(), Sections: []PlanSection{}}
	for _, s := range l.Sections {
		ps := PlanSection{Title: s.Title, Goal: s.Goal, Scenario: s.Scenario, ScenarioTitle: s.ScenarioTitle,
			Steps: s.Steps, Release: s.Release, Bug: s.Bug,
			Stops: s.Stops, Minutes: s.Minutes, Notes: s.Notes, Questions: []PlanQuestion{}}
		if s.Inline != nil {
			ps.ScenarioText = scenarios.FormatScenario(s.Inline)
		}
		for _, q := range s.Questions {
			ps.Questions = append(ps.Questions, PlanQuestion{Ask: q.Ask, At: q.At, Predict: q.Predict, Answer: q.Answer,
				Epoch: q.Epoch, Visible: nonNil(q.Visible), Hidden: nonNil(q.Hidden), Why: nonNil(q.Why)})
		}
		p.Sections = append(p.Sections, ps)
	}
	return p
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// Text writes the plan for the trainer: sections, goals, steps, timing, notes, and questions
// with their answers.
func (p *Plan) Text() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("%s\n%s\n", p.Title, strings.Repeat("=", len([]rune(p.Title))))
	if p.Summary != "" {
		w("%s\n", strings.TrimSpace(p.Summary))
	}
	w("%d minutes, %d sections.\n", p.Minutes, len(p.Sections))
	elapsed := 0
	for i, s := range p.Sections {
		head := fmt.Sprintf("Section %d of %d: %s", i+1, len(p.Sections), s.Title)
		w("\n%s\n%s\n", head, strings.Repeat("-", len([]rune(head))))
		w("time: %d min (minute %d to %d)\n", s.Minutes, elapsed, elapsed+s.Minutes)
		elapsed += s.Minutes
		if s.Goal != "" {
			w("goal: %s\n", oneLine(s.Goal))
		}
		name := s.Scenario
		if name == "" {
			name = "inline"
		}
		w("scenario: %s (%s), %d steps\n", name, s.ScenarioTitle, s.Steps)
		if s.Release != "" {
			w("release: %s\n", s.Release)
		}
		if s.Bug != "" {
			w("bug mode: %s\n", s.Bug)
		}
		w("show: %s\n", stopsText(s.Stops))
		if s.Notes != "" {
			w("notes:\n%s", indent(s.Notes, "  "))
		}
		for j, q := range s.Questions {
			if q.Predict {
				w("question %d (predict, asked at step %d, before barrier e%d at step %d): %s\n", j+1, q.At-1, q.Epoch, q.At, oneLine(q.Ask))
				w("  visible: %s\n  hidden: %s\n", rowsText(q.Visible), rowsText(q.Hidden))
				for _, why := range q.Why {
					w("  - %s\n", why)
				}
				continue
			}
			w("question %d (at step %d): %s\n", j+1, q.At, oneLine(q.Ask))
			w("  answer: %s\n", oneLine(q.Answer))
		}
	}
	return b.String()
}

// stopsText writes the steps a section shows: "steps 3 to 10", or "stops at 0, 4, 8".
func stopsText(stops []int) string {
	if len(stops) == 1 {
		return fmt.Sprintf("step %d", stops[0])
	}
	first, last := stops[0], stops[len(stops)-1]
	if last-first+1 == len(stops) {
		return fmt.Sprintf("steps %d to %d, one at a time", first, last)
	}
	s := make([]string, len(stops))
	for i, x := range stops {
		s[i] = itoa(x)
	}
	return "stops at steps " + strings.Join(s, ", ")
}

func rowsText(rows []string) string {
	if len(rows) == 0 {
		return "none"
	}
	return strings.Join(rows, "; ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func indent(s, pre string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(pre + line + "\n")
	}
	return b.String()
}
