package engine

import "fmt"

// What the meta service of v2.7–v3.0 does about a reschedule of a creating job: it never sends
// the barrier the model's `rescale` step writes (a new vnode bitmap for a kept actor). v2.7 does
// not reschedule a creating job; v2.8 on plans every reschedule as a full rebuild: new actors
// replace every actor of the fragment, none is kept, no bitmap is updated in place.

// FileMetaScale is the meta service's reschedule planner.
const FileMetaScale = "src/meta/src/stream/scale.rs"

// RescaleMeta is why a release's meta service sends no such barrier to a creating job: a
// sentence after "<release>'s meta service " and the lines of scale.rs (at the release's ref)
// that decide it, each written where the sentence has %s (rescale_meta_test.go reads them).
type RescaleMeta struct {
	Why   string
	Lines [][2]int
}

var (
	rescaleNoCreating = RescaleMeta{"does not reschedule a creating job: a lock held during a DDL keeps scaling away from it, and its parallelism control skips background creating jobs (meta's scale.rs %s and %s).",
		[][2]int{{79, 81}, {845, 866}}}
	rescaleRebuild28 = RescaleMeta{"plans every reschedule as a full rebuild: new actors replace every actor of the fragment, and the plan asserts that none is kept (meta's scale.rs %s).",
		[][2]int{{147, 151}}}
	rescaleRebuild30 = RescaleMeta{"plans every reschedule as a full rebuild: new actors replace every actor of the fragment, and the plan asserts that none is kept and that no vnode bitmap is updated in place (meta's scale.rs %s and %s).",
		[][2]int{{665, 668}, {985, 991}}}
)

// rescaleNotSent says why the release's meta service sends no such barrier to a creating job.
func (e *Engine) rescaleNotSent() string {
	r := e.rel()
	spans := make([]any, len(r.RescaleMeta.Lines))
	for i, l := range r.RescaleMeta.Lines {
		spans[i] = span(l)
	}
	return r.Name + "'s meta service " + fmt.Sprintf(r.RescaleMeta.Why, spans...)
}

// span writes a range of lines, e.g. "147-151".
func span(l [2]int) string { return fmt.Sprintf("%d-%d", l[0], l[1]) }
