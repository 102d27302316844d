package scenarios

import (
	"go.yaml.in/yaml/v3"
)

// Files people open by mistake where a scenario is expected: the explainer's own outputs. Each is
// told apart by keys a scenario never has, and named, so the error says what to open instead.
var notScenarios = []struct {
	keys []string // all present at the top level
	msg  string
}{
	{[]string{"scenario", "trace"},
		"this is a saved run (what export() returns), not a scenario: its `scenario` key holds the scenario's text; open that text instead"},
	{[]string{"explanations", "actions", "invariant"},
		"this is a view (what the page shows at one step), not a scenario. Open the scenario that made it instead (Save → Download scenario writes one); a scenario has title, table and steps"},
	{[]string{"outputs", "phase", "downstream"},
		"this is a trace, not a scenario: it holds what a run emitted (outputs, phase, downstream), as `backfill run --json` and Save → Download trace write it. Open the scenario that made it instead (Save → Download scenario writes one); a scenario has title, table and steps"},
}

// NotAScenario recognises the explainer's own outputs (a trace, a view, a saved run) in text that
// failed to parse as a scenario, and returns an error that says what the text is and what to
// open instead; nil when the text is none of them.
func NotAScenario(file string, text []byte) error {
	if len(text) > limits.bytes {
		return nil
	}
	// the node tree, never a map: the library's duplicate-key check on a map is quadratic
	var root *yaml.Node
	func() {
		defer catch(new(error))
		root = newParser(file, text).decode(text) // nil or a failure for what is no document
	}()
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	top := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		top[root.Content[i].Value] = root.Content[i+1]
	}
	if v, ok := top["steps"]; ok && v.Kind == yaml.SequenceNode {
		return nil // a scenario with a problem: its own error says which (a view's steps is a count)
	}
	for _, n := range notScenarios {
		all := true
		for _, k := range n.keys {
			if _, ok := top[k]; !ok {
				all = false
				break
			}
		}
		if all {
			return &Error{File: file, Line: 1, Col: 1, Msg: n.msg}
		}
	}
	return nil
}
