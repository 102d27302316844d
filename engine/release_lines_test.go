package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPanicHookLinesAreInEveryTable: a release that is not at SourceCommit finds the panic
// hook's lines in its own line table, as every other cited range (no shortcut beside the tables).
func TestPanicHookLinesAreInEveryTable(t *testing.T) {
	for _, r := range Releases {
		if r.AtSource {
			continue
		}
		l, ok := r.lines[RangeKey(FilePanicHook, LinesPanicHook)]
		assert.True(t, ok, "%s: its line table has no panic_hook.rs:17-35", r.Name)
		assert.Equal(t, LinesPanicHook, l, r.Name)
	}
}
