package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/backfill-explainer/explainer/lessons"
	"github.com/backfill-explainer/explainer/scenarios"

	"github.com/backfill-explainer/explainer/internal/quote"
)

// lessonCmd: `backfill lesson` lists the built-in lessons, `backfill lesson NAME|FILE` prints a
// lesson's plan, `backfill lesson check FILE…` checks lesson files (exit 2 at the first problem
// of each, file:line:column: message on stderr).
func lessonCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("lesson", "[check] [NAME|FILE...]", stderr)
	args, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(args) == 0:
		for _, in := range lessons.Builtins() {
			fmt.Fprintf(stdout, "%-16s %3d min  %s\n", in.Name, in.Minutes, in.Title)
		}
		return 0
	case args[0] == "check":
		if len(args) == 1 {
			fmt.Fprintln(stderr, usageLine(fs, "check FILE..."))
			return 2
		}
		out := newTermWriter(stdout) // file names come from the command line
		defer out.Flush()
		code := 0
		for _, f := range args[1:] {
			if _, err := readLesson(f); err != nil {
				code = reportLoad(err, stderr)
				continue
			}
			fmt.Fprintf(out, "%s: ok\n", f)
		}
		return code
	case len(args) > 1:
		fmt.Fprintln(stderr, usageLine(fs, "[check] [NAME|FILE...]"))
		return 2
	}
	l, err := openLesson(args[0])
	if err != nil {
		return reportLoad(err, stderr)
	}
	out := newTermWriter(stdout) // the plan repeats the file's texts
	defer out.Flush()
	fmt.Fprint(out, l.Plan().Text())
	return 0
}

// openLesson opens a built-in lesson by name, or else a lesson file.
func openLesson(arg string) (*lessons.Lesson, error) {
	if _, err := lessons.BuiltinText(arg); err == nil {
		return lessons.OpenBuiltin(arg)
	}
	l, err := readLesson(arg)
	if err != nil && isNotExist(err) && !strings.ContainsAny(arg, "/.\\") {
		return nil, fmt.Errorf("no built-in lesson or file named %s (built-in: %s)", quote.Q(arg), strings.Join(lessons.BuiltinNames(), ", "))
	}
	return l, err
}

// readLesson reads and checks a lesson file, within the size limit.
func readLesson(path string) (*lessons.Lesson, error) {
	text, err := readScenario(path)
	if err != nil {
		var e *scenarios.Error
		if errors.As(err, &e) {
			e.Msg = strings.Replace(e.Msg, "the scenario is", "the lesson is", 1)
		}
		return nil, err
	}
	return lessons.Parse(path, text)
}
