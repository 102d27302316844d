package engine

// What a panic does: RisingWave's panic hook (installed by every process's main,
// src/utils/runtime/src/lib.rs) aborts the process unless the panic is being caught, and
// nothing on an actor's path catches one (no catch_unwind in src/stream or src/compute at any
// release). So a panic in an executor kills the whole compute node: there is no "actor exit with
// error" line, peers reading from its actors see exchange errors, and the meta service, whose
// control stream to that node fails, recovers the database "on node failure" (barrier/worker.rs).

// FilePanicHook is the panic hook's file; its lines are the same at every release's ref (each
// release's line table says so: linesUnchanged, release_lines.go).
const FilePanicHook = "src/utils/runtime/src/panic_hook.rs"

// LinesPanicHook is set_panic_hook: abort unless catching unwind (17-35 at every ref).
var LinesPanicHook = [2]int{17, 35}

// panicAbortText says what the panic does to the node, for the failure table and diagnose.
const panicAbortText = "The panic hook every RisingWave process installs prints the panic and a backtrace and then aborts the process unless the panic is being caught; nothing on an actor's path catches it, so the whole compute node dies with every actor it runs."

// PanicNodeWords is what a panic does next, outside the cited hook: the actor is not failed
// alone and logs no "actor exit with error" line.
const PanicNodeWords = "There is no \"actor exit with error\" line: the node is gone. Actors on other nodes that read from or write to its actors log exchange errors, and the meta service, whose control stream to the node fails, recovers the database as after an error (its log: \"database entering recovery on node failure\"; the whole cluster recovers when per-database isolation is off)."

var (
	sitePanicAbort = newSite("fail.panic-abort", "fail", FilePanicHook, LinesPanicHook[0], LinesPanicHook[1], "")
	CitePanicHook  = cite(FilePanicHook, LinesPanicHook, panicAbortText)
)
