package diagnose

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
)

// A panic in an executor aborts its compute node (engine/panic.go): the advice for a panic
// starts from the node, not from an actor's error line.
const filePanicHook = engine.FilePanicHook

var (
	panicHook       = fact{filePanicHook, engine.LinesPanicHook} // set_panic_hook: abort unless catching unwind
	metaNodeFailure = fact{fileMetaWorker, [2]int{731, 731}}     // "database entering recovery on node failure"
)

// panicProofs are the lines that say what the panic does to the node and what meta does next.
func panicProofs(r string) []Cite {
	return []Cite{
		at(r, filePanicHook, panicHook.in(r), "The panic hook every RisingWave process installs prints the panic and a backtrace, then aborts the process unless the panic is being caught; nothing on an actor's path catches it, so the whole compute node dies."),
		at(r, fileMetaWorker, metaNodeFailure.in(r), "When its control stream to a compute node fails, the meta service puts each database with actors there into recovery and logs \"database entering recovery on node failure\" (with per-database isolation off, the whole cluster recovers)."),
	}
}

// panicLeftBehind is what a panic on the first message leaves.
const panicLeftBehind = "The compute node that panicked is gone, with every actor it ran, not only this one; the executor had emitted nothing and loaded no progress. The meta service recovers the database on the node's failure, as after an error."

// lookPanic is what to check first after a panic, in order.
func lookPanic(r string) []string {
	return []string{
		"This compute node's own output (stderr, or the container's previous log: the process was aborted, so it restarted or is gone): the panic's text, its location (file:line) and a backtrace, then \"await tree context of current task\"; there is no \"actor exit with error\" line for a panic.",
		fmt.Sprintf("The meta node's log: \"database entering recovery on node failure\", naming the node (%s:%d), then the database's recovery. Other compute nodes log exchange errors (\"exchange channel from remote upstream actor N closed unexpectedly\") for actors that read from the dead node: they are effects, not the cause.", fileMetaWorker, metaNodeFailure.in(r)[0]),
		lookWhichJob,
	}
}
