package engine

// MarkInvariant is the timeline mark's kind where the invariant check finds downstream broken
// (its glyph's meaning is the legend's "mark.invariant").
const MarkInvariant = "invariant"

// markBroken marks the step whose check found the invariant violated when the check before it
// did not: the barrier (or the stream's normal end) where it broke.
func (e *Engine) markBroken() {
	e.narration.marks = append(e.narration.marks, Mark{Step: e.step, Kind: MarkInvariant})
}
