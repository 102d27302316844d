package diagnose

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPanicAdviceStartsFromTheNode: for both panics at every release, the advice does not send
// the engineer to an "actor exit with error" line (a panic aborts the node before any is
// logged), the proofs cite the panic hook and meta's node-failure recovery, and the first check
// after the cause is the node's own output.
func TestPanicAdviceStartsFromTheNode(t *testing.T) {
	for _, m := range Catalogue() {
		if !m.Panic {
			continue
		}
		for _, r := range releases() {
			f := m.Facts[r.Name]
			if f == nil {
				continue
			}
			hook, node := false, false
			for _, c := range f.Proven {
				hook = hook || c.File == filePanicHook
				node = node || (c.File == fileMetaWorker && c.Lines == metaNodeFailure.in(r.Name))
			}
			assert.True(t, hook, "%s %s: no proof cites the panic hook", m.ID, r.Name)
			assert.True(t, node, "%s %s: no proof cites meta's recovery on node failure", m.ID, r.Name)
			for _, l := range f.LookNext {
				if strings.Contains(l, "actor exit with error") {
					assert.Contains(t, l, "there is no \"actor exit with error\" line", "%s %s: %s", m.ID, r.Name, l)
				}
			}
			assert.Contains(t, f.LookNext[1], "compute node's own output", "%s %s", m.ID, r.Name)
			assert.Contains(t, f.LeftBehind, "compute node that panicked is gone", "%s %s", m.ID, r.Name)
		}
	}
}
