package diagnose

import "github.com/backfill-explainer/explainer/engine"

// messageOf is the catalogue's message for each failure the engine models; an upstream error
// carries the upstream's own text, so its message is found in that text.
var messageOf = map[engine.FailureKind]MessageID{
	engine.FailUpstreamEnded:          MsgUpstreamEnded,
	engine.FailUpstreamEndedBuffering: MsgUpstreamEnded,
	engine.FailStreamClosed:           MsgStreamClosed,
	engine.FailFirstNotBarrier:        MsgFirstNotBarrier,
	engine.FailFirstNotCheckpoint:     MsgNotCheckpoint,
	engine.FailRescale:                MsgRescale,
	engine.FailSnapshotError:          MsgStorage,
}

// Checks is what to check, in order, after a failure the engine models, at a release: the
// diagnosis's "where to look next" for the message that failure prints, exactly as Diagnose
// answers it (with A for the failed actor's id). It returns the message's id, or "" and nil
// when the catalogue has no message for it or the release does not produce it.
func Checks(kind engine.FailureKind, message, release string) (MessageID, []string) {
	if _, ok := findRelease(release); !ok {
		return "", nil
	}
	found := findAll(fold(stripANSI(message)).text)
	id, ok := messageOf[kind]
	if !ok {
		if len(found) == 0 {
			return "", nil
		}
		id = found[0].msg.ID
	}
	m := answer(Lookup(id), release)
	if !m.Produces || len(m.LookNext) == 0 {
		return "", nil
	}
	if len(found) > 0 && found[0].msg.ID == id {
		m.Peer = found[0].peer // the upstream actor the message names, as a paste of it gets
		m.fill()
	}
	return id, m.LookNext
}
