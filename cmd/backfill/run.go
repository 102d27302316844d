package main

import (
	"encoding/json"
	"errors"
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
	fs := newFlags("run", "FILE|NAME", stderr)
	asJSON := fs.Bool("json", false, "print the trace contract's JSON")
	bug := fs.String("bug", "", "run with bug mode `B`, one of: "+bugNames())
	release := fs.String("release", "", releaseHelp())
	codeMap := fs.Bool("code", false, "print, at each step, the line(s) of the executor's code map it lights")
	operands, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(operands) != 1 {
		return usageError(fs)
	}
	if ws, ok, err := openWorkload(operands[0]); ok { // scale mode (scale.go)
		if err != nil {
			return reportLoad(err, stderr)
		}
		if code := setWorkloadRelease(ws, *release, stderr); code != 0 {
			return code
		}
		return runWorkload(ws, *asJSON, *bug, stdout, stderr)
	}
	s, code := openWithBug(operands[0], *bug, stderr)
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
	if err := s.WriteTextCode(out, *codeMap); err != nil {
		fmt.Fprintf(stderr, "backfill: internal error: %v\n", err)
		return 1
	}
	return 0
}

// writeText prints a readable trace (Session.WriteText, the text the page saves too).
func writeText(s *session.Session, w io.Writer) error { return s.WriteText(w) }

func validateCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", "FILE...", stderr)
	args, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(args) == 0 {
		return usageError(fs)
	}
	out := newTermWriter(stdout) // file names come from the command line
	defer out.Flush()
	stdout = out
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
	fs := newFlags("list", "", stderr)
	workloads := fs.Bool("workloads", false, "list the built-in workloads (scale mode) instead of the scenarios")
	operands, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(operands) > 0 {
		return usageError(fs)
	}
	list := scenarios.Builtins
	if *workloads {
		list = scenarios.Workloads
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
