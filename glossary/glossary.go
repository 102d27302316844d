// Package glossary holds the words the explainer uses, defined (Glossary), and the texts the page
// shows beside the view's data (Legend), with the JSON the bridge writes for both. It imports
// nothing of the model.
package glossary

import "strings"

// GlossaryEntry is one entry of the glossary: a word a newcomer meets on the page, in the narration or
// in the docs, the other spellings it goes by, and a plain definition of one or two sentences.
type GlossaryEntry struct {
	Term       string   `json:"term"`
	Aliases    []string `json:"aliases,omitempty"`
	Definition string   `json:"definition"`
}

// Glossary is the one list of definitions the command line (`backfill glossary`), the page
// and docs/protocol.md's Glossary section share, in alphabetical order of their Term. Definitions are
// plain text (no markup), so every reader can show them as they are.
var Glossary = []GlossaryEntry{
	{Term: "actor",
		Definition: "One running copy of an operator, on one machine. A fragment's work is split across its actors, each owning some of the vnodes; the explainer follows one actor."},
	{Term: "backfill", Aliases: []string{"backfilling"},
		Definition: "Feeding a newly created streaming operator the rows that already exist while live changes keep arriving, so that it ends up as if it had seen everything from the start. Also the executor's phase that reads the snapshot and marks buffered changes."},
	{Term: "barrier", Aliases: []string{"barriers"},
		Definition: "A message that flows through the stream between the data and carries an epoch. At a barrier every executor commits its state and passes the barrier on."},
	{Term: "buffer", Aliases: []string{"upstream buffer", "buffered chunk"},
		Definition: "Where the executor holds the upstream chunks that arrive while it backfills. At the next barrier each buffered chunk is marked, emitted (if some vnode is in progress) and written to the state table."},
	{Term: "buffering",
		Definition: "The executor's first phase, while every owned vnode is not started: upstream chunks are written to the state table and nothing is emitted, until a barrier carries the start signal for this fragment."},
	{Term: "bug mode", Aliases: []string{"bug modes"},
		Definition: "A deliberate break of one rule of the protocol that the explainer can switch on, to show why the rule exists. The invariant check then catches the damage at the barrier where it happens."},
	{Term: "builder", Aliases: []string{"builders", "chunk builder"},
		Definition: "One per owned vnode while backfilling: it collects the rows the snapshot delivers for its vnode and emits them as one all-visible chunk when it holds max(2, chunk_size) rows, or earlier at a barrier or at the snapshot's end. Only then does the vnode's pos move."},
	{Term: "checkpoint", Aliases: []string{"checkpoint barrier"},
		Definition: "A barrier that makes everything committed so far durable, once the meta service has collected it from every actor and committed its epoch. A recovery goes back to the last checkpoint; a barrier that is not a checkpoint commits, but a recovery undoes it."},
	{Term: "chunk", Aliases: []string{"chunks", "stream chunk"},
		Definition: "A batch of row changes. Each row has an op (+, -, U-, U+) and a visibility bit."},
	{Term: "chunk_size", Aliases: []string{"chunk size"},
		Definition: "The executor's configured chunk size (RisingWave's default is 256). A builder holds max(2, chunk_size) rows, so that an update pair always fits."},
	{Term: "committed vs durable", Aliases: []string{"committed", "durable"},
		Definition: "Committed: written at a barrier, so a snapshot opened afterwards reads it. Durable: committed at a checkpoint barrier whose epoch the meta service has committed, so it survives a recovery."},
	{Term: "compaction", Aliases: []string{"compact", "compacted"},
		Definition: "Dropping a chunk's invisible rows. Every upstream chunk the executor buffers during the backfill is compacted first."},
	{Term: "completion", Aliases: []string{"completing"},
		Definition: "The phase between the snapshot's end and the next barrier: upstream messages pass straight through, and that barrier makes every owned vnode completed and persists it."},
	{Term: "downstream",
		Definition: "The operator the executor feeds (a join, aggregation, over-window or top-N), and the rows it holds: every visible row the executor emitted, applied in order."},
	{Term: "epoch", Aliases: []string{"epochs"},
		Definition: "The number a barrier carries; epochs strictly increase. Epoch e4 is the stretch of the stream that barrier e4 closes."},
	{Term: "executor",
		Definition: "One stage of a streaming pipeline inside an actor: it reads messages from its upstream and emits messages downstream. The locality provider is one executor."},
	{Term: "forwarding",
		Definition: "The executor's last phase, after the backfill: every message passes through unchanged, and barriers still commit both tables."},
	{Term: "fragment",
		Definition: "A piece of a streaming job's plan that runs as a group of identical actors. The start signal names fragments by their id."},
	{Term: "invariant",
		Definition: "The explainer's own check, not RisingWave's: at every barrier, downstream must hold exactly the upstream's rows that the backfill has passed (completed vnodes whole, vnodes in progress up to pos). A violation names the rows that are missing, duplicated or stale."},
	{Term: "locality columns", Aliases: []string{"locality", "locality key", "distribution key"},
		Definition: "The operator's key columns. They decide a row's vnode and lead the state table's pk, so the snapshot reads rows grouped by them."},
	{Term: "locality provider",
		Definition: "RisingWave's executor that sits in front of a newly created operator and backfills it with the existing rows grouped by the locality columns, so the operator builds its state with good cache locality."},
	{Term: "marking", Aliases: []string{"mark", "marked"},
		Definition: "Setting each buffered row's visibility at a barrier from its vnode's progress: completed → visible, not started → hidden, in progress → visible only if its pk is at or before pos. Ops and values never change."},
	{Term: "message", Aliases: []string{"messages"},
		Definition: "What flows from one executor to the next: a barrier, a chunk or a watermark. A stream of messages can also end or fail with an error."},
	{Term: "mutation", Aliases: []string{"mutations"},
		Definition: "An instruction a barrier may carry. The locality provider acts only on the start signal and on a rescale of its own vnodes; it ignores the others, such as pause, resume and throttle."},
	{Term: "op", Aliases: []string{"ops", "update pair", "U-", "U+"},
		Definition: "A row change's kind: + insert, - delete, and U- then U+ for an update (the old row, then the new one, always adjacent). Marking never changes an op."},
	{Term: "phase", Aliases: []string{"phases"},
		Definition: "Where the executor is: starting, buffering, backfilling, completing or forwarding; or stopped, failed or ended."},
	{Term: "pk", Aliases: []string{"primary key"},
		Definition: "The state table's primary key: the locality columns, then the stream key. A vnode's rows are read in pk order, ascending with NULLs last, and pos is a pk."},
	{Term: "pos", Aliases: []string{"position", "positions", "current_pos"},
		Definition: "For an in-progress vnode, the pk of the last row the snapshot has emitted for it. Rows at or before pos have reached downstream; rows after it will come from the snapshot."},
	{Term: "progress report", Aliases: []string{"progress reports", "meta service"},
		Definition: "What the executor tells RisingWave's meta service (the cluster's coordinator) at each barrier of the backfill: how many snapshot rows it has processed. At the completion barrier it reports that it has finished, and so does an executor that started with every vnode completed, once, at the first barrier it forwards."},
	{Term: "progress state", Aliases: []string{"progress", "NotStarted", "InProgress", "Completed"},
		Definition: "A vnode's backfill state: not started (nothing of it emitted; NotStarted in RisingWave's code), in progress at pos with a row count (InProgress), or completed (Completed; set only at a barrier after the snapshot has ended). Each owned vnode has one."},
	{Term: "progress table",
		Definition: "The executor's second table: one row per vnode, [vnode, pos…, finished, rows], written at barriers. A restarted executor reads it to resume; a vnode not started has no row."},
	{Term: "race",
		Definition: "While backfilling, the executor waits on the upstream and the snapshot at once. Whenever the upstream has a message ready it wins, so the snapshot advances only while the upstream is quiet."},
	{Term: "recovery", Aliases: []string{"recover"},
		Definition: "After a failure, RisingWave restarts every actor of the job's database (or of the whole cluster) from the last checkpoint: both tables and downstream roll back, and what was only in memory (builders, buffer) is discarded. The restarted executor reloads its progress."},
	{Term: "refresh", Aliases: []string{"reuse", "refreshed snapshot"},
		Definition: "At a barrier that found upstream chunks in the buffer, the snapshot stream is reopened after the new positions, so it reads the changes just written. Without such chunks the same stream is kept (reused)."},
	{Term: "rescale",
		Definition: "A barrier mutation that gives this actor a new set of vnodes. In a release that checks for it the locality provider fails on it (it cannot change its vnodes in place); the older releases never look at the new bitmap and keep the vnodes they had (the list of releases says which)."},
	{Term: "scenario", Aliases: []string{"scenarios", "step", "steps"},
		Definition: "A file that describes a table, the actor's vnodes and a list of steps, each one thing that happens next: the upstream delivers a message, the snapshot delivers rows, or the job recovers."},
	{Term: "snapshot", Aliases: []string{"snapshot stream", "snapshot read"},
		Definition: "The executor reading its own state table back, vnode by vnode in pk order, after each vnode's pos. It sees what was committed when it was opened."},
	{Term: "start signal", Aliases: []string{"StartFragmentBackfill"},
		Definition: "The barrier mutation from the meta service that lists the fragments that may start their backfill (StartFragmentBackfill in RisingWave's code). While buffering, a barrier that names this executor's fragment ends the buffering."},
	{Term: "state table",
		Definition: "The executor's table of its input rows, keyed by pk and split by vnode. Upstream changes are written to it and the snapshot reads it back."},
	{Term: "stream key",
		Definition: "The columns that identify a row in the input stream. Appended to the locality columns, they make the state table's pk."},
	{Term: "upstream",
		Definition: "Whatever feeds the executor: barriers, chunks and watermarks, in order. Its stream can also end or yield an error."},
	{Term: "visibility", Aliases: []string{"visible", "hidden", "invisible"},
		Definition: "A bit on every row of a chunk. Downstream applies only visible rows; a hidden row travels with the chunk but changes nothing."},
	{Term: "vnode", Aliases: []string{"vnodes", "virtual node"},
		Definition: "One of a fixed number of buckets (RisingWave's default is 256) that rows are hashed into by their locality columns. Each actor owns some vnodes, and progress is kept per vnode."},
	{Term: "watermark", Aliases: []string{"watermarks"},
		Definition: "A message saying that no more rows will come below some value of a column. The executor drops watermarks while buffering and backfilling, and passes them on afterwards."},
}

// LookupTerm finds a glossary entry by its term or one of its aliases, ignoring case.
func LookupTerm(word string) (GlossaryEntry, bool) {
	w := strings.TrimSpace(word)
	for _, t := range Glossary {
		if strings.EqualFold(t.Term, w) {
			return t, true
		}
		for _, a := range t.Aliases {
			if strings.EqualFold(a, w) {
				return t, true
			}
		}
	}
	return GlossaryEntry{}, false
}
