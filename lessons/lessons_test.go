package lessons

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/internal/jsonw/jsontest"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

var update = flag.Bool("update", false, "rewrite testdata/plan/*.txt from the built-in lessons")

// Every built-in lesson reads and checks; the workshop plans 45 minutes, the walk-through 10.
func TestBuiltinsValid(t *testing.T) {
	minutes := map[string]int{"workshop": 45, "met-this-error": 10}
	require.Equal(t, []string{"workshop", "met-this-error"}, BuiltinNames())
	for _, n := range BuiltinNames() {
		l, err := OpenBuiltin(n)
		require.NoError(t, err, n)
		assert.Equal(t, minutes[n], l.Minutes(), n)
		for i, s := range l.Sections {
			assert.NotEmpty(t, s.Goal, "%s section %d", n, i+1)
			assert.NotEmpty(t, s.Questions, "%s section %d", n, i+1)
			assert.NotEmpty(t, s.Scenario, "%s section %d plays a built-in", n, i+1)
		}
	}
	infos := Builtins()
	require.Len(t, infos, 2)
	assert.Equal(t, Info{Name: "met-this-error", Title: "I met this error: locality provider upstream ended unexpectedly during backfill",
		Summary: "A 10-minute walk-through for someone who found this message in a log: where the executor", Minutes: 10, Sections: 4}, infos[1])
}

// The workshop has a predict checkpoint in most sections, and its sections are the topics; the
// releases' section plays fatal-upstream-end under v3.0, then under v3.1, to the failure step.
func TestWorkshopShape(t *testing.T) {
	l, err := OpenBuiltin("workshop")
	require.NoError(t, err)
	var titles []string
	predicts := 0
	for _, s := range l.Sections {
		titles = append(titles, s.Title)
		for _, q := range s.Questions {
			if q.Predict {
				predicts++
			}
		}
	}
	assert.Equal(t, []string{"Why buffer", "Builders and the drain", "Marking, row by row", "The fatal path and recovery",
		"What each release does: an upstream end under v3.0", "What each release does: the same end under v3.1", "The bug that was fixed"}, titles)
	assert.Equal(t, 6, predicts)
	for i, want := range []string{"v3.0", "v3.1"} {
		s := l.Sections[4+i]
		assert.Equal(t, "fatal-upstream-end", s.Scenario)
		assert.Equal(t, want, s.Release)
		assert.Contains(t, s.Stops, 10, "the upstream's end")
	}
}

// The plan text of each built-in, against its golden file (go test ./lessons -update rewrites them).
func TestPlanTextGolden(t *testing.T) {
	for _, n := range BuiltinNames() {
		l, err := OpenBuiltin(n)
		require.NoError(t, err)
		got := l.Plan().Text()
		file := filepath.Join("testdata", "plan", n+".txt")
		if *update {
			require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
		}
		want, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, string(want), got, "%s (go test ./lessons -update)", n)
	}
}

// The plan's JSON is encoding/json's, byte for byte: the built-ins and random plans.
func TestPlanJSONAsEncodingJSON(t *testing.T) {
	check := func(v any, got []byte) {
		want, err := jsontest.Encoder(v)
		require.NoError(t, err)
		assert.Equal(t, want, string(got))
	}
	for _, n := range BuiltinNames() {
		l, err := OpenBuiltin(n)
		require.NoError(t, err)
		p := l.Plan()
		check(p, p.AppendJSON(nil))
	}
	infos := Builtins()
	check(infos, AppendJSONInfos(nil, infos))
	f := jsontest.New(7)
	for range 200 {
		var p Plan
		f.Fill(&p)
		check(&p, p.AppendJSON(nil))
		var i []Info
		f.Fill(&i)
		check(i, AppendJSONInfos(nil, i))
	}
}

// A section's release is played: its questions are checked against that release's run. In
// rescale-mid-backfill, v3.1 fails at the rescale barrier (step 8) and the replayed chunk of
// step 11 is marked at barrier e6 (step 12); v3.0 ignores the rescale, so step 11 cannot happen
// (the upstream already holds those rows) and e6 finds nothing buffered.
func TestSectionPlaysItsRelease(t *testing.T) {
	lesson := func(release string) string {
		return "title: t\nsections:\n  - title: s\n    scenario: rescale-mid-backfill\n    minutes: 5\n" + release +
			"    questions:\n      - {ask: q, at: 12, expect: {hidden: [\"+ 3 102 y\", \"+ 12 201 y\"]}}\n"
	}
	for _, r := range []string{"", "    release: v3.1\n"} {
		l, err := Parse("f.yaml", []byte(lesson(r)))
		require.NoError(t, err, r)
		assert.Equal(t, int64(6), l.Sections[0].Questions[0].Epoch)
	}
	_, err := Parse("f.yaml", []byte(lesson("    release: v3.0\n")))
	assert.EqualError(t, err, "f.yaml:8:22: section 1 question 1: at 12: step 12 is not a barrier that marks buffered rows (no barrier within reach marks buffered rows)")
	l, err := Parse("f.yaml", []byte(strings.Replace(lesson("    release: v3.0\n"), "at: 12, expect: {hidden: [\"+ 3 102 y\", \"+ 12 201 y\"]}", "answer: a", 1)))
	require.NoError(t, err)
	assert.Equal(t, "v3.0", l.Sections[0].Release)
	assert.Equal(t, "v3.0", l.Plan().Sections[0].Release)
}

func TestSectionNext(t *testing.T) {
	s := Section{Stops: []int{5, 6, 9, 10}}
	for pos, want := range map[int]int{0: 5, 5: 6, 6: 9, 7: 9, 9: 10} {
		got, ok := s.Next(pos)
		assert.True(t, ok)
		assert.Equal(t, want, got, "after %d", pos)
	}
	_, ok := s.Next(10)
	assert.False(t, ok)
	assert.Equal(t, 5, s.From())
	assert.Equal(t, 10, s.To())
}

// An inline scenario, its steps and a predict question read and check.
func TestInlineScenario(t *testing.T) {
	l, err := Parse("l.yaml", []byte(inline+"    steps: {from: 4, to: 8}\n    questions:\n"+
		"      - {ask: \"which?\", at: 6, expect: {visible: [\"+ 1 99\"], hidden: [\"+ 3 102\"]}}\n"))
	require.NoError(t, err)
	s := l.Sections[0]
	assert.Equal(t, "", s.Scenario)
	assert.Equal(t, "tiny", s.ScenarioTitle)
	assert.Equal(t, 8, s.Steps)
	assert.Equal(t, []int{4, 5, 6, 7, 8}, s.Stops)
	q := s.Questions[0]
	assert.True(t, q.Predict)
	assert.Equal(t, []string{"+ 1 99"}, q.Visible)
	assert.Equal(t, []string{"+ 3 102"}, q.Hidden)
	assert.Len(t, q.Why, 2)
	p := l.Plan()
	assert.Contains(t, p.Sections[0].ScenarioText, "title: tiny")
	_, err = session.Load("again", []byte(p.Sections[0].ScenarioText))
	assert.NoError(t, err, "the plan's inline scenario text opens")
}

// inline is a lesson of one section with an inline scenario of 8 steps (its keys continue at 4
// spaces): barrier 3 at step 6 marks the chunk of step 5 against vnode 0's pos (1,100).
const inline = `title: l
sections:
  - title: s
    minutes: 5
    scenario:
      title: tiny
      table: {columns: [a, id], locality: [a], stream_key: [id]}
      vnodes: {count: 2, rule: ranges, bounds: [10]}
      steps:
        - barrier: 1
        - chunk: ["+ 1 100", "+ 2 101", "+ 12 200"]
        - barrier: {epoch: 2, start_backfill: [1]}
        - snapshot: 1
        - chunk: ["+ 1 99", "+ 3 102"]
        - barrier: 3
        - snapshot: 4
        - barrier: 4
`

func TestErrorsArePositioned(t *testing.T) {
	sec := func(extra string) string {
		return "title: t\nsections:\n  - title: s\n    scenario: happy-path\n    minutes: 5\n" + extra
	}
	cases := []struct{ name, text, want string }{
		{"yaml", "title: [\n", "f.yaml:1:9: invalid YAML: did not find expected node content"},
		{"empty", "", "f.yaml:1:1: empty lesson: expected a mapping with keys title and sections"},
		{"unknown top key", "title: t\nsection: []\n", `f.yaml:2:1: unknown key "section" in lesson; allowed keys: title, summary, minutes, sections`},
		{"no sections", "title: t\nsections: []\n", "f.yaml:1:1: sections: a lesson needs at least one section"},
		{"unknown section key", sec("    goals: x\n"), `f.yaml:6:5: unknown key "goals" in section 1; allowed keys: title, goal, scenario, release, bug, steps, minutes, notes, questions`},
		{"no scenario", "title: t\nsections:\n  - {title: s, minutes: 3}\n", `f.yaml:3:5: section 1: missing key "scenario"`},
		{"unknown scenario", "title: t\nsections:\n  - {title: s, minutes: 3, scenario: happy}\n", "f.yaml:3:38: section 1: no built-in scenario named \"happy\" (`backfill list` names them)"},
		{"release", sec("    release: 3.0\n"), "f.yaml:6:14: section 1: unknown release the number 3.0; one of " + scenarios.ReleaseNames()},
		{"release name", sec("    release: \"3.0\"\n"), `f.yaml:6:14: section 1: unknown release "3.0": write v3.0 (one of ` + scenarios.ReleaseNames() + `)`},
		{"bug", sec("    bug: typo\n"), `f.yaml:6:10: section 1: unknown bug mode "typo" (one of: no-state-write, mark-before-drain, mark-on-arrival, emit-beyond-pos)`},
		{"to past the end", sec("    steps: {from: 2, to: 19}\n"), "f.yaml:6:26: section 1 steps: to 19 is past the scenario's last step (it has 18 steps)"},
		{"to before from", sec("    steps: {from: 5, to: 4}\n"), "f.yaml:6:26: section 1 steps: to 4 comes before from 5"},
		{"stops not increasing", sec("    steps: [3, 3]\n"), "f.yaml:6:16: section 1 steps: stop 3 does not come after 3; list the steps in increasing order"},
		{"minutes", "title: t\nminutes: 9\nsections:\n  - {title: s, minutes: 3, scenario: happy-path}\n  - {title: s, minutes: 5, scenario: happy-path}\n",
			"f.yaml:2:10: minutes: 9, but the sections plan 8 minutes in all (3 + 5)"},
		{"section minutes", sec("")[:len(sec(""))-2] + "0\n", "f.yaml:5:14: section 1 minutes must be in 1..240, found 0"},
		{"question both", sec("    questions:\n      - {ask: q, answer: a, expect: {}}\n"), "f.yaml:7:37: section 1 question 1: a question has either an answer (free text) or expect (a predict checkpoint), not both"},
		{"question neither", sec("    questions:\n      - {ask: q}\n"), `f.yaml:7:9: section 1 question 1: missing key "answer" (free text) or "expect" (a predict checkpoint)`},
		{"free at outside", sec("    steps: {from: 2, to: 5}\n    questions:\n      - {ask: q, answer: a, at: 7}\n"), "f.yaml:8:33: section 1 question 1: at 7 is outside the section's steps 2..5"},
		{"predict not a marking barrier", sec("    questions:\n      - {ask: q, at: 6, expect: {}}\n"),
			"f.yaml:7:22: section 1 question 1: at 6: step 6 is not a barrier that marks buffered rows (the next that does is step 10)"},
		{"predict wrong side", sec("    questions:\n      - {ask: q, at: 10, expect: {visible: [\"+ 3 102\"], hidden: [\"+ 13 202\"]}}\n"),
			"f.yaml:7:45: section 1 question 1: +(3,102) is hidden at barrier e4 (step 10), not visible: +(3,102) hidden: vnode 0 is in progress at (2,101) and (3,102) > (2,101); the chunk is written to the state table, so this row is left to the refreshed snapshot, which reads it from there"},
		{"predict missing row", sec("    questions:\n      - {ask: q, at: 10, expect: {hidden: [\"+ 3 102\"]}}\n"),
			"f.yaml:7:34: section 1 question 1: expect: the buffer also holds +(13,202) when barrier e4 (step 10) marks it; list it under visible or hidden"},
		{"predict unknown row", sec("    questions:\n      - {ask: q, at: 10, expect: {hidden: [\"+ 3 102\", \"+ 4 4\"]}}\n"),
			"f.yaml:7:55: section 1 question 1: +(4,4) is not buffered when barrier e4 (step 10) marks the buffer; buffered: +(3,102) +(13,202)"},
		{"predict row listed twice", sec("    questions:\n      - {ask: q, at: 10, expect: {visible: [], hidden: [\"+ 3 102\", \"+ 3 102\", \"+ 13 202\"]}}\n"),
			"f.yaml:7:68: section 1 question 1: +(3,102) is listed twice (first at line 7, column 57); the buffer holds it once"},
		{"predict bad row", sec("    questions:\n      - {ask: q, at: 10, expect: {hidden: [\"+ 3\"]}}\n"),
			"f.yaml:7:45: row has 1 value; the table has 2 columns (a, id)"},
		{"inline scenario error", strings.Replace(inline, "- barrier: 4", "- barrier: 2", 1), "f.yaml:17:20: epoch 2 does not increase: the barrier at line 15 had epoch 3 (epochs increase strictly, also across recover)"},
		{"inline scenario run error", strings.Replace(inline, "snapshot: 4", "snapshot: 5", 1), "f.yaml:16:11: step 7: the snapshot has only 4 items left (its rows and its end); this step asks for 5"},
		{"octal-looking minutes", sec("")[:len(sec(""))-2] + "010\n", "f.yaml:5:14: section 1 minutes: integer 010: integers are decimal; a leading zero is not allowed (YAML 1.1 reads 010 as octal 8); write 8 or 10"},
		{"two documents", sec("---\ntitle: u\n"), "f.yaml:6:1: a lesson is one YAML document; found a second one"},
	}
	for _, c := range cases {
		_, err := Parse("f.yaml", []byte(c.text))
		if !assert.Error(t, err, c.name) {
			continue
		}
		var e *scenarios.Error
		assert.ErrorAs(t, err, &e, c.name)
		assert.Equal(t, c.want, err.Error(), c.name)
	}
}

func TestLimits(t *testing.T) {
	saved := limits
	defer func() { limits = saved }()
	limits.sections = 1
	limits.questions = 1
	limits.bytes = 400
	two := "title: t\nsections:\n  - {title: a, minutes: 1, scenario: happy-path}\n  - {title: b, minutes: 1, scenario: happy-path}\n"
	_, err := Parse("f", []byte(two))
	assert.EqualError(t, err, "f:4:5: more than 1 sections; the limit is 1")
	q := "title: t\nsections:\n  - title: a\n    minutes: 1\n    scenario: happy-path\n    questions: [{ask: a, answer: b}, {ask: c, answer: d}]\n"
	_, err = Parse("f", []byte(q))
	assert.EqualError(t, err, "f:6:38: section 1: more than 1 questions; the limit is 1")
	_, err = Parse("f", []byte(two+strings.Repeat("#", 400)+"\n"))
	assert.EqualError(t, err, "f:1:1: the lesson is 518 bytes; the limit is 400 bytes")
}

// A lesson is refused by its size before it is read: a 932 KB lesson took 17 s and 2.7 GB on
// the page. Text that is not even YAML gets the size's error, not the YAML's.
func TestLessonSizeIsCheckedFirst(t *testing.T) {
	_, err := Parse("f", []byte("title: [\n"+strings.Repeat("# comment\n", 7000)))
	assert.EqualError(t, err, "f:1:1: the lesson is 70009 bytes; the limit is 65536 bytes (64 KiB)")
}

// A long name is quoted at most quote.MaxChars characters in the error (the page shows it).
func TestBuiltinTextQuotesNameBounded(t *testing.T) {
	for _, name := range []string{strings.Repeat("l", 200000), strings.Repeat("l", 5000) + "/x"} {
		_, err := BuiltinText(name)
		if err == nil || strings.Contains(err.Error(), strings.Repeat("l", 201)) {
			t.Fatalf("error quotes the %d-character name whole (or none): %.300v", len(name), err)
		}
	}
}
