package engine

// v2.7's job that never finishes. Its meta service recovers a creating job's progress with every
// locality-provider actor tracked as consuming upstream (progress.rs v2.7.4:402-425, the job as
// a background one: foreground creating jobs are cleaned at recovery) and calls the job done only
// when every tracked actor has reported done (is_done, 204-212). v2.7's locality provider that
// starts with every vnode completed reports nothing (it reports finished only at a completion
// barrier), so the job stays creating. Any actor's done report that does arrive finds no
// fragment in the empty backfill order the job was recovered with, and the meta log says
// "fragment not found for actor" (backfill_order_control.rs v2.7.4:123-126).

// siteRecoverNeverDone is said by v2.7 only, at a restart with every vnode completed.
var siteRecoverNeverDone = oldSite("recover.never-done", "note", FileMetaProgress)

// explainNeverDone says, under v2.7 after a recovery, that this actor never reports done and the
// job stays creating.
func (e *Engine) explainNeverDone() {
	if !e.recovered || e.rel().ResendsStart || !e.rel().ReportsBuffered {
		return
	}
	if !e.Creating() {
		// one actor is the model's whole job: its finish made the job created, which no recovery
		// tracks; the stuck job is one with another actor still backfilling at the recovery
		e.explain(siteRecoverNeverDone, "Here the job had finished (the explainer models this one actor as the whole job), so it is created and not tracked. Had another of its actors still been backfilling at the recovery, the job would still have been creating: %s's meta service recovers such a job with every locality-provider actor tracked as consuming upstream, and counts it finished only once every tracked actor has reported done (is_done, progress.rs 204-212). This actor, restarted with every vnode completed, never reports done, so that job stays creating for good: rw_catalog.rw_ddl_progress keeps listing it, as a background job, and it never finishes, though every row is backfilled. A done report from another actor finds no fragment in the job's empty backfill order, and the meta node logs \"fragment not found for actor\".", e.rel().Name)
		return
	}
	e.explain(siteRecoverNeverDone, "%s's meta service recovered this job with every locality-provider actor tracked as consuming upstream, and counts the job finished only once every tracked actor has reported done (is_done, progress.rs 204-212). This actor will never report done, so the job stays creating for good: rw_catalog.rw_ddl_progress keeps listing it, as a background job (it was recovered as one), and it never finishes, though every row is backfilled. A done report from another actor finds no fragment in the job's empty backfill order, and the meta node logs \"fragment not found for actor\".", e.rel().Name)
}
