// Package lessons reads lesson files (docs/lesson-format.md): a sequence of sections, each a
// scenario to play (built-in or inline), the steps to show, a goal, questions for the room and
// a planned time. Reading checks everything against the engine: the scenario runs, the steps
// lie within it, and a predict question's expected answer is the one the engine gives.
//
// Every error is a *scenarios.Error naming file:line:column, read with the scenario parser's
// reader (scenarios.Reader), so a lesson's YAML errors read exactly as a scenario's.
package lessons

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/scenarios"
)

// Lesson is a read and checked lesson file.
type Lesson struct {
	File     string
	Name     string // a built-in's name, or ""
	Title    string
	Summary  string
	Sections []Section
}

// Section is one part of a lesson: a scenario shown from one step to another.
type Section struct {
	Title string
	Goal  string
	// Scenario names a built-in scenario; for an inline one it is "" and Inline holds it.
	Scenario string
	Inline   *scenarios.Scenario
	// ScenarioTitle is the scenario's title, Steps its number of steps.
	ScenarioTitle string
	Steps         int
	Release       string // a release (Releases), or "" for the default
	Bug           string // a bug mode's name, or "" for the scenario's own
	// Stops are the steps the section shows, in order: it opens at the first, and each click
	// (PageDown) goes to the next. `steps: {from, to}` is every step from..to; a list is itself.
	Stops   []int
	Minutes int
	Notes   string
	// Questions for the room, in the order they come up.
	Questions []Question
	Pos       scenarios.Pos // where the section is written
}

// From is the step the section opens at, To the last it shows.
func (s *Section) From() int { return s.Stops[0] }

// To is the last step the section shows.
func (s *Section) To() int { return s.Stops[len(s.Stops)-1] }

// Next is the stop after step pos, and whether there is one in this section.
func (s *Section) Next(pos int) (int, bool) {
	i, _ := slices.BinarySearch(s.Stops, pos+1)
	if i == len(s.Stops) {
		return 0, false
	}
	return s.Stops[i], true
}

// Question is a question for the room: free text with its answer, or a predict checkpoint
// whose expected answer the engine checked.
type Question struct {
	Ask string
	// At is the step the question belongs to: for a predict checkpoint, the barrier that marks
	// the buffer (it is asked before that step); for free text, the step it is asked at.
	At      int
	Answer  string // free text: the answer
	Predict bool
	// Visible and Hidden are a predict checkpoint's buffered rows, as the scenario format writes
	// them (`+ 3 102`); Why says why each is what it is, in the engine's words (visible ones
	// first, then hidden ones, in the order written).
	Visible, Hidden []string
	Why             []string
	Epoch           int64 // the marking barrier's epoch
	Pos             scenarios.Pos
}

// Minutes is the lesson's planned time, the sum of its sections'.
func (l *Lesson) Minutes() int {
	n := 0
	for _, s := range l.Sections {
		n += s.Minutes
	}
	return n
}

var (
	topKeys      = []string{"title", "summary", "minutes", "sections"}
	sectionKeys  = []string{"title", "goal", "scenario", "release", "bug", "steps", "minutes", "notes", "questions"}
	rangeKeys    = []string{"from", "to"}
	questionKeys = []string{"ask", "answer", "at", "expect"}
	expectKeys   = []string{"visible", "hidden"}
)

// Parse reads a lesson file and checks it: every section's scenario is opened and run (with
// its bug mode), its steps must lie within it, and every predict checkpoint's expected answer
// must be the engine's. Every error is a *scenarios.Error naming file:line:column.
func Parse(file string, text []byte) (*Lesson, error) {
	if len(text) > limits.bytes { // before any work
		kib := ""
		if limits.bytes%1024 == 0 {
			kib = fmt.Sprintf(" (%d KiB)", limits.bytes/1024)
		}
		return nil, &scenarios.Error{File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("the lesson is %d bytes; the limit is %d bytes%s", len(text), limits.bytes, kib)}
	}
	r := scenarios.NewReader(file, "lesson", text)
	l := &Lesson{File: file}
	err := r.Read(func(root *yaml.Node) {
		if root == nil {
			r.FailAt(scenarios.Pos{Line: 1, Col: 1}, "empty lesson: expected a mapping with keys title and sections")
		}
		rd := reader{r: r}
		rd.lesson(root, l)
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// reader reads one lesson through the scenario parser's Reader.
type reader struct{ r *scenarios.Reader }

func pos(n *yaml.Node) scenarios.Pos { return scenarios.Pos{Line: n.Line, Col: n.Column} }

func (rd reader) lesson(root *yaml.Node, l *Lesson) {
	r := rd.r
	top := r.Mapping(root, "lesson", topKeys...)
	t := r.Require(top, "title", "lesson")
	l.Title = r.Text(t, "title")
	if strings.TrimSpace(l.Title) == "" {
		r.Fail(t, "title must not be empty")
	}
	if _, s, ok := top.Get("summary"); ok {
		l.Summary = r.Text(s, "summary")
	}
	items := r.Sequence(r.Require(top, "sections", "lesson"), "sections")
	if len(items) == 0 {
		r.Fail(root, "sections: a lesson needs at least one section")
	}
	if len(items) > limits.sections {
		r.Fail(items[limits.sections], "more than %d sections; the limit is %d", limits.sections, limits.sections)
	}
	for i, it := range items {
		l.Sections = append(l.Sections, rd.section(it, i+1))
	}
	total := l.Minutes()
	if total > MaxMinutes {
		r.Fail(root, "the sections plan %d minutes in all; the limit is %d", total, MaxMinutes)
	}
	if _, m, ok := top.Get("minutes"); ok {
		want := int(r.IntIn(m, "minutes", 1, MaxMinutes))
		if want != total {
			r.Fail(m, "minutes: %d, but the sections plan %d minutes in all (%s)", want, total, minutesList(l.Sections))
		}
	}
}

func minutesList(ss []Section) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = itoa(s.Minutes)
	}
	return strings.Join(parts, " + ")
}
