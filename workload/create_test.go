package workload

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// TestWorkloadRecoverDropsAForegroundJob: a `recover` fault mid-backfill ends the run in phase
// dropped where the release's recovery drops a creating foreground job (engine/create.go); with
// create: background, or in a release that keeps it, the run recovers and finishes.
func TestWorkloadRecoverDropsAForegroundJob(t *testing.T) {
	w := Default(4000)
	w.StartAfter, w.SnapshotPerEpoch, w.UpstreamPerEpoch, w.After = 3, 1000, 20, 3
	w.Fault = &Fault{Kind: FaultRecover, Epoch: 7}
	for _, r := range engine.Releases {
		for _, c := range []engine.CreateType{engine.CreateForeground, engine.CreateBackground} {
			cfg := wlConfig(16, []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}, {Name: "v", Type: engine.TypeVarchar}}, []int{0}, []int{1})
			cfg.Release, cfg.Create = r, c
			s, err := Run(cfg, w, nil)
			require.NoError(t, err, r.Name+" "+c.String())
			if r.DropsCreatingForeground && c == engine.CreateForeground {
				assert.Equal(t, "dropped", s.Phase, r.Name)
				require.Len(t, s.Recoveries, 1)
				assert.True(t, s.Recoveries[0].Dropped, r.Name)
				assert.Equal(t, "created in the foreground", s.Recoveries[0].DropReason, r.Name)
				assert.Contains(t, s.Recoveries[0].DropText, "SET BACKGROUND_DDL = true", r.Name)
				continue
			}
			assert.Equal(t, "forwarding", s.Phase, r.Name+" "+c.String())
		}
	}
}
