// Command backfill runs, checks and serves the backfill explainer's scenarios.
//
//	backfill run [--json] FILE|NAME   a readable trace, or the trace contract's JSON
//	backfill check [-update]          replay every built-in scenario against its golden trace
//	backfill explore FILE|NAME        every interleaving of upstream and snapshot deliveries
//	backfill validate FILE…           check scenario files
//	backfill list [--workloads]       the built-in scenarios (or workloads)
//	backfill lesson [check] [NAME|FILE]  the built-in lessons, a lesson's plan, or check lesson files
//	backfill serve [--dir D] [--addr A]  serve the built site
//	backfill diagnose [--release R] [--json] TEXT|-   what an error message or log excerpt means
//
// Exit codes: 0 ran, 2 invalid input (file:line:column: message on stderr), 1 internal failure.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/backfill-explainer/explainer/internal/quote"
)

const usage = `usage:
  backfill run [--json] [--code] [--bug B] [--release R] FILE|NAME   run a scenario: a readable trace, or the trace JSON
  backfill check [-update] [-dir D]  replay every built-in scenario against its golden trace
  backfill explore [--bug B] [--release R] [--max-states N] [--max-memory MiB] [--json] [--example N] FILE|NAME
                                     every interleaving of upstream and snapshot: outcomes, invariant
  backfill validate FILE...          check scenario files (exit 2 on the first invalid one)
  backfill list [--workloads]        list the built-in scenarios (or the built-in workloads)
  backfill lesson [NAME|FILE]        list the built-in lessons, or print a lesson's plan
  backfill lesson check FILE...      check lesson files (exit 2 on an invalid one)
  backfill releases                  the RisingWave releases the engine runs (R above), and what it leaves out
  backfill serve [--dir dist] [--addr 127.0.0.1:8080]   serve the built explainer
  backfill glossary [--json] [WORD...]   the terms the explainer uses, defined
  backfill diagnose [--release R] [--json] TEXT|-
                                     what an error message or a log excerpt means (- reads stdin)
`

// stdin is where `diagnose -` reads (tests replace it).
var stdin io.Reader = os.Stdin

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the exit code; a panic is an internal failure.
func run(args []string, stdout, stderr io.Writer) (code int) {
	// errors repeat what the file holds (values, names, messages): never raw control characters
	errw := newTermWriter(stderr)
	defer errw.Flush()
	stderr = clippedWriter{errw} // and quote at most a readable part of an input (quote.Lines)
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "backfill: internal error: %v\n", r)
			code = 1
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "check":
		return checkCmd(args[1:], stdout, stderr)
	case "explore":
		return exploreCmd(args[1:], stdout, stderr)
	case "validate":
		return validateCmd(args[1:], stdout, stderr)
	case "list":
		return listCmd(args[1:], stdout, stderr)
	case "serve":
		return serveCmd(args[1:], stdout, stderr)
	case "glossary":
		return glossaryCmd(args[1:], stdout, stderr)
	case "lesson":
		return lessonCmd(args[1:], stdout, stderr)
	case "releases":
		return releasesCmd(stdout)
	case "diagnose":
		return diagnoseCmd(args[1:], stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "backfill: unknown command %s\n%s", quote.Q(args[0]), usage)
	return 2
}
