package main

import (
	"fmt"
	"io"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
)

// releaseHelp is the --release flag's help: every release, and what newer main does.
func releaseHelp() string {
	return "run under a RisingWave release (overrides the file's release:): " + scenarios.ReleaseNames() + "; `backfill releases` lists them"
}

// setRelease runs a session under a release when name is not empty; it returns an exit code
// (0: done).
func setRelease(s *session.Session, name string, stderr io.Writer) int {
	if name == "" {
		return 0
	}
	if err := s.SetRelease(name); err != nil {
		fmt.Fprintf(stderr, "backfill: %v\n", err)
		return 2
	}
	return 0
}

// setWorkloadRelease runs a workload under a release when name is not empty.
func setWorkloadRelease(ws *scenarios.WorkloadScenario, name string, stderr io.Writer) int {
	if name == "" {
		return 0
	}
	r, err := scenarios.ReleaseNamed(name)
	if err != nil {
		fmt.Fprintf(stderr, "backfill: %v\n", err)
		return 2
	}
	cfg := *ws.Config
	cfg.Release = r
	ws.Config = &cfg
	return 0
}

// releasesCmd lists the releases the engine runs (`backfill releases`).
func releasesCmd(stdout io.Writer) int {
	for _, r := range view.ReleaseList() {
		def := ""
		if r.Default {
			def = " (default)"
		}
		fmt.Fprintf(stdout, "%s%s: %s, cited at %s\n  %s\n", r.Name, def, r.Tags, r.Ref, r.Summary)
	}
	fmt.Fprintln(stdout, view.NewerMain)
	return 0
}
