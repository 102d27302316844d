package firstview

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/wire"
)

type stored struct {
	Keys    []string                     `json:"keys"`
	Marks   json.RawMessage              `json:"marks"`
	CodeMap json.RawMessage              `json:"code_map"`
	Outputs []json.RawMessage            `json:"outputs"`
	Views   []map[string]json.RawMessage `json:"views"`
}

// at rebuilds step n's lean view as the page's reader does: step 0's keys, then each later
// step's changed keys, in the keys' order.
func (st *stored) at(n int) []byte {
	cur := map[string]json.RawMessage{}
	for i := 0; i <= n; i++ {
		for k, v := range st.Views[i] {
			cur[k] = v
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range st.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(cur[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// TestStoredViewsEqualTheEngine: every stored run, rebuilt at every step, is the bridge's lean
// view there, reached by goto in a fresh session and by stepping back and forth; its marks, code
// map and each view's window of outputs are the engine's.
func TestStoredViewsEqualTheEngine(t *testing.T) {
	files, err := Write()
	if err != nil {
		t.Fatal(err)
	}
	var idx struct {
		Runs map[string][]string          `json:"runs"`
		Open map[string]map[string]string `json:"open"`
	}
	if err := json.Unmarshal(files["index.json"], &idx); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for name := range idx.Runs {
		rs, err := Runs(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if testing.Short() && (r.Release != engine.DefaultRelease.Name) {
				continue
			}
			var st stored
			f := r.File(idx.Open[name]["bug"])
			if err := json.Unmarshal(files[f], &st); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			s, err := Open(r)
			if err != nil {
				t.Fatal(err)
			}
			n := s.Steps()
			if len(st.Views) != n+1 {
				t.Fatalf("%s: %d views for %d steps", f, len(st.Views), n)
			}
			fresh, _ := Open(r)
			for i := n; i >= 0; i-- { // by goto, from the end (a different path from the file's)
				if err := fresh.Goto(i); err != nil {
					t.Fatal(err)
				}
				if got, want := st.at(i), LeanView(fresh); !bytes.Equal(got, want) {
					t.Fatalf("%s step %d (goto): stored view differs from the engine's:\n%s\n%s", f, i, got, want)
				}
				checkParts(t, f, i, &st, fresh)
			}
			for i := 1; i <= n; i++ { // back from each step
				if err := fresh.Goto(i); err != nil {
					t.Fatal(err)
				}
				if err := fresh.Back(); err != nil {
					t.Fatal(err)
				}
				if got, want := st.at(i-1), LeanView(fresh); !bytes.Equal(got, want) {
					t.Fatalf("%s step %d (back): stored view differs from the engine's", f, i-1)
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no run checked")
	}
}

func checkParts(t *testing.T, f string, i int, st *stored, s *session.Session) {
	t.Helper()
	v := s.View()
	if got := wire.AppendMarks(nil, v.Marks); !bytes.Equal(got, st.Marks) {
		t.Fatalf("%s step %d: marks differ", f, i)
	}
	if got := wire.AppendCodeLines(nil, v.CodeMap); !bytes.Equal(got, st.CodeMap) {
		t.Fatalf("%s step %d: code map differs", f, i)
	}
	if v.OutputsTotal > len(st.Outputs) {
		t.Fatalf("%s step %d: %d outputs, the stored log has %d", f, i, v.OutputsTotal, len(st.Outputs))
	}
	for j, o := range v.Outputs {
		if got := wire.AppendJSONOutputs(nil, []engine.Output{o}); !bytes.Equal(got[1:len(got)-1], st.Outputs[v.OutputsFirst+j]) {
			t.Fatalf("%s step %d: output %d differs from the stored log's", f, i, v.OutputsFirst+j)
		}
	}
}

// TestBugThenReleaseIsReleaseThenBug: a run reached with its release first is the stored one
// (a link applies the bug mode first; the release menu may come first).
func TestBugThenReleaseIsReleaseThenBug(t *testing.T) {
	r := Run{"bug-no-state-write", "v2.8", "none"}
	a, err := Open(r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := session.OpenBuiltin(r.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetRelease(r.Release); err != nil {
		t.Fatal(err)
	}
	if err := b.SetBug(r.Bug); err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= a.Steps(); i++ {
		_ = a.Goto(i)
		_ = b.Goto(i)
		if !bytes.Equal(LeanView(a), LeanView(b)) {
			t.Fatalf("step %d differs", i)
		}
	}
}
