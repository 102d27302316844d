package explore

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
)

// lastCheckText says that an outcome's invariant is the last barrier's check, not its end state:
// rows emitted after that barrier are in the outcome's downstream but were never checked.
func lastCheckText(inv engine.Invariant, downstream int) string {
	if inv.Text == "" || inv.Status == "unchecked" {
		return inv.Text
	}
	rows := "rows"
	if downstream == 1 {
		rows = "row"
	}
	return fmt.Sprintf("At the last barrier checked, e%d (not the end state): %s The end state's downstream holds %d %s; what was emitted after e%d is checked only at a later barrier.", inv.Epoch, inv.Text, downstream, rows, inv.Epoch)
}
