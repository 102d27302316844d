package engine

import (
	"fmt"
)

// CreateType is how the job was created: RisingWave's session variable background_ddl
// (default false: foreground). It matters only at a recovery (docs/scenario-format.md, "The job").
type CreateType uint8

const (
	CreateForeground CreateType = iota // the CREATE statement waits for the backfill (the default)
	CreateBackground                   // SET BACKGROUND_DDL = true: the statement returns at once
)

func (c CreateType) String() string {
	if c == CreateBackground {
		return "background"
	}
	return "foreground"
}

// The meta service's catalog, whose recovery cleans the creating jobs it cannot keep.
const FileMetaCatalog = "src/meta/src/controller/catalog/mod.rs"

// LinesMetaCleanCreating: clean_dirty_creating_jobs at SourceCommit (it drops a creating job only
// when its progress cannot be recovered, or every foreground one under
// clean_all_foreground_jobs_on_recovery); the older releases' tables give theirs.
var LinesMetaCleanCreating = [2]int{634, 700}

var siteRecoverJob = metaSite("recover.creating-job", "note", FileMetaCatalog, LinesMetaCleanCreating[0], LinesMetaCleanCreating[1])

// The meta service's catalog of streaming jobs, which marks a job creating once its first barrier
// is committed.
const FileMetaStreamingJob = "src/meta/src/controller/streaming_job.rs"

// LinesMetaMarkCreating: post_collect_job_fragments at SourceCommit, run in the commit of the
// checkpoint barrier that carried the job's creation, moves the job from Initial to Creating.
var LinesMetaMarkCreating = [2]int{1204, 1226}

var siteRecoverInitial = metaSite("recover.initial-job", "note", FileMetaStreamingJob, LinesMetaMarkCreating[0], LinesMetaMarkCreating[1])

func dropsCreatingForeground(r *Release) bool { return r.DropsCreatingForeground }

// Create returns how the job was created.
func (e *Engine) Create() CreateType { return e.cfg.Create }

// Creating reports whether the job is still creating: the meta service marks it created when it
// commits the first checkpoint barrier at or after the one that carried the finish report, so a
// finish report at or before the last checkpoint means the job is created.
func (e *Engine) Creating() bool {
	for _, r := range e.reports {
		if r.Kind == ReportFinish && r.Epoch <= e.dur.epoch {
			return false
		}
	}
	return true
}

// Initial reports whether the job is still in its Initial status: no checkpoint has committed
// its first barrier, so the meta service has not yet marked it creating.
func (e *Engine) Initial() bool { return e.dur.epoch == 0 }

// RecoveryDrops reports whether a recovery now would drop the job: one still in its Initial
// status (every release, whatever its create type), or a creating foreground job in a release
// whose recovery drops those.
func (e *Engine) RecoveryDrops() bool { return e.RecoveryDropsAs(e.cfg.Create) }

// RecoveryDropsAs reports whether a recovery now would drop the job had it been created as c.
func (e *Engine) RecoveryDropsAs(c CreateType) bool {
	return e.Initial() || e.rel().DropsCreatingForeground && c == CreateForeground && e.Creating()
}

// drop is the recovery that drops the job: its tables and the new view go with it; what was
// emitted stays in the outputs.
func (e *Engine) drop() {
	e.phase = PhaseDropped
	e.droppedAt = e.step
	e.failure = nil
	e.narration.failKind, e.narration.failLeft = "", LeftBehind{}
	epoch := e.state.epoch
	e.state = newStateTable(e.pk, len(e.owned))
	e.state.epoch = epoch
	e.progTab = newProgressTable(len(e.owned))
	e.world.down = newRowset(e.pk, len(e.owned))
	e.dur.state, e.dur.progress, e.dur.down = e.state.version(), e.progTab.clone(), e.world.down.share()
	e.markAllDirty()
	e.buffer, e.snap = nil, nil
	e.dropBuilders()
	e.unloadProgress() // the executor is gone with the job
	e.narration.marks = append(e.narration.marks, Mark{Step: e.step, Kind: "dropped"})
	e.check.result = Invariant{Status: "unchecked", Step: e.step, Epoch: e.dur.epoch, Text: "not checked: the recovery dropped the job"}
	if e.Initial() {
		e.explain(siteRecoverInitial, "Recovery (the meta service, outside this file): %s", InitialDropText)
		return
	}
	e.explain(siteRecoverJob, "Recovery (the meta service, outside this file): %s, and it is still creating (no finish report reached a checkpoint), so the recovery deletes it from the catalog: the job, its state table, its progress table and the new materialized view are dropped. The user's CREATE returns an error; nothing runs again unless the CREATE is run again, from the start. (From %s the recovery keeps it; with create: background every release keeps it.)", e.CreatedText(), FirstWhere(not(dropsCreatingForeground)))
}

// CreatedText says how the job was created, e.g. "the job was created in the foreground (background_ddl false, the default)".
func (e *Engine) CreatedText() string {
	if e.cfg.Create == CreateBackground {
		return "the job was created in the background (background_ddl true)"
	}
	return "the job was created in the foreground (background_ddl false, the default)"
}

// explainKept says why the recovery keeps the job.
func (e *Engine) explainKept() {
	switch {
	case !e.Creating():
		e.explain(siteRecoverJob, "The job had finished: its finish report reached a checkpoint, so the meta service marked it created, and a recovery keeps a created job in every release.")
	case e.rel().DropsCreatingForeground:
		e.explain(siteRecoverJob, "The job is still creating, but %s: %s's recovery drops only creating foreground jobs, so it keeps this one and recovers it as creating.", e.CreatedText(), e.rel().Name)
	default:
		e.explain(siteRecoverJob, "The job is still creating and %s: %s's recovery keeps a creating job unless its progress cannot be recovered (a fragment with VALUES), or, when the meta service is told to clean every foreground job at recovery (its option clean_all_foreground_jobs_on_recovery; not modelled), every foreground one.", e.CreatedText(), e.rel().Name)
	}
}

// InitialDropText says why a job in its Initial status is dropped, in every release.
const InitialDropText = "no checkpoint has committed the job's first barrier, so the job is still in its initial status: the meta service marks it creating only in the commit of the checkpoint barrier that carried its creation (post_collect_job_fragments). Every release's recovery deletes a job in its initial status, whatever its create type (clean_dirty_creating_jobs): the job, its state table, its progress table and the new materialized view are dropped. The user's CREATE returns an error; nothing runs again unless the CREATE is run again, from the start."

// droppedError is the error at a step after the recovery dropped the job.
func (e *Engine) droppedError() error {
	if e.Initial() {
		return inputErr(-1, "the job was dropped by the recovery at step %d (no checkpoint had committed its first barrier: every release's recovery drops a job in its initial status, whatever its create type); nothing can follow", e.droppedAt)
	}
	return inputErr(-1, "the job was dropped by the recovery at step %d (%s's recovery drops a creating job created in the foreground); nothing can follow: write `create: background` to see it resume", e.droppedAt, e.rel().Name)
}

// createName is the create type for a trace: "" for the default.
func (e *Engine) createName() string {
	if e.cfg.Create == CreateForeground {
		return ""
	}
	return e.cfg.Create.String()
}

// recoverLabel names a recovery as an action: one that drops the job says so.
func (e *Engine) recoverLabel() string {
	if e.Initial() {
		return "recover: drops this job (no checkpoint yet)"
	}
	if e.RecoveryDrops() {
		return "recover: " + e.rel().Name + " drops this creating foreground job"
	}
	return fmt.Sprintf("recover from the last checkpoint (e%d)", e.dur.epoch)
}
