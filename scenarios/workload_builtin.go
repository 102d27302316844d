package scenarios

import (
	"embed"
	"fmt"
	"path"
	"strings"
)

//go:embed workloads/*.yaml
var workloadFS embed.FS

// workloadOrder is the order the built-in workloads are listed in; any others follow by name.
var workloadOrder = []string{"million-rows", "upstream-ends-at-scale", "no-state-write-at-scale"}

// WorkloadNames lists the built-in workloads (scale mode).
func WorkloadNames() []string {
	entries, _ := workloadFS.ReadDir("workloads")
	var rest []string
	for _, e := range entries {
		n := strings.TrimSuffix(e.Name(), ".yaml")
		if !contains(workloadOrder, n) {
			rest = append(rest, n)
		}
	}
	return append(append([]string{}, workloadOrder...), rest...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// WorkloadText returns a built-in workload's file text.
func WorkloadText(name string) ([]byte, error) {
	if name == "" || strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("no built-in workload named %q", name)
	}
	b, err := workloadFS.ReadFile("workloads/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no built-in workload named %q (try: %s)", name, strings.Join(WorkloadNames(), ", "))
	}
	return b, nil
}

// WorkloadFile is the path a built-in workload's errors and summaries name.
func WorkloadFile(name string) string { return path.Join("scenarios", "workloads", name+".yaml") }

// OpenWorkload parses a built-in workload.
func OpenWorkload(name string) (*WorkloadScenario, error) {
	text, err := WorkloadText(name)
	if err != nil {
		return nil, err
	}
	return ParseWorkload(WorkloadFile(name), text)
}

// Workloads lists the built-in workloads with their titles and one-line summaries.
func Workloads() []Info {
	var out []Info
	for _, n := range WorkloadNames() {
		w, err := OpenWorkload(n)
		if err != nil {
			continue // a broken built-in fails its test
		}
		out = append(out, Info{Name: n, Title: w.Config.Title, Summary: firstLine(w.Config.Summary)})
	}
	return out
}
