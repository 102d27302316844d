package engine

import "github.com/backfill-explainer/explainer/internal/persist"

// What the interleaving explorer (package explore) needs of an engine's private state: its
// identity as a state, what makes its end an outcome, and a copy that keeps no history.

// StateKey is a state's identity: a 128-bit digest of its canonical encoding (see
// explore.stateKey for why 128 bits of FNV-1a, mixed, are enough).
type StateKey persist.Digest

// StateKey is the state's identity for the explorer: a hash of its canonical encoding, the
// invariant's history (violated) and the next upstream message (next). buf is scratch space,
// returned for reuse.
func (e *Engine) StateKey(buf []byte, violated bool, next int) ([]byte, StateKey) {
	k := keyWriter(buf[:0])
	e.appendStateKey(&k)
	k.bool(violated)
	k.int(int64(next))
	return k, StateKey(persist.DigestOf(k))
}

// OutcomeKey appends to buf what makes the engine's end an outcome, as digests (so a
// schedule's end costs what changed, not every row downstream holds): the phase, the failure,
// whether the invariant failed on the way (violated) and its status, downstream and the durable
// progress table.
func (e *Engine) OutcomeKey(buf []byte, violated bool) []byte {
	k := keyWriter(buf)
	k.int(int64(e.phase))
	if e.failure != nil {
		k.str(e.failure.Message)
		k.bool(e.failure.Panic)
	}
	k.bool(violated)
	k.str(e.check.result.Status)
	var down persist.Digest
	for _, p := range e.world.down.parts.Present() {
		down = down.Add(p.SumFrom(0, heldDigest))
	}
	k.digest(down)
	k.progressTable(e.dur.progress)
	return k
}

// ForgetHistory drops what the explorer never reads (outputs, progress reports, timeline marks,
// narration), so that a copy's appends do not copy them (v2.7 reports at every barrier while
// buffering: each copy on the search's path kept every report so far).
func (e *Engine) ForgetHistory() {
	e.outputs, e.reports, e.narration.marks, e.narration.explanations = nil, nil, nil, nil
	e.dur.outputs = 0
}
