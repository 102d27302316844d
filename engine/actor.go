package engine

import (
	"strings"
)

// The actor around the executor (RisingWave's executor/actor.rs): it polls the executor's
// stream, collects each barrier the stream yields, and stops after a Stop barrier for itself.
// An end of the stream before one is the actor's own error; an executor's error ends it too.

// Sites of the actor and its input (their lines in the older releases: release_lines.go).
var (
	siteActorStop      = actorSite("actor.stop", "end", 316, 318)
	siteActorStopInput = mergeSite("actor.stop-input-ends", "end", 360, 365)
)

// mergeSite cites lines a-b of executor/merge.rs.
//
//go:noinline
func mergeSite(id, kind string, a, b int) *Site { return newSite(id, kind, FileMerge, a, b, "") }

// The actor's lines at SourceCommit: its loop over the executor's stream, and the Stop check.
var (
	LinesActorLoop = [2]int{305, 318} // Ok(None) => "actor exited unexpectedly"; Err; is_stop → break
	LinesActorStop = [2]int{316, 318} // if barrier.is_stop(id) { … break Ok(barrier); }
)

// stopping reports whether the barrier being handled is a Stop for this actor: the executor
// handles it as any barrier, and nothing it would do after yielding it runs.
func (e *Engine) stopping(b Barrier) bool { return b.Mutation == MutationStop }

// actorStops ends the run after the executor passed on a Stop barrier: the actor leaves its
// loop and never polls the executor again (actor.rs), and the input ends after it (merge.rs).
func (e *Engine) actorStops(b Barrier, was Phase) {
	e.phase = PhaseEnded
	e.stopEpoch = b.Epoch
	e.narration.marks = append(e.narration.marks, Mark{Step: e.step, Kind: "end", Label: "stop"})
	never := ""
	switch was {
	case PhaseStarting:
		never = ": it never loads its progress"
	case PhaseBuffering:
		never = ": it never buffers again"
	case PhaseBackfilling:
		never = ": the snapshot stream is never read on"
	case PhaseCompleting:
		never = ": it never goes on to forward"
	}
	e.explain(siteActorStop, "Barrier e%d carries Stop for actor %d. The executor passed it on like any barrier, and the actor, which checks every barrier its executors yield, leaves its loop at a Stop for itself (is_stop, then break): it drops the executor's stream and only then collects the barrier. Nothing polls the executor again%s.", b.Epoch, e.cfg.Actor, never)
	e.explain(siteActorStopInput, "Its input ends here too: a merge input ends its stream only right after passing on a Stop barrier for this actor. A Stop is the actor's normal way out: it ends without an error, and nothing recovers.")
}

// StopEpoch is the Stop barrier the actor stopped at (0: it has not stopped).
func (e *Engine) StopEpoch() int64 { return e.stopEpoch }

// An upstream actor that dies or is dropped: its exchange channel closes, and the exchange input
// yields an error (exchange/input.rs): an exchange input never just ends.
var (
	siteExchangeLocal  = inputSite("upstream.exchange-closed-local", "note", 121, 123)
	siteExchangeRemote = inputSite("upstream.exchange-closed-remote", "note", 303, 309)
)

// inputSite cites lines a-b of executor/exchange/input.rs.
//
//go:noinline
func inputSite(id, kind string, a, b int) *Site {
	return newSite(id, kind, FileExchangeInput, a, b, "")
}

// exchangeClosed narrates an upstream error that is an exchange input's closed channel, before
// the phase handles it as any upstream error.
func (e *Engine) exchangeClosed(msg string) {
	kind, actor, ok := parseExchangeClosed(msg)
	if !ok {
		return
	}
	site := siteExchangeRemote
	switch kind {
	case "local":
		site = siteExchangeLocal
	case "remote":
	default:
		return
	}
	e.explain(site, "This is how a dead upstream actor reaches this executor: upstream actor %d failed or was dropped, its %s exchange channel closed, and the exchange input, which never just ends (only a Stop barrier ends it), yields this error instead. The executor sees an upstream error, not an end of its input.", actor, kind)
}

// parseExchangeClosed reads "exchange channel from KIND upstream actor N closed unexpectedly"
// (by hand: fmt.Sscanf would bring fmt's scanner into the wasm).
func parseExchangeClosed(msg string) (kind string, actor int64, ok bool) {
	rest, ok := strings.CutPrefix(msg, "exchange channel from ")
	if !ok {
		return "", 0, false
	}
	kind, rest, ok = strings.Cut(rest, " upstream actor ")
	if !ok || kind == "" || strings.Contains(kind, " ") {
		return "", 0, false
	}
	n, rest := leadingInt(rest)
	if n < 0 || !strings.HasPrefix(rest, " closed unexpectedly") {
		return "", 0, false
	}
	return kind, n, true
}

// leadingInt reads the decimal digits at the start of s: their value (-1 when none, or too
// many) and what follows.
func leadingInt(s string) (int64, string) {
	i := 0
	var n int64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' && i < 18 {
		n = n*10 + int64(s[i]-'0')
		i++
	}
	if i == 0 || i < len(s) && s[i] >= '0' && s[i] <= '9' {
		return -1, s
	}
	return n, s[i:]
}
