package scenarios

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/workload"
)

// Workload files (scale mode, docs/scenario-format.md "Workloads"): a scenario file whose
// `workload:` takes the place of `steps:`. Decisions where the format leaves a choice:
//   - Exactly one of `steps` and `workload`; with both, the error points at the second one.
//     Parse (a scenario with steps) refuses a workload file at its `workload` key, and
//     ParseWorkload refuses a file with steps at its `steps` key.
//   - A workload starts from empty tables: `start` is an error beside `workload`. `bug` is
//     allowed (the invariant check then catches the broken rule at production size).
//   - Inside a given `mix`, a weight left out is 0; without `mix`, the weights are 6/3/1.
//   - `fault` needs both `kind` and `epoch`. An epoch the run never reaches is an error at the
//     fault's epoch, found when the workload runs (Scale reports it like a parse error).
//   - Values must be integers (YAML integers; booleans, floats and strings are errors); each
//     range and combination is checked by workload.Workload.Check, whose errors are placed at the
//     key they name, or at the `workload` mapping when that key was left to its default.

// WorkloadScenario is a parsed workload file: the actor's configuration and its workload.
type WorkloadScenario struct {
	File     string
	Config   *engine.Config
	Workload workload.Workload
	pos      map[string]Pos // where each key the file gives ("rows", "mix.insert", …) has its value
	at       Pos            // the `workload` mapping
}

// ScaleSummary is what a workload's run shows (workload.ScaleSummary).
type ScaleSummary = workload.ScaleSummary

// ErrCanceled is what Scale returns when its progress callback asked it to stop.
var ErrCanceled = workload.ErrCanceled

var workloadKeys = []string{"rows", "seed", "start_after", "snapshot_per_epoch", "upstream_per_epoch", "mix", "after", "fault"}

// stepsOrWorkload returns the `steps` field of a scenario. For a workload file it parses the
// workload instead (into p.wl, when the caller asked for one) and returns an empty list of
// steps, so that the rest of the scenario is read the same way.
func (p *parser) stepsOrWorkload(top fields) field {
	w, isWorkload := top.get("workload")
	s, hasSteps := top.get("steps")
	switch {
	case isWorkload && hasSteps:
		later := w
		if s.key.Line > w.key.Line || s.key.Line == w.key.Line && s.key.Column > w.key.Column {
			later = s
		}
		p.failAt(later.key, "a scenario has either steps or a workload, not both (steps at line %d, workload at line %d)", s.key.Line, w.key.Line)
	case isWorkload && p.wl == nil:
		p.failAt(w.key, "this file is a workload (scale mode), not a list of steps: run it with `backfill run FILE`, or on the page's Scale panel")
	case isWorkload:
		if st, ok := top.get("start"); ok {
			p.failAt(st.key, "a workload starts from empty tables and generates its own rows; `start` is only for scenarios with steps")
		}
		p.workload(w)
		return field{key: w.key, val: &yaml.Node{Kind: yaml.SequenceNode, Line: w.val.Line, Column: w.val.Column}}
	case p.wl != nil && hasSteps:
		p.failAt(s.key, "this scenario has steps, not a workload: open it with `backfill run FILE` or the page's load(); scale mode needs `workload:` instead of `steps:`")
	case p.wl != nil:
		p.failAt(top.n, "scenario: missing key \"workload\" (scale mode runs a workload: `workload: {rows: N}`)")
	}
	return p.require(top, "steps", "scenario")
}

// workload reads the `workload` mapping into p.wl.
func (p *parser) workload(w field) {
	ws := p.wl
	ws.at = posOf(w.val)
	ws.Workload = workload.Default(0)
	f := p.mapping(w.val, "workload", workloadKeys...)
	num := func(key string) (int64, bool) {
		fl, ok := f.get(key)
		if !ok {
			return 0, false
		}
		ws.pos[key] = posOf(fl.val)
		return p.integer(fl.val, "workload."+key), true
	}
	wl := &ws.Workload
	rows, _ := num("rows")
	if _, ok := f.get("rows"); !ok {
		p.failAt(w.val, "workload: missing key \"rows\" (the rows the upstream inserts while buffering)")
	}
	wl.Rows = clampInt(rows)
	if v, ok := num("seed"); ok {
		wl.Seed = v
	}
	for _, k := range []struct {
		key string
		to  *int
	}{{"start_after", &wl.StartAfter}, {"snapshot_per_epoch", &wl.SnapshotPerEpoch}, {"upstream_per_epoch", &wl.UpstreamPerEpoch}, {"after", &wl.After}} {
		if v, ok := num(k.key); ok {
			*k.to = clampInt(v)
		}
	}
	if m, ok := f.get("mix"); ok {
		ws.pos["mix"] = posOf(m.val)
		mf := p.mapping(m.val, "workload.mix", "insert", "update", "delete")
		wl.Mix = workload.Mix{}
		for _, k := range []struct {
			key string
			to  *int
		}{{"insert", &wl.Mix.Insert}, {"update", &wl.Mix.Update}, {"delete", &wl.Mix.Delete}} {
			if fl, ok := mf.get(k.key); ok {
				ws.pos["mix."+k.key] = posOf(fl.val)
				*k.to = clampInt(p.integer(fl.val, "workload.mix."+k.key))
			}
		}
	}
	if fl, ok := f.get("fault"); ok {
		ws.pos["fault"] = posOf(fl.val)
		ff := p.mapping(fl.val, "workload.fault", "kind", "epoch")
		kind := p.require(ff, "kind", "workload.fault")
		ws.pos["fault.kind"] = posOf(kind.val)
		if kind.val.Kind != yaml.ScalarNode {
			p.failAt(kind.val, "workload.fault.kind: expected end, error or recover, found %s", describe(kind.val))
		}
		k, ok := workload.ParseFaultKind(kind.val.Value)
		if !ok {
			p.failAt(kind.val, "workload.fault.kind: unknown kind %s; expected end, error or recover", describe(kind.val))
		}
		epoch := p.require(ff, "epoch", "workload.fault")
		ws.pos["fault.epoch"] = posOf(epoch.val)
		wl.Fault = &workload.Fault{Kind: k, Epoch: p.integer(epoch.val, "workload.fault.epoch")}
	}
}

// clampInt keeps an int64 within int's range (a 32-bit int would otherwise wrap; Check then
// reports the value as out of range).
func clampInt(v int64) int {
	const maxInt, minInt = int64(int(^uint(0) >> 1)), -int64(int(^uint(0)>>1)) - 1
	return int(max(minInt, min(maxInt, v)))
}

// place turns an workload.Error into an *Error at the key it names (at the `workload`
// mapping when the file does not give that key).
func (ws *WorkloadScenario) place(err error) error {
	var we *workload.Error
	if !errors.As(err, &we) {
		return &Error{File: ws.File, Line: 1, Col: 1, Msg: err.Error()}
	}
	pos, ok := ws.pos[we.Field]
	if !ok {
		if i := strings.IndexByte(we.Field, '.'); i > 0 {
			pos, ok = ws.pos[we.Field[:i]]
		}
	}
	if !ok {
		pos = ws.at
	}
	what := "workload"
	if we.Field != "" {
		what += "." + we.Field
	}
	return &Error{File: ws.File, Line: pos.Line, Col: pos.Col, Msg: what + ": " + we.Msg}
}

// ParseWorkload reads a workload file (YAML or JSON). Every error is an *Error naming
// file:line:column: those of the scenario format, a file with steps instead of a workload,
// and every value or combination workload.Workload.Check refuses.
func ParseWorkload(file string, text []byte) (ws *WorkloadScenario, err error) {
	defer catch(&err)
	if len(text) > limits.bytes {
		fail(file, Pos{1, 1}, "the scenario is %d bytes; the limit is %d bytes (1 MiB)", len(text), limits.bytes)
	}
	p := newParser(file, text)
	p.wl = &WorkloadScenario{File: file, pos: map[string]Pos{}}
	root := p.decode(text)
	if root == nil {
		fail(file, Pos{1, 1}, "empty scenario: expected a mapping with keys title, table and workload")
	}
	sc := p.scenario(root)
	ws = p.wl
	ws.Config = sc.Config
	if err := ws.Workload.Check(); err != nil {
		return nil, ws.place(err)
	}
	if err := workload.CheckConfig(ws.Config, &ws.Workload); err != nil {
		return nil, ws.place(err)
	}
	return ws, nil
}

// IsWorkload reports whether text looks like a workload file: a YAML mapping with a top-level
// `workload` key. It does not validate anything (ParseWorkload does).
func IsWorkload(text []byte) bool {
	var doc yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(string(text)))
	dec.UniqueKeys(true) // a repeated key is no workload file: stop there (ParseWorkload says why)
	if err := decodeSafe(dec, &doc); err != nil {
		return false
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	m := doc.Content[0].Content
	for i := 0; i+1 < len(m); i += 2 {
		if m[i].Kind == yaml.ScalarNode && m[i].Value == "workload" {
			return true
		}
	}
	return false
}

// SetBug runs the workload under a bug mode ("none" turns it off).
func (ws *WorkloadScenario) SetBug(name string) error {
	b, err := engine.ParseBug(name)
	if err != nil {
		return err
	}
	cfg := *ws.Config
	cfg.Bug = b
	ws.Config = &cfg
	return nil
}

// Run runs the workload and returns its summary (see Scale).
func (ws *WorkloadScenario) Run(progress func(done, total int) bool) (*ScaleSummary, error) {
	defer relaxGC(ws)()
	sum, err := workload.Run(ws.Config, ws.Workload, progress)
	if err != nil {
		if errors.Is(err, workload.ErrCanceled) {
			return nil, err
		}
		var we *workload.Error
		if errors.As(err, &we) {
			return nil, ws.place(err)
		}
		return nil, fmt.Errorf("%s: %w", ws.File, err)
	}
	return sum, nil
}

// relaxGC turns the garbage collector off for a run, with a memory limit as a safety net, and
// returns what restores the previous settings. A workload's heap is almost all live (the
// tables the run builds) until the run ends, so collecting along the way would only scan it
// again and again: under WebAssembly, where the collector shares the one thread, that was more
// than half of the run's time. The limit is one and a half times an estimate of what the run
// keeps (each row's values, 32 bytes a column, and about 150 bytes in the tables that hold it
// and in what the run makes along the way: million-rows allocates 215 bytes a row, and with a
// third column 246), at least 512 MiB, at most 3 GiB under WebAssembly (whose memory ends at
// 4 GiB); past it the collector runs as usual. A lower limit already set (GOMEMLIMIT) stays.
// Under WebAssembly the memory is grown at once to the estimate and an eighth more.
func relaxGC(ws *WorkloadScenario) func() {
	keep := workload.MemoryNeed(ws.Config, &ws.Workload)
	limit := max(512<<20, keep+keep/2)
	if runtime.GOARCH == "wasm" {
		limit = min(limit, 3<<30)
		growMemory(keep + keep/8)
	}
	prevLimit := debug.SetMemoryLimit(-1)
	if prevLimit < limit {
		limit = prevLimit
	}
	debug.SetMemoryLimit(limit)
	prevPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}

// growMemory makes the heap hold n free bytes at once, before a run allocates them. Under
// WebAssembly the heap grows by memory.grow, 4 MiB at a time as it fills, and the JavaScript
// engine pays for each step (it reallocates the memory and collects its own heap): for a run of
// a million rows that was more than the run itself. One large allocation grows the memory in
// one step; collected at once, it leaves the pages free for the run. A collection first frees
// what an earlier run left, and only what the heap lacks is added, so that a second run reuses
// the memory instead of growing it.
func growMemory(n int64) {
	runtime.GC()
	free := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(free)
	for _, s := range free {
		if s.Value.Kind() == metrics.KindUint64 {
			n -= int64(s.Value.Uint64())
		}
	}
	if n < 64<<20 {
		return
	}
	b := make([]byte, n)
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

// Scale parses a workload file and runs it: the page's and the command line's entry to scale
// mode. It is deterministic (the same text gives the same summary everywhere) and pure apart
// from the memory: it relaxes the garbage collector while it runs and then restores it, and
// under WebAssembly grows the memory in one step first (see relaxGC and growMemory).
//
//   - file names the text in error messages ("" for text the page was given: errors then read
//     line:column: message).
//   - progress, when not nil, is called about 200 times during the run and once at the end,
//     with the work done and the work expected in all (rows generated plus snapshot items
//     delivered; total is an estimate refined as the run goes, never below done, and equal to
//     it in the last call). Returning false cancels the run: Scale returns ErrCanceled.
//   - Errors: an invalid file, or a fault epoch the run never reaches, is an *Error with a
//     line and column; a canceled run is ErrCanceled; anything else is an internal failure.
func Scale(file string, text []byte, progress func(done, total int) bool) (*ScaleSummary, error) {
	ws, err := ParseWorkload(file, text)
	if err != nil {
		return nil, err
	}
	return ws.Run(progress)
}
