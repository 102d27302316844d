package diagnose

// MessageID names one message the diagnosis recognises.
type MessageID string

const (
	MsgUpstreamEnded    MessageID = "upstream-ended"               // locality provider upstream ended unexpectedly during backfill
	MsgActorExited      MessageID = "actor-exited"                 // actor exited unexpectedly
	MsgExchangeUpstream MessageID = "exchange-upstream-closed"     // exchange channel from local|remote upstream actor N closed unexpectedly
	MsgExchangeDown     MessageID = "exchange-downstream-closed"   // exchange channel to downstream actor N closed unexpectedly
	MsgRescale          MessageID = "rescale"                      // updating vnode bitmap in place is not supported
	MsgStreamClosed     MessageID = "stream-closed"                // failed to extract the first message: stream closed unexpectedly
	MsgFirstNotBarrier  MessageID = "first-message-not-barrier"    // panic: the first message must be a barrier
	MsgNotCheckpoint    MessageID = "first-barrier-not-checkpoint" // panic: the checkpoint assertion
	MsgStorage          MessageID = "storage-error"                // Storage error: …
)

// Message is one message the diagnosis knows: its exact text and, per release, what it means.
type Message struct {
	ID    MessageID
	Text  string // the exact text (N stands for an actor id)
	Panic bool
	// Raiser says which code raises it, in a few words.
	Raiser string
	Note   string // how the releases that produce it differ, or ""
	// Facts per release name; none: the release cannot produce it.
	Facts map[string]*Fact
	// Instead says, for a release that cannot produce it, what that release does instead.
	Instead map[string]*Instead
}

// Fact is what a message means at one release.
type Fact struct {
	// Where says where this release raises it (one sentence).
	Where string
	// NotByLP: this release produces the text, but not from the locality provider.
	NotByLP    bool
	Meaning    string
	Phases     []string
	Proven     []Cite
	LeftBehind string
	LookNext   []string // in order: what to check first
	Open       *Open    // the built-in to open, or nil when none shows it
}

// Open names a built-in scenario and the step to open it at (its failure step, or the step
// where that release does instead what the message would say).
type Open struct {
	Scenario string `json:"scenario"`
	Step     int    `json:"step"`
	Why      string `json:"why"`
}

// Produces reports whether a release can produce the message at all.
func (m *Message) Produces(release string) bool { return m.Facts[release] != nil }

// ProducedBy lists the releases that produce the message, oldest first.
func (m *Message) ProducedBy() []string {
	var out []string
	for _, r := range ReleaseNames() {
		if m.Facts[r] != nil {
			out = append(out, r)
		}
	}
	return out
}

// Lookup returns the catalogue's message of that id, or nil.
func Lookup(id MessageID) *Message {
	for _, m := range Catalogue() {
		if m.ID == id {
			return m
		}
	}
	return nil
}
