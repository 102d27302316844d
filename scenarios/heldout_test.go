package scenarios_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/golden"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// The held-out cases (testdata/heldout; docs/scenario-format.md, "Held-out cases"): scenarios
// that are no built-in, each run under every release. For each release, NAME.RELEASE.json is the
// trace of `backfill run --json --release RELEASE NAME.yaml` (rewritten by
// `go test ./scenarios -run TestHeldout -update`), and NAME.rules.json says, by hand and from
// RisingWave's source at that release's tag, what must happen: so the test fails when the engine
// is wrong, not only when it changes.

var update = flag.Bool("update", false, "rewrite testdata/heldout/NAME.RELEASE.json from the engine")

const heldoutDir = "testdata/heldout"

// heldoutRules is a NAME.rules.json.
type heldoutRules struct {
	Covers   []string                   `json:"covers"` // the rules it exercises: "differs: …" or "same: …"
	Source   []string                   `json:"source"` // where each release's source says so
	Releases map[string]json.RawMessage `json:"releases"`
}

// releaseRules is what must hold under one release. "like": R takes R's keys, then its own.
type releaseRules struct {
	SameTraceAs   string          `json:"same_trace_as"` // the trace equals that release's, `release` aside
	Phases        []string        `json:"phases"`        // the phase after each step
	Failures      []failureRule   `json:"failures"`      // every failure, at the step it happened
	Outputs       []string        `json:"outputs"`       // "STEP: OUTPUT" (engine.Output.String)
	Downstream    json.RawMessage `json:"downstream"`    // at the end
	ProgressTable json.RawMessage `json:"progress_table"`
	Actor         string          `json:"actor"` // the view's actor.state at the end
	Checks        []stepCheck     `json:"checks"`
	Reports       *[]reportRule   `json:"reports"` // progress reports to the meta service
}

type failureRule struct {
	Step    int    `json:"step"`
	Message string `json:"message"`
	Panic   bool   `json:"panic"`
}

// stepCheck is what holds after one step: each key optional.
type stepCheck struct {
	Step          int             `json:"step"`
	Site          string          `json:"site"` // a narration site said at that step
	Has           string          `json:"has"`  // a sentence of that step's narration contains it
	Actor         string          `json:"actor"`
	Downstream    json.RawMessage `json:"downstream"`
	ProgressTable json.RawMessage `json:"progress_table"`
}

type reportRule struct {
	Step     int    `json:"step"`
	Kind     string `json:"kind"`
	Rows     int64  `json:"rows"`
	Buffered int64  `json:"buffered"`
}

// heldoutFiles lists the held-out scenarios, by name.
func heldoutFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(heldoutDir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no held-out cases in %s", heldoutDir)
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".yaml"))
	}
	return names
}

func strictJSON(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// readRules reads NAME.rules.json and resolves every release's "like".
func readRules(name string) (map[string]releaseRules, error) {
	path := filepath.Join(heldoutDir, name+".rules.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var hr heldoutRules
	if err := strictJSON(data, &hr); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(hr.Covers) == 0 || len(hr.Source) == 0 {
		return nil, fmt.Errorf("%s: say which rules it covers (covers) and where the source says them (source)", path)
	}
	if err := addReleaseRules(name, hr.Releases); err != nil {
		return nil, err
	}
	var resolve func(rel string, seen []string) (map[string]json.RawMessage, error)
	resolve = func(rel string, seen []string) (map[string]json.RawMessage, error) {
		raw, ok := hr.Releases[rel]
		if !ok {
			return nil, fmt.Errorf("%s: no release %q", path, rel)
		}
		if slices.Contains(seen, rel) {
			return nil, fmt.Errorf("%s: \"like\" loops through %s", path, strings.Join(append(seen, rel), " → "))
		}
		var own map[string]json.RawMessage
		if err := json.Unmarshal(raw, &own); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, rel, err)
		}
		out := map[string]json.RawMessage{}
		if like, ok := own["like"]; ok {
			var base string
			if err := json.Unmarshal(like, &base); err != nil {
				return nil, fmt.Errorf("%s: %s: like: %v", path, rel, err)
			}
			b, err := resolve(base, append(seen, rel))
			if err != nil {
				return nil, err
			}
			for k, v := range b {
				if k != "same_trace_as" { // a release says its own
					out[k] = v
				}
			}
		}
		for k, v := range own {
			if k != "like" {
				out[k] = v
			}
		}
		return out, nil
	}
	rules := map[string]releaseRules{}
	for rel := range hr.Releases {
		m, err := resolve(rel, nil)
		if err != nil {
			return nil, err
		}
		merged, _ := json.Marshal(m)
		var rr releaseRules
		if err := strictJSON(merged, &rr); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, rel, err)
		}
		for key, missing := range map[string]bool{"phases": rr.Phases == nil, "failures": rr.Failures == nil,
			"outputs": rr.Outputs == nil, "downstream": rr.Downstream == nil, "progress_table": rr.ProgressTable == nil,
			"actor": rr.Actor == "", "reports": rr.Reports == nil} {
			if missing {
				return nil, fmt.Errorf("%s: %s: no %q", path, rel, key)
			}
		}
		rules[rel] = rr
	}
	return rules, nil
}

// heldoutRun opens a held-out file under a release, as `backfill run --release R FILE` does.
func heldoutRun(t *testing.T, name, release string) *session.Session {
	t.Helper()
	path := filepath.Join(heldoutDir, name+".yaml")
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	s, err := session.Load(path, text)
	require.NoError(t, err, "%s", path)
	require.NoError(t, s.SetRelease(release), "%s --release %s", path, release)
	return s
}

// traceJSON is the trace at the end, byte for byte as `backfill run --json` prints it.
func traceJSON(t *testing.T, s *session.Session) []byte {
	t.Helper()
	require.NoError(t, s.RunToEnd())
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(s.Trace()))
	return b.Bytes()
}

// asJSON turns a value into plain JSON values (numbers float64), to compare with a rules file's.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return emptyList(out)
}

// emptyList reads null as an empty list (an engine's nil slice).
func emptyList(v any) any {
	if v == nil {
		return []any{}
	}
	return v
}

func rawJSON(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var out any
	require.NoError(t, json.Unmarshal(raw, &out))
	return emptyList(out)
}

// TestHeldoutFiles: every held-out case has its rules for exactly the engine's releases and a
// trace per release, nothing else lies in the folder, and none is a built-in in disguise: its
// table's columns are no built-in's and its steps are no built-in's.
func TestHeldoutFiles(t *testing.T) {
	names := heldoutFiles(t)
	var releases []string
	for _, r := range engine.Releases {
		releases = append(releases, r.Name)
	}
	want := map[string]bool{"releases": true} // (a release's rules for every case: addReleaseRules)
	for _, name := range names {
		want[name+".yaml"], want[name+".rules.json"] = true, true
		for _, r := range releases {
			want[name+"."+r+".json"] = true
		}
		rules, err := readRules(name)
		require.NoError(t, err)
		got := make([]string, 0, len(rules))
		for r := range rules {
			got = append(got, r)
		}
		sort.Strings(got)
		require.Equal(t, releases, got, "%s.rules.json: one entry per release", name)
	}
	entries, err := os.ReadDir(heldoutDir)
	require.NoError(t, err)
	for _, e := range entries {
		require.True(t, want[e.Name()], "%s/%s: not a held-out case, its rules or one of its traces", heldoutDir, e.Name())
	}
	for _, name := range names {
		s := heldoutRun(t, name, engine.DefaultRelease.Name)
		cols := columnNames(s.Scenario.Config)
		steps := stepTexts(s.Scenario)
		for _, b := range scenarios.BuiltinNames() {
			bs, err := session.OpenBuiltin(b)
			require.NoError(t, err)
			require.NotEqual(t, columnNames(bs.Scenario.Config), cols, "%s: the table of built-in %s", name, b)
			require.NotEqual(t, stepTexts(bs.Scenario), steps, "%s: the steps of built-in %s", name, b)
		}
	}
}

func columnNames(c *engine.Config) []string {
	var out []string
	for _, col := range c.Columns {
		out = append(out, col.Name)
	}
	return out
}

func stepTexts(sc *scenarios.Scenario) []string {
	var out []string
	for _, st := range sc.Steps {
		out = append(out, scenarios.FormatStep(sc.Config, st))
	}
	return out
}

// TestHeldoutTraces: under each release, the trace is NAME.RELEASE.json byte for byte (with
// -update: rewrites it).
func TestHeldoutTraces(t *testing.T) {
	for _, name := range heldoutFiles(t) {
		for _, r := range engine.Releases {
			where := fmt.Sprintf("%s/%s.yaml --release %s", heldoutDir, name, r.Name)
			path := filepath.Join(heldoutDir, name+"."+r.Name+".json")
			got := traceJSON(t, heldoutRun(t, name, r.Name))
			if *update {
				require.NoError(t, os.WriteFile(path, got, 0o644))
				continue
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "%s: no expected trace (go test ./scenarios -run TestHeldout -update writes it)", where)
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the trace differs from %s (review, then go test ./scenarios -run TestHeldout -update if the change is right):\n%s",
					where, path, golden.FirstDiff(got, want))
			}
		}
	}
}

// TestHeldoutRules: under each release, what NAME.rules.json says holds: the phase after every
// step, every failure, every output with its step, downstream, the progress table and the actor
// at the end, the checks at given steps (narration sites and sentences, the actor, downstream,
// the progress table), the progress reports, and traces equal across releases where it says so.
func TestHeldoutRules(t *testing.T) {
	for _, name := range heldoutFiles(t) {
		rules, err := readRules(name)
		require.NoError(t, err)
		traces := map[string][]byte{}
		for _, r := range engine.Releases {
			s := heldoutRun(t, name, r.Name)
			traces[r.Name] = traceJSON(t, s)
			checkRules(t, fmt.Sprintf("%s/%s.yaml --release %s", heldoutDir, name, r.Name), s, rules[r.Name])
		}
		for _, r := range engine.Releases {
			other := rules[r.Name].SameTraceAs
			if other == "" {
				continue
			}
			a, b := withoutRelease(t, traces[r.Name]), withoutRelease(t, traces[other])
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s/%s.yaml --release %s: the trace should equal --release %s's (its release aside), and does not", heldoutDir, name, r.Name, other)
			}
		}
	}
}

func withoutRelease(t *testing.T, trace []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(trace, &m))
	delete(m, "release")
	return m
}

// checkRules checks one run against its release's rules; where names the file and release.
func checkRules(t *testing.T, where string, s *session.Session, rr releaseRules) {
	t.Helper()
	n := s.Steps()
	if len(rr.Phases) != n {
		t.Errorf("%s: phases lists %d steps, the scenario has %d", where, len(rr.Phases), n)
		return
	}
	checks := map[int][]stepCheck{}
	for _, c := range rr.Checks {
		if c.Step < 1 || c.Step > n {
			t.Errorf("%s: a check at step %d, outside 1..%d", where, c.Step, n)
		}
		checks[c.Step] = append(checks[c.Step], c)
	}
	var failures []failureRule
	for i := 1; i <= n; i++ {
		require.NoError(t, s.Goto(i))
		tr := s.Trace()
		if tr.Phase != rr.Phases[i-1] {
			t.Errorf("%s: phase after step %d: got %s, want %s", where, i, tr.Phase, rr.Phases[i-1])
		}
		if tr.Error != nil && tr.Error.Step == i {
			failures = append(failures, failureRule{Step: i, Message: tr.Error.Message, Panic: tr.Error.Panic})
		}
		for _, c := range checks[i] {
			checkStep(t, where, s, c)
		}
	}
	if failures == nil {
		failures = []failureRule{}
	}
	if !reflect.DeepEqual(failures, rr.Failures) {
		t.Errorf("%s: failures:\n got  %+v\n want %+v", where, failures, rr.Failures)
	}
	tr := s.Trace() // at the end
	var outs []string
	for _, o := range tr.Outputs {
		outs = append(outs, fmt.Sprintf("%d: %s", o.Step, o.String()))
	}
	if outs == nil {
		outs = []string{}
	}
	if !reflect.DeepEqual(outs, rr.Outputs) {
		t.Errorf("%s: outputs:\n got  %s\n want %s", where, strings.Join(outs, " | "), strings.Join(rr.Outputs, " | "))
	}
	if got, want := asJSON(t, tr.Downstream), rawJSON(t, rr.Downstream); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: downstream at the end: got %v, want %v", where, got, want)
	}
	if got, want := asJSON(t, tr.ProgressTable), rawJSON(t, rr.ProgressTable); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: progress_table at the end: got %v, want %v", where, got, want)
	}
	if got := s.View().Actor.State; got != rr.Actor {
		t.Errorf("%s: the actor at the end: got %q, want %q", where, got, rr.Actor)
	}
	reports := []reportRule{}
	for _, r := range s.Timeline().Engine().Reports() {
		reports = append(reports, reportRule{Step: r.Step, Kind: string(r.Kind), Rows: r.Rows, Buffered: r.Buffered})
	}
	if !reflect.DeepEqual(reports, *rr.Reports) {
		t.Errorf("%s: progress reports:\n got  %+v\n want %+v", where, reports, *rr.Reports)
	}
}

// checkStep checks what holds after one step (the session is at that step).
func checkStep(t *testing.T, where string, s *session.Session, c stepCheck) {
	t.Helper()
	explanations := s.Timeline().Engine().Explanations()
	if c.Site != "" && !slices.ContainsFunc(explanations, func(e engine.Explanation) bool { return e.Site == c.Site }) {
		var sites []string
		for _, e := range explanations {
			sites = append(sites, e.Site)
		}
		t.Errorf("%s: step %d does not say %s (it says %s)", where, c.Step, c.Site, strings.Join(sites, ", "))
	}
	if c.Has != "" && !slices.ContainsFunc(explanations, func(e engine.Explanation) bool { return strings.Contains(e.Text, c.Has) }) {
		t.Errorf("%s: no sentence of step %d's narration contains %q", where, c.Step, c.Has)
	}
	if c.Actor != "" {
		if got := s.View().Actor.State; got != c.Actor {
			t.Errorf("%s: the actor after step %d: got %q, want %q", where, c.Step, got, c.Actor)
		}
	}
	tr := s.Trace()
	if c.Downstream != nil {
		if got, want := asJSON(t, tr.Downstream), rawJSON(t, c.Downstream); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: downstream after step %d: got %v, want %v", where, c.Step, got, want)
		}
	}
	if c.ProgressTable != nil {
		if got, want := asJSON(t, tr.ProgressTable), rawJSON(t, c.ProgressTable); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: progress_table after step %d: got %v, want %v", where, c.Step, got, want)
		}
	}
}

// addReleaseRules adds a case's rules from the files of releases/ (RELEASE.rules.json: a
// release's rules for every case, written by hand from its source at its tag), so that a release
// added later is one file here rather than an entry in each case's file.
func addReleaseRules(name string, rules map[string]json.RawMessage) error {
	files, err := filepath.Glob(filepath.Join(heldoutDir, "releases", "*.rules.json"))
	if err != nil {
		return err
	}
	for _, path := range files {
		rel := strings.TrimSuffix(filepath.Base(path), ".rules.json")
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var rr struct {
			Source []string                   `json:"source"`
			Cases  map[string]json.RawMessage `json:"cases"`
		}
		if err := strictJSON(data, &rr); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		c, ok := rr.Cases[name]
		if !ok {
			return fmt.Errorf("%s: no rules for the case %s", path, name)
		}
		if _, dup := rules[rel]; dup {
			return fmt.Errorf("%s: %s's rules are also in %s.rules.json", path, rel, name)
		}
		rules[rel] = c
	}
	return nil
}
