package glossary

// Legend is the text the page shows beside the view's data: what each kind of emitted chunk is,
// what an empty panel means, what each part of a table holds. It states facts about the
// protocol, so it lives here with the rest of them; the page asks for it once (the bridge's
// `legend`) and looks its keys up. A test checks that the page's keys and these are the same.
var Legend = map[string]string{
	"source.builder":           "a snapshot builder's chunk (snapshot rows, all visible)",
	"source.marked":            "a buffered upstream chunk, marked at a barrier",
	"source.flushed":           "a buffered upstream chunk flushed fully visible at the snapshot's end",
	"source.forwarded":         "forwarded unchanged from upstream",
	"upstream.ended":           "the upstream has ended (asked again, it answers that it has ended)",
	"upstream.ended_first":     "■ the upstream has ended",
	"upstream.nothing":         "nothing more in the script",
	"snapshot.none":            "no snapshot stream (the executor reads one only while backfilling)",
	"snapshot.end_counts":      "the end counts as one",
	"snapshot.no_lanes":        "no vnodes left to read",
	"snapshot.pos":             "pos: emitted up to",
	"snapshot.no_pos":          "no pos yet: set when its builder emits",
	"buffer.held":              "held until the next barrier marks them",
	"step.output":              "emitted at step",
	"step.buffer":              "arrived at step",
	"step.upstream":            "delivered at step",
	"outputs.step_key":         "#N is the step that emitted it",
	"builders.none":            "no builders (they exist only while backfilling)",
	"progress.none":            "not loaded yet (progress is loaded after the first barrier)",
	"state_table.committed":    "what a snapshot created now reads",
	"state_table.pending":      "written, committed at the next barrier",
	"progress_table.committed": "by the last barrier",
	"progress_table.durable":   "the last checkpoint: what recovery restores",
	"progress_table.none":      "no rows (a vnode not started is never persisted)",
	"mark.barrier":             "│ a barrier, with its epoch",
	"mark.error":               "✕ the executor failed",
	"mark.recovery":            "⟲ a recovery from the last checkpoint",
	"mark.end":                 "■ the executor's stream ended",
	"mark.dropped":             "⊘ the recovery dropped the job: nothing follows",
	"mark.invariant":           "≠ the invariant broke: downstream differs from the rows the backfill has passed",
}
