package engine

import "fmt"

// recover restarts the job from the last checkpoint: the state table, the progress table,
// downstream and the upstream's content roll back; everything in memory is lost.
func (e *Engine) recover() {
	if e.RecoveryDrops() {
		e.drop()
		return
	}
	lost := ""
	if w := e.lostWork(); e.phase == PhaseBackfilling && w != "" {
		lost = " " + Upper(w) + "."
	}
	pending := len(e.state.pending)
	committed := e.state.epoch // the last commit, before the restore forgets it
	undone := committed > e.dur.epoch
	e.state.restore(e.dur.state, e.dur.epoch)
	e.progTab = e.dur.progress.clone()
	e.world.down = e.dur.down.share()
	e.world.upstream = e.dur.upstream.share()
	e.markAllDirty()
	e.phase = PhaseStarting
	e.stopEpoch, e.recovered = 0, true
	e.failure = nil
	e.narration.failKind, e.narration.failLeft = "", LeftBehind{}
	e.unloadProgress()
	e.dropBuilders()
	e.buffer = nil
	e.snap = nil
	e.upEnded = false
	e.snapshotFinished = false
	e.reportFinishOnFirstBarrier = false
	e.job.paused, e.job.throttled = false, false
	if from := e.dur.outputs; from < len(e.outputs) {
		e.narration.rollbacks = append(e.narration.rollbacks, Rollback{From: from, To: len(e.outputs), Step: e.step, Epoch: e.dur.epoch})
	}
	e.outputs = append(e.outputs, Output{Type: OutRecovery, Epoch: e.dur.epoch, Step: e.step})
	e.dur.outputs = len(e.outputs) // what came before is rolled back
	e.narration.marks = append(e.narration.marks, Mark{Step: e.step, Kind: "recovery"})
	e.check.result = Invariant{Status: "unchecked", Step: e.step, Epoch: e.dur.epoch, Text: "not checked since the recovery; it is checked again at the next barrier"}
	extra := ""
	if pending > 0 {
		extra = fmt.Sprintf(" %s not yet committed %s dropped.", Plural(pending, "state-table write"), isAre(pending))
	}
	if undone {
		extra += fmt.Sprintf(" Commits after e%d (up to e%d) were not checkpoints, so they are undone too.", e.dur.epoch, committed)
	}
	e.explain(siteRecoverRollback, "Recovery (RisingWave's meta service does it, outside this file): every actor of the job's database restarts (of the whole cluster when per-database isolation is off) from the last checkpoint, e%d. The state table, the progress table, downstream and the upstream all roll back to it.%s%s", e.dur.epoch, lost, extra)
	e.explainKept()
	e.explain(siteRecoverReload, "The restarted executor waits for a first barrier, then loads its progress from the progress table as the checkpoint left it.")
}

// Rollback is a run of outputs a recovery rolled back: everything emitted after the barrier of
// the checkpoint it went back to. Downstream undoes what they did.
type Rollback struct {
	From  int   `json:"from"`  // index of the first rolled-back output in the whole output list
	To    int   `json:"to"`    // index just after the last one: the recovery's own entry
	Step  int   `json:"step"`  // the recovery's step
	Epoch int64 `json:"epoch"` // the checkpoint it went back to
}

// Rollbacks lists the outputs each recovery so far rolled back, oldest first (read-only).
func (e *Engine) Rollbacks() []Rollback { return e.narration.rollbacks }

// Upper is s with its first letter a capital.
func Upper(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
