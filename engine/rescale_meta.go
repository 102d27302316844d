package engine

import "fmt"

// What the meta service of v2.7–v3.0 does about a reschedule of a creating job: it never sends
// the barrier the model's `rescale` step writes (a new vnode bitmap for a kept actor). v2.7 does
// not reschedule a creating job; v2.8 on plans every reschedule as a full rebuild: new actors
// replace every actor of the fragment, none is kept, no bitmap is updated in place.

// FileMetaScale is the meta service's reschedule planner.
const FileMetaScale = "src/meta/src/stream/scale.rs"

// RescaleMetaLines are, per release name, the lines of scale.rs (at the release's ref) that
// decide it; the test reads them at each ref.
var RescaleMetaLines = map[string][][2]int{
	"v2.7": {{79, 81}, {845, 866}},
	"v2.8": {{147, 151}},
	"v3.0": {{665, 668}, {985, 991}},
	"v3.1": {{665, 668}, {985, 991}},
}

// rescaleNotSent says why the release's meta service sends no such barrier to a creating job.
func (e *Engine) rescaleNotSent() string {
	r := e.rel()
	l := RescaleMetaLines[r.Name]
	switch r.Name {
	case "v2.7":
		return "v2.7's meta service does not reschedule a creating job: a lock held during a DDL keeps scaling away from it, and its parallelism control skips background creating jobs (meta's scale.rs " + span(l[0]) + " and " + span(l[1]) + ")."
	case "v2.8":
		return "v2.8's meta service plans every reschedule as a full rebuild: new actors replace every actor of the fragment, and the plan asserts that none is kept (meta's scale.rs " + span(l[0]) + ")."
	}
	return r.Name + "'s meta service plans every reschedule as a full rebuild: new actors replace every actor of the fragment, and the plan asserts that none is kept and that no vnode bitmap is updated in place (meta's scale.rs " + span(l[0]) + " and " + span(l[1]) + ")."
}

// span writes a range of lines, e.g. "147-151".
func span(l [2]int) string { return fmt.Sprintf("%d-%d", l[0], l[1]) }
