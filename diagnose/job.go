package diagnose

import "github.com/backfill-explainer/explainer/engine"

// What happens to the job at the recovery every message here leads to (the failed actor, or the
// aborted node, fails the database's barriers and the meta service recovers it): the meta
// service's clean_dirty_creating_jobs, per release (engine/create.go models it).
var metaCleanCreating = fact{engine.FileMetaCatalog, engine.LinesMetaCleanCreating}

// initialJob: a job whose first barrier no checkpoint has committed is still Initial (the meta
// service marks it creating in that commit), and every release's recovery deletes it.
const initialJob = "Except a job so new that no checkpoint had yet committed its first barrier (still initial: the failure came on that barrier or before it): every release's recovery drops it, whatever its create type, and its CREATE must be run again."

// jobAt says what the recovery does to the failed actor's job under a release, the job first,
// then the rows, then the cost, with the lines that decide it.
func jobAt(r string) (string, Cite) {
	re := rel(r)
	if re.DropsCreatingForeground {
		s := "If the failed actor's job was still being created (its CREATE had not returned): created in the foreground, " +
			"the default (the session variable background_ddl is false), it is dropped by " + r + "'s recovery: the CREATE " +
			"fails with an error, and the job's tables and its new view are gone. No row is lost upstream. The cost: run " +
			"the whole CREATE again, or SET BACKGROUND_DDL = true before it so that a recovery keeps the job. Created in " +
			"the background, it is kept and goes on from its last checkpoint"
		if !re.ResendsStart {
			s += " (but on " + r + " a kept job that was still buffering never gets its start signal again, and one " +
				"restarted with every vnode completed never reports done: it stays creating)"
		}
		s += ". A job already created is kept. " + initialJob
		return s, at(r, metaCleanCreating.file, metaCleanCreating.in(r), "At a recovery the meta service deletes every job still creating whose create type is foreground; a background job and a created one stay.")
	}
	return "The failed actor's job is kept: " + r + "'s recovery keeps a job still being created, foreground or background, " +
			"unless its progress cannot be recovered (a fragment reading VALUES) or the meta service is told to clean every foreground job " +
			"at a recovery (its option clean_all_foreground_jobs_on_recovery), and the job goes on from its last checkpoint. No row is lost; the cost is time. " + initialJob,
		at(r, metaCleanCreating.file, metaCleanCreating.in(r), "At a recovery the meta service keeps a creating job unless its progress cannot be recovered, or every foreground one when told to clean them.")
}
