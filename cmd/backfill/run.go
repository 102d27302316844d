package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// open loads a scenario from a file path, or a built-in by name when no such file exists.
func open(arg string) (*session.Session, error) {
	text, err := readScenario(arg)
	if err == nil {
		return session.Load(arg, text)
	}
	if isNotExist(err) && !strings.ContainsAny(arg, "/\\.") {
		return session.OpenBuiltin(arg)
	}
	return nil, err
}

// openWithBug opens a scenario (see open) and turns on a bug mode when bug is not empty; on
// failure it reports the error and returns a nil session and the exit code.
func openWithBug(arg, bug string, stderr io.Writer) (*session.Session, int) {
	s, err := open(arg)
	if err != nil {
		return nil, reportLoad(err, stderr)
	}
	if bug != "" {
		if err := s.SetBug(bug); err != nil {
			fmt.Fprintf(stderr, "backfill: %v\n", err)
			return nil, 2
		}
	}
	return s, 0
}

// reportLoad prints a load error and returns its exit code: 2 for invalid input.
func reportLoad(err error, stderr io.Writer) int {
	var pe *scenarios.Error
	if errors.As(err, &pe) {
		fmt.Fprintln(stderr, pe.Error())
		return 2
	}
	fmt.Fprintf(stderr, "backfill: %v\n", err)
	return 2
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the trace contract's JSON")
	bug := fs.String("bug", "", "run with a bug mode: "+bugNames())
	release := fs.String("release", "", releaseHelp())
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: backfill run [--json] FILE|NAME")
		return 2
	}
	if ws, ok, err := openWorkload(fs.Arg(0)); ok { // scale mode (scale.go)
		if err != nil {
			return reportLoad(err, stderr)
		}
		if code := setWorkloadRelease(ws, *release, stderr); code != 0 {
			return code
		}
		return runWorkload(ws, *asJSON, *bug, stdout, stderr)
	}
	s, code := openWithBug(fs.Arg(0), *bug, stderr)
	if s == nil {
		return code
	}
	if code := setRelease(s, *release, stderr); code != 0 {
		return code
	}
	if *asJSON {
		if err := s.RunToEnd(); err != nil {
			fmt.Fprintf(stderr, "backfill: internal error: %v\n", err)
			return 1
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s.Trace()); err != nil {
			fmt.Fprintf(stderr, "backfill: %v\n", err)
			return 1
		}
		return 0
	}
	out := newTermWriter(stdout) // titles, notes and values come from the file
	defer out.Flush()
	if err := writeText(s, out); err != nil {
		fmt.Fprintf(stderr, "backfill: internal error: %v\n", err)
		return 1
	}
	return 0
}

// writeText prints a readable trace: each step, its outputs with ✓/✗ per row, the explanation.
func writeText(s *session.Session, w io.Writer) error {
	cfg := s.Scenario.Config
	fmt.Fprintf(w, "%s\n%s\n", cfg.Title, strings.Repeat("=", len([]rune(cfg.Title))))
	releaseHeader(w, cfg)
	if info := cfg.Bug.Info(); info != nil {
		fmt.Fprintf(w, "BUG MODE %s: %s.\n%s\n", info.Name, info.Summary, info.Why)
		if info.History != "" {
			fmt.Fprintf(w, "%s\n", info.History)
		}
	}
	if cfg.Summary != "" {
		fmt.Fprintf(w, "%s\n", strings.TrimSpace(cfg.Summary))
	}
	fmt.Fprintln(w)
	tl := s.Timeline()
	for tl.Pos() < tl.Len() {
		st := tl.Script()[tl.Pos()]
		if err := s.Step(); err != nil {
			return err
		}
		e := tl.Engine()
		fmt.Fprintf(w, "step %d  %s   [%s]\n", tl.Pos(), st.Describe(cfg.Columns), e.Phase())
		if note, _ := tl.Note(); note != "" {
			fmt.Fprintf(w, "  note: %s\n", note)
		}
		outs := e.Outputs()
		first := len(outs)
		for first > 0 && outs[first-1].Step == tl.Pos() {
			first--
		}
		for _, o := range outs[first:] {
			fmt.Fprintf(w, "  → %s\n", o)
		}
		for _, ef := range e.Effects() {
			fmt.Fprintf(w, "  · %s  [%s]\n", ef.Text, ef.Cite())
		}
		if f := s.FailureExplanation(); f != nil && f.Step == tl.Pos() {
			writeFailure(w, f)
		}
	}
	e := tl.Engine()
	tr := e.Trace()
	fmt.Fprintf(w, "\nphase: %s\n", tr.Phase)
	if tr.Error != nil {
		kind := "error"
		if tr.Error.Panic {
			kind = "panic"
		}
		fmt.Fprintf(w, "%s at step %d: %s\n", kind, tr.Error.Step, tr.Error.Message)
	}
	fmt.Fprintf(w, "progress table (durable):")
	for _, r := range tr.ProgressTable {
		b, _ := json.Marshal(r)
		fmt.Fprintf(w, " %s", b)
	}
	fmt.Fprintf(w, "\ndownstream:")
	for _, r := range tr.Downstream {
		fmt.Fprintf(w, " %s", r)
	}
	inv := e.Invariant()
	fmt.Fprintf(w, "\ninvariant: %s", inv.Status)
	if inv.Text != "" {
		fmt.Fprintf(w, " — %s", inv.Text)
	}
	fmt.Fprintln(w)
	return nil
}

// writeFailure prints a failure's explanation: what it means, what the source proves (with
// lines), what we only infer, what it left behind and what recovery does.
func writeFailure(w io.Writer, f *engine.FailureView) {
	what := "error"
	if f.Panic {
		what = "panic"
	}
	fmt.Fprintf(w, "  ✕ %s (%s): %s\n", what, f.Kind, f.Message)
	fmt.Fprintf(w, "    failed %s, under %s\n", f.PhaseLabel, f.Release)
	fmt.Fprintf(w, "    what happens to data: %s %s %s\n", f.Data.Headline, f.Data.Until, f.Data.After)
	if len(f.Checks) > 0 {
		fmt.Fprintf(w, "    what to check, in order (%s):\n", f.ChecksFrom)
		for i, c := range f.Checks {
			fmt.Fprintf(w, "      %d. %s\n", i+1, c)
		}
	}
	fmt.Fprintf(w, "    what it means: %s\n", f.Meaning)
	fmt.Fprintf(w, "    what the source proves:\n")
	for _, c := range f.Proven {
		fmt.Fprintf(w, "      - %s  [%s]\n", c.Text, c.Cite())
	}
	fmt.Fprintf(w, "    what we infer (not in the source):\n")
	for _, s := range f.Inferred {
		fmt.Fprintf(w, "      - %s\n", s)
	}
	fmt.Fprintf(w, "    left behind: %s\n", f.LeftBehind)
	fmt.Fprintf(w, "    from here: %s\n", f.Recovery)
}

func validateCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: backfill validate FILE...")
		return 2
	}
	out := newTermWriter(stdout) // file names come from the command line
	defer out.Flush()
	stdout = out
	code := 0
	for _, f := range args {
		text, err := readScenario(f)
		if err != nil {
			reportLoad(err, stderr)
			code = 2
			continue
		}
		load := func() error { _, err := session.Load(f, text); return err }
		if scenarios.IsWorkload(text) {
			load = func() error { _, err := scenarios.ParseWorkload(f, text); return err }
		}
		if err := load(); err != nil {
			reportLoad(err, stderr)
			code = 2
			continue
		}
		fmt.Fprintf(stdout, "%s: ok\n", f)
	}
	return code
}

func listCmd(args []string, stdout, stderr io.Writer) int {
	list := scenarios.Builtins
	if len(args) == 1 && args[0] == "--workloads" { // scale mode (scale.go)
		list = scenarios.Workloads
	} else if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: backfill list [--workloads]")
		return 2
	}
	for _, in := range list() {
		fmt.Fprintf(stdout, "%-26s %s\n", in.Name, in.Summary)
	}
	return 0
}

func bugNames() string {
	names := make([]string, len(engine.Bugs))
	for i, b := range engine.Bugs {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}
