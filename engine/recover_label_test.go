package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/backfill-explainer/explainer/engine"
)

// TestARecoveryThatDropsTheJobIsNamedSo: at a failure, the action that recovers says that it drops
// the job where the recovery will (a creating foreground job on a release whose meta service drops
// one), and offers the checkpoint elsewhere: it said "recover from the last checkpoint" on v3.0.
func TestARecoveryThatDropsTheJobIsNamedSo(t *testing.T) {
	steps := "  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n  - error: boom\n"
	for _, r := range engine.Releases {
		s := runUnder(t, r.Name, steps)
		var label string
		for _, a := range s.Actions() {
			if a.Kind == "recover" {
				label = a.Label
			}
		}
		if r.DropsCreatingForeground {
			assert.Equal(t, "recover: "+r.Name+" drops this creating foreground job", label, r.Name)
		} else {
			assert.Equal(t, "recover from the last checkpoint (e3)", label, r.Name)
		}
	}
}
