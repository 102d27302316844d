// Package firstview writes every built-in scenario's views at every step as static files, so the
// page shows a built-in before the engine (the wasm) has loaded (web/boot/stored.js reads them;
// docs/view.md, "Stored views"). The views are the bridge's own (session and wire, as wasm/ writes
// them), stored without the parts a run shares: its marks, code map and log of outputs are
// stored once beside them, and stored.js puts each view's in it (it answers the bridge's shape).
//
// Files (under DIR/views/):
//
//	index.json           {bugs, legend, glossary, open, runs, default_release}: what the first view
//	                     asks for, each scenario's run as opened ({release, bug}) and its stored runs
//	lists.json           {scenarios, lessons}: the lists the page asks for after its first view
//	NAME/RELEASE.BUG.json one run: {keys, marks, code_map, outputs, views}; views[0] is step 0's
//	                     view without them, views[n] only the keys whose JSON differs from step n-1's
//	NAME.json            the run a link #scenario=NAME shows (Run.File)
package firstview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"

	"github.com/backfill-explainer/explainer/codemap"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/glossary"
	"github.com/backfill-explainer/explainer/lessons"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
	"github.com/backfill-explainer/explainer/wire"
)

// Run names one stored run: a built-in under a release and a bug mode ("none" for none).
type Run struct {
	Scenario, Release, Bug string
}

// File is the run's path under views/: NAME.json for the run a link #scenario=NAME shows (the
// default release, the bug mode the file opens with: fetched before the index says which it is),
// else NAME/RELEASE.BUG.json.
func (r Run) File(opensBug string) string {
	if r.Release == engine.DefaultRelease.Name && r.Bug == opensBug {
		return r.Scenario + ".json"
	}
	return path.Join(r.Scenario, r.Release+"."+r.Bug+".json")
}

// Runs lists the runs stored for a built-in: every release, under the bug mode it opens with
// and, when that is a bug mode, without one.
func Runs(name string) ([]Run, error) {
	s, err := session.OpenBuiltin(name)
	if err != nil {
		return nil, err
	}
	bugs := []string{bugName(s.Scenario.Config.Bug)}
	if bugs[0] != "none" {
		bugs = append(bugs, "none")
	}
	var out []Run
	for _, r := range engine.Releases {
		for _, b := range bugs {
			out = append(out, Run{name, r.Name, b})
		}
	}
	return out, nil
}

func bugName(b engine.Bug) string {
	if b == engine.BugNone {
		return "none"
	}
	return b.String()
}

// Open opens the run as the page reaches it: the built-in, then its bug mode, then its release
// (each only when it differs from what the file opens with).
func Open(r Run) (*session.Session, error) {
	s, err := session.OpenBuiltin(r.Scenario)
	if err != nil {
		return nil, err
	}
	if bugName(s.Scenario.Config.Bug) != r.Bug {
		if err := s.SetBug(r.Bug); err != nil {
			return nil, err
		}
	}
	if s.Scenario.Config.RunRelease().Name != r.Release {
		if err := s.SetRelease(r.Release); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// LeanView is the view the bridge answers without the marks, code map and outputs a run file
// stores once, with revision 0 (the reader numbers its own revisions).
func LeanView(s *session.Session) []byte {
	v := s.View()
	v.Marks, v.CodeMap, v.Outputs = nil, nil, nil
	v.Revision = 0
	return wire.AppendView(nil, v)
}

// Write makes every file: path under views/ → contents.
func Write() (map[string][]byte, error) {
	files := map[string][]byte{}
	open := map[string]map[string]string{}
	runs := map[string][]string{}
	for _, name := range scenarios.BuiltinNames() {
		s, err := session.OpenBuiltin(name)
		if err != nil {
			return nil, err
		}
		open[name] = map[string]string{"release": s.Scenario.Config.RunRelease().Name, "bug": bugName(s.Scenario.Config.Bug)}
		rs, err := Runs(name)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			f := r.File(open[name]["bug"])
			b, err := runFile(r)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			files[f] = b
			runs[name] = append(runs[name], r.Release+"."+r.Bug)
		}
	}
	lists := []byte(`{"scenarios":`)
	lists = scenarios.AppendJSONInfos(lists, scenarios.Builtins())
	lists = append(lists, `,"lessons":`...)
	lists = lessons.AppendJSONInfos(lists, lessons.Builtins())
	files["lists.json"] = append(lists, '}')
	idx := []byte(`{"bugs":`)
	idx = wire.AppendJSONBugs(idx, engine.Bugs)
	idx = append(idx, `,"legend":`...)
	idx = glossary.AppendJSONLegend(idx, glossary.Legend, view.EventLegend())
	idx = append(idx, `,"glossary":`...)
	idx = glossary.AppendJSONGlossary(idx, glossary.Glossary)
	rest, err := json.Marshal(map[string]any{"open": open, "runs": runs, "default_release": engine.DefaultRelease.Name})
	if err != nil {
		return nil, err
	}
	idx = append(idx, ',')
	idx = append(idx, rest[1:]...)
	files["index.json"] = idx
	return files, nil
}

// runFile writes one run's views at every step, reached by stepping from step 0.
func runFile(r Run) ([]byte, error) {
	s, err := Open(r)
	if err != nil {
		return nil, err
	}
	if err := s.Goto(0); err != nil {
		return nil, err
	}
	n := s.Steps()
	var keys []string
	var prev [][]byte
	views := make([]json.RawMessage, 0, n+1)
	for i := 0; i <= n; i++ {
		if i > 0 {
			if err := s.Step(); err != nil {
				return nil, fmt.Errorf("step %d: %w", i, err)
			}
		}
		k, vals, err := topLevel(LeanView(s))
		if err != nil {
			return nil, err
		}
		if keys == nil {
			keys = k
		} else if !sameKeys(keys, k) {
			return nil, fmt.Errorf("step %d: the view's keys differ from step 0's", i)
		}
		var b bytes.Buffer
		b.WriteByte('{')
		first := true
		for j, key := range k {
			if prev != nil && bytes.Equal(prev[j], vals[j]) {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			kb, _ := json.Marshal(key)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(vals[j])
		}
		b.WriteByte('}')
		views = append(views, b.Bytes())
		prev = vals
	}
	// the log at the end holds every output of every step (a step never changes an earlier one;
	// the Go test checks each view's window against it)
	out := []byte(`{"keys":`)
	kb, _ := json.Marshal(keys)
	out = append(out, kb...)
	out = append(out, `,"marks":`...)
	out = wire.AppendMarks(out, s.Timeline().Marks())
	out = append(out, `,"code_map":`...)
	out = wire.AppendCodeLines(out, codemap.Of(s.Timeline().Engine().Release()))
	out = append(out, `,"outputs":`...)
	out = wire.AppendJSONOutputs(out, s.Timeline().Engine().Outputs())
	out = append(out, `,"views":[`...)
	for i, v := range views {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, v...)
	}
	return append(out, "]}"...), nil
}

func sameKeys(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// topLevel splits a JSON object into its keys and their values' JSON, in order.
func topLevel(obj []byte) ([]string, [][]byte, error) {
	d := json.NewDecoder(bytes.NewReader(obj))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("not a JSON object")
	}
	var keys []string
	var vals [][]byte
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, nil, err
		}
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			return nil, nil, err
		}
		keys = append(keys, t.(string))
		vals = append(vals, raw)
	}
	return keys, vals, nil
}
