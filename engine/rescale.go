package engine

// The one rescale check every phase asks at a barrier: a barrier carrying a new vnode bitmap for
// this actor fails in the phases its release's RescaleFails names; in the others the release
// never looks at the bitmap. Only the sites and the words differ by phase.

// rescaleWords is what a phase says about a new vnode bitmap, and where.
type rescaleWords struct {
	check, fail, ignored *Site
	fails                string // after "Barrier eN carries a new vnode bitmap for actor A"
	ignores              string // how the phase's code passes the barrier when it does not look
}

// rescaleByPhase: the words of each phase a rescale can reach (after the first barrier).
var rescaleByPhase = [...]rescaleWords{
	PhaseBuffering: {siteBufRescale, siteFailBufRescale, siteBufRescaleIgnored,
		"; this executor cannot change its vnodes in place.",
		"while buffering it looks only for the start signal, and both tables commit without passing a new bitmap on"},
	PhaseBackfilling: {siteBarRescale, siteFailBarRescale, siteBarRescaleIgnored,
		". The chunks above were already emitted, but nothing of this epoch is committed.",
		"the tables commit and the barrier is emitted as any other, without passing a new bitmap on"},
	PhaseCompleting: {siteCompRescale, siteFailCompRescale, siteCompRescaleIgnored,
		"; the barrier that would complete the backfill cannot change this executor's vnodes in place.",
		"its commit_assert_no_update_vnode_bitmap only commits (it passes no bitmap on and checks none)"},
	PhaseForwarding: {siteFwdRescale, siteFailFwdRescale, siteFwdRescaleIgnored,
		"; even after the backfill this executor cannot change its vnodes in place.",
		"its commit_assert_no_update_vnode_bitmap only commits (it passes no bitmap on and checks none)"},
}

// rescaleFails reports whether the barrier carries a new vnode bitmap that fails in this phase
// of the engine's release.
func (e *Engine) rescaleFails(b Barrier) bool { return b.Rescale && e.rel().RescaleFails.Has(e.phase) }

// checkRescale is the rescale check: when the barrier's new vnode bitmap fails here, it says so,
// fails the executor and returns true.
func (e *Engine) checkRescale(b Barrier) bool {
	if !e.rescaleFails(b) {
		return false
	}
	w := rescaleByPhase[e.phase]
	e.explain(w.check, "Barrier e%d carries a new vnode bitmap for actor %d"+w.fails, b.Epoch, e.cfg.Actor)
	e.fail(FailRescale, ErrRescale, w.fail)
	return true
}

// rescaleIgnored narrates a barrier with a new vnode bitmap in a release that never looks at it
// in this phase: it is a barrier without a mutation.
func (e *Engine) rescaleIgnored(b Barrier) {
	w := rescaleByPhase[e.phase]
	e.explain(w.ignored, "Barrier e%d carries a new vnode bitmap for actor %d, which %s ignores: %s, so the model goes on with the vnodes the actor had (from %s this is an error). No such barrier reaches a creating job in a cluster: %s", b.Epoch, e.cfg.Actor, e.rel().Name, w.ignores, FirstWhere(func(r *Release) bool { return r.RescaleFails.Has(e.phase) }), e.rescaleNotSent())
}
