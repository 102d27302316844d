package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/explore"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
)

// exploreCmd runs the interleaving explorer over a scenario.
func exploreCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explore", "FILE|NAME", stderr)
	bug := fs.String("bug", "", "explore with bug mode `B`, one of: "+bugNames())
	maxStates := intVar(fs, "max-states", explore.DefaultExploreStates, 1, explore.MaxExploreStates, "", "visit at most `N` distinct states (1 to 100000000)")
	maxMemory := intVar(fs, "max-memory", explore.DefaultExploreBytes>>20, 1, explore.MaxExploreBytes>>20, "MiB", "hold at most `MiB` of memory (estimated; 1 to 1048576)")
	release := fs.String("release", "", releaseHelp())
	asJSON := fs.Bool("json", false, "print the report as JSON (each outcome's example as scenario text)")
	example := intVar(fs, "example", 0, 0, math.MaxInt32, "", "print outcome `N`'s example schedule as a scenario file (1 = the most common outcome)")
	operands, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(operands) != 1 {
		return usageError(fs)
	}
	s, code := openWithBug(operands[0], *bug, stderr)
	if s == nil {
		return code
	}
	if code := setRelease(s, *release, stderr); code != 0 {
		return code
	}
	cfg := s.Scenario.Config
	// the budget estimates what the search keeps; the collector is told to hold the process
	// near it too (the copies it makes and drops would otherwise let the heap grow to twice
	// that and more: a million states took 951 MB against 256 MiB)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(*maxMemory)<<20 + 64<<20))
	x, err := s.ExploreWithin(explore.ExploreBudget{States: *maxStates, Bytes: int64(*maxMemory) << 20})
	if err != nil {
		fmt.Fprintf(stderr, "backfill: %v\n", err)
		return 2
	}
	if *example > 0 {
		if *example > len(x.Outcomes) {
			fmt.Fprintf(stderr, "backfill: there are %d outcomes\n", len(x.Outcomes))
			return 2
		}
		fmt.Fprint(stdout, x.Outcomes[*example-1].Example)
		return 0
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(x); err != nil {
			fmt.Fprintf(stderr, "backfill: %v\n", err)
			return 1
		}
		return 0
	}
	out := newTermWriter(stdout) // the title, values and messages come from the file
	defer out.Flush()
	stdout = out
	fmt.Fprintf(stdout, "%s\n", cfg.Title)
	if info := view.BugIn(cfg.Bug, cfg.RunRelease()); info != nil {
		fmt.Fprintf(stdout, "bug mode: %s\n", info.Name)
	}
	capped := ""
	if x.Capped {
		capped = " (" + x.Stopped + ")"
	}
	held := "the invariant held in every schedule"
	if !x.InvariantHeld {
		held = "the invariant was VIOLATED in some schedules"
	}
	if x.Capped {
		held += " explored"
	}
	count := fmt.Sprint(x.Schedules)
	if x.Schedules == math.MaxUint64 {
		count = "more than 1.8e19" // the count saturated
	}
	fmt.Fprintf(stdout, "%s schedules, %d distinct states, %d distinct outcomes%s; %s.\n\n", count, x.States, len(x.Outcomes), capped, held)
	for i, o := range x.Outcomes {
		inv := o.Invariant.Status
		if o.Violated {
			inv = "violated: " + o.Invariant.Text
		}
		fmt.Fprintf(stdout, "outcome %d: %d schedules, phase %s", i+1, o.Schedules, o.Phase)
		if o.Error != nil {
			fmt.Fprintf(stdout, ", error %q", o.Error.Message)
		}
		fmt.Fprintf(stdout, "\n  invariant: %s\n  downstream:", inv)
		for _, r := range o.Downstream {
			fmt.Fprintf(stdout, " %s", r)
		}
		b, _ := json.Marshal(o.ProgressTable)
		fmt.Fprintf(stdout, "\n  progress table: %s\n", b)
		writeDiff(stdout, o.Diff)
		fmt.Fprintf(stdout, "  example: %s\n", scheduleString(cfg, o.Outcome.Example))
	}
	fmt.Fprintf(stdout, "\n`backfill explore --example N %s` prints outcome N's schedule as a scenario file.\n", operands[0])
	return 0
}

// writeDiff prints how an outcome differs from the one nearest to it, as the page shows it.
func writeDiff(w io.Writer, d session.OutcomeDiff) {
	if !d.Finished {
		fmt.Fprintf(w, "  unfinished: the search stopped before this schedule ended\n")
	}
	if len(d.Positions) > 0 {
		fmt.Fprintf(w, "  positions: %s\n", strings.Join(d.Positions, " · "))
	}
	if d.Versus > 0 {
		fmt.Fprintf(w, "  differs from outcome %d: %s\n", d.Versus, strings.Join(d.Differs, "; "))
	}
}

// scheduleString renders a schedule compactly: U barrier e3 · S · S · U chunk …
func scheduleString(cfg *engine.Config, steps []engine.Step) string {
	parts := make([]string, 0, len(steps))
	for _, s := range steps {
		switch s.Kind {
		case engine.EventSnapshot:
			parts = append(parts, "S")
		case engine.EventRecover:
			parts = append(parts, "recover")
		default:
			parts = append(parts, "U "+s.Describe(cfg.Columns))
		}
	}
	return strings.Join(parts, " · ")
}
