package scenarios

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// stepComment is a step's trailing comment that numbers it: "# 7", "# 7 (two items)".
var stepComment = regexp.MustCompile(`#\s*(\d+)\b[^#]*$`)

// A built-in's step that carries a number in its trailing comment carries its own step number
// (the step the page shows after it: the n-th entry of steps). Issue 34 LOW: happy-path.yaml's
// comments counted a snapshot entry's items from step 7 on ("# 7-8", then 9 at step 8), so every
// later comment named the wrong step.
func TestBuiltinStepCommentsNumberTheirStep(t *testing.T) {
	entries, err := builtinFS.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		b, _ := builtinFS.ReadFile(e.Name())
		in, step := false, 0
		for i, line := range strings.Split(string(b), "\n") {
			if line == "steps:" {
				in = true
				continue
			}
			if !in || !strings.HasPrefix(line, "  - ") {
				if in && line != "" && !strings.HasPrefix(line, " ") {
					in = false // the next top-level key
				}
				continue
			}
			step++
			m := stepComment.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if n, _ := strconv.Atoi(m[1]); n != step {
				t.Errorf("%s:%d: the comment says step %d; this is step %d", e.Name(), i+1, n, step)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no numbered step comment found: the test reads nothing")
	}
}
