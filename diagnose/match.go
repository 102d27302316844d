package diagnose

import (
	"sort"
	"strings"
)

// found is one message found in a text: where (in the folded text) and the actor ids it names.
type found struct {
	msg  *Message
	at   int    // byte in the folded text
	peer string // the other actor the message names (exchange messages), or ""
}

// find looks for one message in the folded text; ok false when it is not there.
type finder func(f string) (at int, peer string, ok bool)

func contains(text string) finder {
	text = strings.ToLower(text)
	return func(f string) (int, string, bool) {
		i := strings.Index(f, text)
		return i, "", i >= 0
	}
}

// exchangeFinder finds "exchange channel <dir> actor N closed unexpectedly", dir being one of dirs.
func exchangeFinder(dirs ...string) finder {
	return func(f string) (int, string, bool) {
		for off := 0; ; {
			i := strings.Index(f[off:], "exchange channel ")
			if i < 0 {
				return 0, "", false
			}
			i += off
			rest := f[i+len("exchange channel "):]
			for _, d := range dirs {
				if !strings.HasPrefix(rest, d) {
					continue
				}
				n := number(rest[len(d):])
				if n != "" && strings.HasPrefix(rest[len(d)+len(n):], " closed unexpectedly") {
					return i, n, true
				}
			}
			off = i + 1
		}
	}
}

var finders = map[MessageID]finder{
	MsgUpstreamEnded:    contains("locality provider upstream ended unexpectedly during backfill"),
	MsgActorExited:      contains("actor exited unexpectedly"),
	MsgExchangeUpstream: exchangeFinder("from local upstream actor ", "from remote upstream actor "),
	MsgExchangeDown:     exchangeFinder("to downstream actor "),
	MsgRescale:          contains("updating vnode bitmap in place is not supported"),
	MsgStreamClosed:     contains("failed to extract the first message: stream closed unexpectedly"),
	MsgFirstNotBarrier:  contains("the first message must be a barrier"),
	MsgNotCheckpoint:    checkpointFinder,
	MsgStorage:          contains("storage error: "),
	MsgFragmentNotFound: contains("fragment not found for actor"),
	MsgVnodeNotOwned:    contains("should not be accessed by this table"),
}

// checkpointFinder finds the failed assertion of the first barrier's kind, however the macro
// was spaced.
func checkpointFinder(f string) (int, string, bool) {
	squeezed := strings.NewReplacer(" ", "").Replace
	for off := 0; ; {
		i := strings.Index(f[off:], "assertion failed: matches!(")
		if i < 0 {
			return 0, "", false
		}
		i += off
		end := strings.IndexByte(f[i:], ')')
		if end > 0 && squeezed(f[i+len("assertion failed: matches!("):i+end]) == "barrier.kind,barrierkind::checkpoint|barrierkind::initial" {
			return i, "", true
		}
		off = i + 1
	}
}

// findAll returns every known message in the folded text, in the order they first appear.
func findAll(f string) []found {
	var out []found
	for _, m := range Catalogue() {
		if at, peer, ok := finders[m.ID](f); ok {
			out = append(out, found{msg: m, at: at, peer: peer})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at < out[j].at })
	return out
}

// actorOf finds the id of the actor a log names: "Actor N exited unexpectedly" (the error's
// wrapper) or an actor_id field ("actor_id=N", "actor_id: N").
func actorOf(f string) string {
	for off := 0; ; {
		i := strings.Index(f[off:], "actor ")
		if i < 0 {
			break
		}
		i += off
		if n := number(f[i+len("actor "):]); n != "" && strings.HasPrefix(f[i+len("actor ")+len(n):], " exited unexpectedly") {
			return n
		}
		off = i + 1
	}
	for _, key := range []string{"actor_id=", "actor_id: ", "actor_id=\"", "\"actor_id\":", "\"actor_id\": "} {
		if i := strings.Index(f, key); i >= 0 {
			if n := number(f[i+len(key):]); n != "" {
				return n
			}
		}
	}
	return ""
}
