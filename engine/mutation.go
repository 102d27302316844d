package engine

import "fmt"

// Mutation is a barrier mutation the locality provider never looks at: it acts only on the
// start signal and on a rescale of its own vnodes. Stop is one of them too, but the actor
// around the executor acts on it (actor.rs): it stops polling once the barrier has passed.
type Mutation uint8

const (
	MutationNone     Mutation = iota
	MutationPause             // Mutation::Pause: the job's sources stop sending data
	MutationResume            // Mutation::Resume: they send again
	MutationThrottle          // Mutation::Throttle: a rate limit for this fragment
	MutationStop              // Mutation::Stop naming this actor: the actor stops after the barrier
)

// MaxThrottle is the largest rate limit a throttle carries (RisingWave's is a uint32).
const MaxThrottle = 1<<32 - 1

func (m Mutation) String() string {
	switch m {
	case MutationPause:
		return "pause"
	case MutationResume:
		return "resume"
	case MutationThrottle:
		return "throttle"
	case MutationStop:
		return "stop"
	}
	return "none"
}

// ignoredMutation names the mutation the executor ignores, e.g. "Pause" or "Throttle (rate limit
// 1)", or "" when the barrier carries none.
func (b Barrier) ignoredMutation() string {
	switch b.Mutation {
	case MutationPause:
		return "Pause"
	case MutationResume:
		return "Resume"
	case MutationThrottle:
		return fmt.Sprintf("Throttle (rate limit %d)", b.Throttle)
	case MutationStop:
		return "Stop (for this actor)"
	}
	return ""
}

// mutationNames lists the mutations a barrier carries, as a scenario file writes them.
func (b Barrier) mutationNames() []string {
	var n []string
	if b.StartBackfill != nil {
		n = append(n, "start_backfill")
	}
	if b.Rescale {
		n = append(n, "rescale")
	}
	if b.Mutation != MutationNone {
		n = append(n, "mutation "+b.Mutation.String())
	}
	return n
}

// mutationText names the barrier's mutation for narration, or "" when it carries none.
func (b Barrier) mutationText() string {
	switch {
	case b.StartBackfill != nil:
		return "the start signal for " + fragmentsText(b.StartBackfill)
	case b.Rescale:
		return "a new vnode bitmap for this actor"
	}
	return b.ignoredMutation()
}

// trackMutation follows the job's pause and throttle as barriers pass, for the narration: the
// executor itself never looks at them.
func (e *Engine) trackMutation(b Barrier) {
	switch b.Mutation {
	case MutationPause:
		e.job.paused, e.job.pausedAt = true, b.Epoch
	case MutationResume:
		e.job.paused = false
	case MutationThrottle:
		e.job.throttled, e.job.throttle, e.job.throttleEpoch = true, b.Throttle, b.Epoch
	}
}

// noteIgnoredMutation says, after a barrier of the backfill, what an ignored pause or throttle
// means for the snapshot.
func (e *Engine) noteIgnoredMutation(b Barrier) {
	switch b.Mutation {
	case MutationPause:
		e.explain(sitePausedSnapshot, "The job is paused from here on (the mutation tells its sources to stop), but this executor does not pause: the snapshot is its own read of its state table, so whenever the upstream has nothing ready the snapshot still delivers, and full builders are still emitted.")
	case MutationThrottle:
		e.explain(siteThrottleIgnored, "Nor does the throttle slow the snapshot: the builders were created with the rate limit disabled, so they keep their capacity of %s, and the snapshot reads on whenever the upstream has nothing ready.", Plural(e.cfg.Capacity(), "row"))
	}
}

// jobMutations are the job's pause and throttle, which the executor ignores (followed for the
// narration).
type jobMutations struct {
	paused                  bool
	pausedAt                int64 // the barrier that paused the job
	throttled               bool
	throttle, throttleEpoch int64 // the last throttle's rate limit and its barrier
}
