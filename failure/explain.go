// Package failure explains the failure that stopped the executor, for the page's failure panel
// (docs/view.md `failure` and `dropped`): what it means, what the source proves, what it left
// behind, what the recovery does and what all that does to the data. It reads the engine (the
// failure's kind, what it left behind, the durable progress) and says nothing the engine does not.
package failure

import (
	"fmt"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
)

// leftText says what the failure left behind, in words.
func leftText(l engine.LeftBehind) string {
	if l.FirstMessage {
		return "Nothing: the executor failed on its first message, before it emitted anything or loaded its progress."
	}
	var never []string
	if l.BuilderRows > 0 {
		vn := make([]string, len(l.BuilderVnodes))
		for i, v := range l.BuilderVnodes {
			vn[i] = fmt.Sprint(v)
		}
		never = append(never, fmt.Sprintf("%s in the builders (vnode %s)", engine.Plural(l.BuilderRows, "row"), strings.Join(vn, ", ")))
	}
	if l.BufferChunks > 0 {
		never = append(never, fmt.Sprintf("%s in the upstream buffer (%s)", engine.Plural(l.BufferChunks, "chunk"), engine.Plural(l.BufferRows, "row")))
	}
	var parts []string
	if len(never) > 0 {
		parts = append(parts, "Never emitted: "+strings.Join(never, " and ")+".")
	}
	if l.Phase == engine.PhaseBackfilling && l.EmittedAtStep > 0 {
		parts = append(parts, fmt.Sprintf("Already emitted at this barrier, before the failure: %s.", engine.Plural(l.EmittedAtStep, "chunk")))
	}
	if l.Pending > 0 {
		parts = append(parts, fmt.Sprintf("Never committed: %s to the state table.", engine.Plural(l.Pending, "write")))
	}
	if l.ProgressMoved {
		parts = append(parts, fmt.Sprintf("Progress made since the last checkpoint (e%d) is not durable.", l.CkptEpoch))
	}
	if l.SinceCkpt > 0 {
		them := "them"
		if l.SinceCkpt == 1 {
			them = "it"
		}
		parts = append(parts, fmt.Sprintf("Downstream received %s since the last checkpoint (e%d); a recovery rolls %s back.", engine.Plural(l.SinceCkpt, "output"), l.CkptEpoch, them))
	}
	if len(parts) == 0 {
		return "Nothing in memory: no builder rows, no buffered chunk, no uncommitted write."
	}
	return strings.Join(parts, " ")
}

// recoveryText says what a recovery does from here: it is outside the executor, which only
// reloads its progress.
func recoveryText(e *engine.Engine) string {
	if e.Initial() {
		return "Recovery is not in this file: the meta service recovers the database, and " + engine.InitialDropText + " This executor does not start over. In the explainer, the recover step does this."
	}
	if e.RecoveryDrops() {
		return fmt.Sprintf("Recovery is not in this file: the meta service recovers the database, and since %s and it is still creating (no finish report reached a checkpoint), %s's recovery deletes it: its state table, its progress table and the new materialized view are dropped, and the user's CREATE returns an error. This executor does not start over; nothing runs again unless the CREATE is run again, from the start. In the explainer, the recover step does this.", e.CreatedText(), e.Release().Name)
	}
	then := resumePlan(e, false)
	return fmt.Sprintf("Recovery is not in this file: RisingWave restarts the job from its last checkpoint (here e%d), rolling back the state table, the progress table and downstream to it. This executor then starts over: it waits for a first barrier and loads its progress from the progress table (lines %s): %s. In the explainer, the recover step does this.", e.DurableEpoch(), e.LoadLines(), then)
}

// Explain explains the failure that stopped the executor, or returns nil.
func Explain(e *engine.Engine) *FailureView {
	if e.Failure() == nil {
		return nil
	}
	info := Of(e.FailureKind())
	if info == nil {
		return nil
	}
	proven := append([]engine.Citation{}, info.Proven...)
	if c, ok := info.ProvenIn[e.LeftBehind().Phase]; ok {
		proven = append(proven, c)
	}
	for i, c := range proven {
		proven[i] = e.Release().Cite(c)
	}
	return &FailureView{
		Kind: info.Kind, Message: e.Failure().Message, Panic: e.Failure().Panic, Step: e.Failure().Step,
		Meaning: info.Meaning, Proven: proven, Inferred: append([]string{}, info.Inferred...),
		LeftBehind: leftText(e.LeftBehind()), Recovery: recoveryText(e),
		Phase: failedIn(e).String(), PhaseLabel: phaseLabel(info.Kind, failedIn(e)), Release: e.Release().Name,
		Data: failureData(e),
	}
}

// Dropped is what the page shows for a dropped job (nil unless the phase is dropped).
func Dropped(e *engine.Engine) *FailureData {
	if e.Phase() != engine.PhaseDropped {
		return nil
	}
	d := dropData(e)
	return &d
}

// linesOf names a site's lines in the engine's release, e.g. "314-368".
func linesOf(e *engine.Engine, site string) string {
	s := engine.SiteByID(site)
	if s == nil {
		return "?" // (failure_test.go: never)
	}
	l, _ := e.Release().SiteLines(s)
	return fmt.Sprintf("%d-%d", l[0], l[1])
}
