package diagnose

import (
	"fmt"

	"github.com/backfill-explainer/explainer/engine"
)

// Two more signatures: the meta log's "fragment not found for actor" (a done report the job's
// backfill order does not know; after a v2.7 recovery every one, and that job may never finish)
// and the state table's panic "vnode N should not be accessed by this table".

const (
	MsgFragmentNotFound MessageID = "fragment-not-found-for-actor" // meta: a done report for an actor the backfill order does not know
	MsgVnodeNotOwned    MessageID = "vnode-not-accessed"           // panic: vnode N should not be accessed by this table
)

const (
	fileOrderControl = "src/meta/src/barrier/backfill_order_control.rs"
	fileMetaProgress = "src/meta/src/barrier/progress.rs"
	fileMetaRPC      = "src/meta/src/barrier/rpc.rs"
	fileDistribution = "src/common/src/hash/table_distribution.rs"
)

var (
	orderNotFound   = fact{fileOrderControl, [2]int{196, 199}} // finish_actor: "fragment not found for actor"
	vnodeCheck      = fact{fileDistribution, [2]int{268, 281}} // check_vnode_is_set: panic!("vnode {} should not be accessed by this table …")
	vnodeChunkCheck = fact{fileDistribution, [2]int{235, 239}} // compute_chunk_vnode: visible rows checked
	// the lines of the meta service that recovers a job with an empty backfill order (v2.7.4's,
	// cited only for a release that does: !ResendsStart; anchor_test.go reads them at its ref)
	recover27      = [2]int{402, 425} // progress.rs: recover, every actor ConsumingUpstream
	isDone27       = [2]int{204, 212} // progress.rs: is_done
	recoverOrder27 = [2]int{812, 819} // rpc.rs: recover(…, Default::default(), …)
)

func fragmentNotFound() *Message {
	m := &Message{ID: MsgFragmentNotFound, Text: "fragment not found for actor", Raiser: "the meta service's backfill order (backfill_order_control.rs), an error-level log line, not a failure"}
	m.Facts = each(func(r string, i int) *Fact {
		f := &Fact{
			Where:   fmt.Sprintf("The meta service logs it when an actor reports its backfill done and the job's backfill order has no fragment for that actor (%s:%d-%d); nothing fails.", fileOrderControl, orderNotFound.in(r)[0], orderNotFound.in(r)[1]),
			NotByLP: true,
			Meaning: "An actor reported done that the job's backfill order does not know. The report still counts towards the job's progress; it only finishes no fragment of the order, so no start signal and no state-table truncation follow from it.",
			Phases:  []string{"completing (the done report)", "forwarding"},
			Proven: []Cite{
				at(r, fileOrderControl, orderNotFound.in(r), "A done report for an actor the backfill order does not map to a fragment logs \"fragment not found for actor\" and finishes no fragment."),
			},
			LeftBehind: "Nothing is lost and nothing fails: the rows are backfilled. What this line can leave behind is a job that is still creating.",
			LookNext: []string{
				"Whether the job is still creating: SELECT * FROM rw_catalog.rw_ddl_progress; and whether a recovery came before this line (the meta node's \"database entering recovery\").",
			},
		}
		if !rel(r).ResendsStart {
			f.Meaning = "After a recovery, " + r + "'s meta service rebuilds a creating job's progress with an empty backfill order, so every done report that follows logs this line. Worse: it tracks every locality-provider actor as consuming upstream and calls the job finished only when every tracked actor has reported done, and its locality provider restarted with every vnode completed reports nothing. If one such actor exists, the job stays creating for good (as a background job) though every row is backfilled."
			f.Proven = append(f.Proven,
				at(r, fileMetaRPC, recoverOrder27, "A creating job is recovered with an empty backfill order (Default::default())."),
				at(r, fileMetaProgress, recover27, "The recovered tracker is a background job's, and every actor that tracks progress starts as consuming upstream."),
				at(r, fileMetaProgress, isDone27, "The job is done only when every tracked actor has reported done."),
			)
			f.LeftBehind = "No row is lost, but the job may never finish: it stays creating, as a background job, its progress stuck below 100%. The explainer shows it: a restart with every vnode completed under " + r + "."
			f.LookNext = append(f.LookNext,
				"Whether this job's locality-provider actors restarted with every vnode completed (their progress tables hold every vnode finished): under "+r+" those never report done again, and the job stays creating. The explainer does not model how to end it.",
			)
		} else {
			f.LookNext = append(f.LookNext, "From "+engine.FirstWhere(func(x *engine.Release) bool { return x.ResendsStart })+" a recovery rebuilds the backfill order from the job's fragments, so after a recovery every actor is known; the explainer knows no other path to this line and does not model one.")
		}
		return f
	})
	return m
}

func vnodeNotOwned() *Message {
	m := &Message{ID: MsgVnodeNotOwned, Text: "vnode N should not be accessed by this table", Panic: true, Raiser: "the state table's vnode check (table_distribution.rs), a panic"}
	m.Facts = each(func(r string, i int) *Fact {
		return &Fact{
			Where:   fmt.Sprintf("The vnode check of a table's distribution panics when a row's vnode is not one the table's actor owns (%s:%d-%d; the same lines at every release).", fileDistribution, vnodeCheck.in(r)[0], vnodeCheck.in(r)[1]),
			NotByLP: true,
			Meaning: "A visible row written to a state table, or a key looked up in one, hashes to a vnode that this actor's table does not own, and the check panics. Every executor with a state table runs the check; the locality provider writes every upstream chunk it buffers, and the chunks it marks while backfilling, through its state table. What routed such a row to this actor is outside the cited code and is not modelled.",
			Phases:  []string{"buffering (a buffered chunk written)", "backfilling (a marked chunk written)"},
			Proven: append([]Cite{
				at(r, fileDistribution, vnodeCheck.in(r), "A vnode not set in the table's vnodes panics with \"vnode N should not be accessed by this table\", the vnode count and the allowed vnodes."),
				at(r, fileDistribution, vnodeChunkCheck.in(r), "Writing a chunk computes every row's vnode and checks each visible row's."),
			}, panicProofs(r)...),
			LeftBehind: "The compute node that panicked is gone, with every actor it ran; the meta service recovers the database on the node's failure, as after an error. Nothing since the last checkpoint is committed.",
			LookNext:   append([]string{"The panic's own lines: the vnode, the vnode count and the allowed vnodes, and the backtrace, which names the executor that wrote or read."}, lookPanic(r)...),
		}
	})
	return m
}
