package diagnose

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// realistic log lines, one per message, in the format a compute node prints them.
var logLines = map[MessageID]string{
	MsgUpstreamEnded:    `2026-08-30T10:12:03.123456Z ERROR actor{actor_id=12}: risingwave_stream::task::actor_manager: actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: Executor error: locality provider upstream ended unexpectedly during backfill`,
	MsgActorExited:      `2026-08-30T10:12:03Z ERROR risingwave_stream::task::actor_manager: actor exit with error actor_id=12 error=actor exited unexpectedly`,
	MsgExchangeUpstream: `ERROR risingwave_stream::task::actor_manager: actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: Executor error: exchange channel from remote upstream actor 5 closed unexpectedly: gRPC request failed: Unavailable: transport error`,
	MsgExchangeDown:     `ERROR actor exit with error actor_id=9 error=Actor 9 exited unexpectedly: Executor error: exchange channel to downstream actor 13 closed unexpectedly`,
	MsgRescale:          `ERROR actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: Executor error: updating vnode bitmap in place is not supported`,
	MsgStreamClosed:     `ERROR actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: Executor error: failed to extract the first message: stream closed unexpectedly`,
	MsgFirstNotBarrier:  `thread 'risingwave-streaming-actor' panicked at src/stream/src/executor/mod.rs:1476:10: the first message must be a barrier: Chunk(StreamChunk { cardinality: 1 })`,
	MsgNotCheckpoint:    `thread 'risingwave-streaming-actor' panicked at src/stream/src/executor/mod.rs:1478:5: assertion failed: matches!(barrier.kind, BarrierKind::Checkpoint | BarrierKind::Initial)`,
	MsgStorage:          `ERROR actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: Executor error: Storage error: Hummock error: Other error: read timed out`,
	MsgFragmentNotFound: `2026-08-30T10:12:03.123Z ERROR risingwave_meta::barrier::backfill_order_control: fragment not found for actor actor_id=12`,
	MsgVnodeNotOwned:    `thread 'risingwave-streaming-actor' panicked at src/common/src/hash/table_distribution.rs:274:9: vnode 121 should not be accessed by this table`,
}

func TestEveryMessageHasALine(t *testing.T) {
	for _, m := range Catalogue() {
		assert.NotEmpty(t, logLines[m.ID], m.ID)
	}
	assert.Len(t, logLines, len(Catalogue()))
}

// TestMessageByRelease: every known message, pasted as a log line, under every release: found
// (alone), and answered for that release: the statement right, the facts there when the release
// produces it, what it does instead when it cannot.
func TestMessageByRelease(t *testing.T) {
	for _, msg := range Catalogue() {
		for _, rel := range ReleaseNames() {
			t.Run(string(msg.ID)+"/"+rel, func(t *testing.T) {
				a, err := Diagnose(logLines[msg.ID], rel)
				require.NoError(t, err)
				require.True(t, a.Recognised)
				require.Len(t, a.Matches, 1, "only this message")
				m := a.Matches[0]
				assert.Equal(t, msg.ID, m.ID)
				assert.Equal(t, rel, m.Release)
				assert.False(t, m.Assumed)
				assert.Equal(t, msg.ProducedBy(), m.ProducedBy)
				assert.NotEmpty(t, m.Excerpt)
				text := a.Text()
				assert.Contains(t, text, "Release "+rel+": ")
				if !msg.Produces(rel) {
					assert.False(t, m.Produces)
					assert.Contains(t, m.Statement, rel+" cannot produce this message")
					return
				}
				assert.True(t, m.Produces)
				assert.NotContains(t, m.Statement, "cannot produce")
				assert.NotEmpty(t, m.Meaning)
				assert.NotEmpty(t, m.Phases)
				assert.NotEmpty(t, m.Proven)
				assert.NotEmpty(t, m.LeftBehind)
				assert.NotEmpty(t, m.LookNext)
				ref := releaseRef(rel)
				for _, c := range m.Proven {
					assert.Equal(t, ref, c.Ref, "%s cites its own release's source: %s", rel, c.Text)
					assert.Contains(t, c.URL, "/blob/"+ref+"/"+c.File+"#L")
				}
			})
		}
	}
}

// The fatal error: v3.1 explains it and sends the engineer away from the upstream's logs; v2.7
// to v3.0 cannot produce it and say what they do instead.
func TestFatalErrorPerRelease(t *testing.T) {
	line := logLines[MsgUpstreamEnded]
	endFails := func(r *engine.Release) bool { return r.EndFails }
	for _, rel := range ReleaseNames() {
		if endFails(engine.Releases[slices.Index(ReleaseNames(), rel)]) {
			continue
		}
		a, err := Diagnose(line, rel)
		require.NoError(t, err)
		m := a.Matches[0]
		assert.False(t, m.Produces, rel)
		assert.Contains(t, a.Text(), rel+" cannot produce this message (produced by "+engine.NamesWhere(endFails)+" only).")
		assert.Contains(t, m.Meaning, "the upstream's end is silent: the executor reads the rest of the snapshot alone, emits it")
		assert.Contains(t, m.Meaning, "the actor fails with \"actor exited unexpectedly\"")
		require.NotNil(t, m.Open)
		assert.Equal(t, "#scenario=fatal-upstream-end&step=10&release="+rel, m.Open.Hash)
	}
	a, err := Diagnose(line, engine.FirstWhere(endFails))
	require.NoError(t, err)
	m := a.Matches[0]
	assert.True(t, m.Produces)
	assert.Contains(t, m.LookNext[0], "Not the upstream actor's logs first")
	assert.Contains(t, m.LookNext[0], "a merge input ends only right after a Stop barrier")
	assert.Contains(t, strings.Join(m.LookNext, " "), "something polled the executor after a Stop barrier or fed it a non-standard stream")
	assert.Contains(t, strings.Join(m.LookNext, " "), "with this actor's compute-node log")
	assert.Contains(t, strings.Join(m.LookNext, " "), "actor_id = 12", "the actor the line names")
	assert.Equal(t, "#scenario=fatal-upstream-end&step=10&release="+engine.FirstWhere(endFails), m.Open.Hash)
}

func TestNoReleaseAnswersForTheNewestThatProducesIt(t *testing.T) {
	a, err := Diagnose(logLines[MsgRescale], "")
	require.NoError(t, err)
	m := a.Matches[0]
	assert.True(t, m.Assumed)
	by := Lookup(MsgRescale).ProducedBy()
	newest := by[len(by)-1]
	assert.Equal(t, newest, m.Release)
	assert.Contains(t, m.Statement, "No release given: this answer is for "+newest+", the newest release that produces it")
	_, err = Diagnose("x", "v4.0")
	assert.ErrorContains(t, err, `unknown release "v4.0"`)
}

func TestRescaleAtV30IsNotTheLocalityProviders(t *testing.T) {
	a, err := Diagnose(logLines[MsgRescale], "v3.0")
	require.NoError(t, err)
	m := a.Matches[0]
	assert.True(t, m.Produces)
	assert.True(t, m.NotByLP)
	assert.Contains(t, m.Statement, "the locality provider never calls it")
}

// The exchange message names the upstream actor; the advice names it.
func TestExchangeNamesTheUpstreamActor(t *testing.T) {
	a, err := Diagnose(logLines[MsgExchangeUpstream], "v2.8")
	require.NoError(t, err)
	m := a.Matches[0]
	assert.Equal(t, "5", m.Peer)
	assert.Equal(t, "12", m.Actor)
	assert.Contains(t, m.LookNext[0], "Upstream actor 5's own failure first")
	assert.Contains(t, m.LookNext[0], "WHERE actor_id = 5")
	a, _ = Diagnose("exchange channel from local upstream actor 77 closed unexpectedly", "v2.7")
	assert.Equal(t, "77", a.Matches[0].Peer)
	a, _ = Diagnose("exchange channel from local upstream actor closed unexpectedly", "v2.7")
	assert.False(t, a.Recognised, "no actor id: not the format")
}

// Log prefixes, ANSI colours, the error chain's wrapping, lines broken by a terminal, a
// backtrace, upper case: the message is still found.
func TestTolerance(t *testing.T) {
	for name, text := range map[string]string{
		"ansi":      "\x1b[2m2026-08-30T10:12:03Z\x1b[0m \x1b[31mERROR\x1b[0m \x1b[1mactor\x1b[0m: error=\x1b[33mlocality provider upstream ended\x1b[0m unexpectedly during backfill",
		"wrapped":   "Actor 3 exited unexpectedly: Executor error: locality provider upstream\n  ended unexpectedly\r\n during backfill",
		"backtrace": "actor exit with error actor_id=3 error=Executor error: locality provider upstream ended unexpectedly during backfill\n\nBacktrace:\n   0: std::backtrace::Backtrace::create\n   1: risingwave_stream::executor::locality_provider",
		"json":      `{"timestamp":"2026-08-30T10:12:03Z","level":"ERROR","fields":{"message":"actor exit with error","actor_id":3,"error":"Actor 3 exited unexpectedly: Executor error: locality provider upstream ended unexpectedly during backfill"}}`,
		"upper":     "LOCALITY PROVIDER UPSTREAM ENDED UNEXPECTEDLY DURING BACKFILL",
	} {
		a, err := Diagnose(text, "v3.1")
		require.NoError(t, err)
		require.True(t, a.Recognised, name)
		assert.Equal(t, MsgUpstreamEnded, a.Matches[0].ID, name)
		assert.NotContains(t, a.Matches[0].Excerpt, "\x1b", name)
	}
	a, _ := Diagnose("panicked: assertion failed: matches!(\n    barrier.kind,\n    BarrierKind::Checkpoint | BarrierKind::Initial\n)", "v3.0")
	require.True(t, a.Recognised)
	assert.Equal(t, MsgNotCheckpoint, a.Matches[0].ID)
}

// A log excerpt with several messages: each once, in the order they appear.
func TestSeveralMessages(t *testing.T) {
	text := logLines[MsgExchangeUpstream] + "\n" + logLines[MsgActorExited] + "\n" + logLines[MsgExchangeUpstream]
	a, err := Diagnose(text, "v3.0")
	require.NoError(t, err)
	require.Len(t, a.Matches, 2)
	assert.Equal(t, MsgExchangeUpstream, a.Matches[0].ID)
	assert.Equal(t, MsgActorExited, a.Matches[1].ID)
}

func TestUnknownTextIsAnsweredHonestly(t *testing.T) {
	a, err := Diagnose("ERROR meta: connection refused", "v3.1")
	require.NoError(t, err)
	assert.False(t, a.Recognised)
	assert.Empty(t, a.Matches)
	text := a.Text()
	assert.Contains(t, text, "This text holds no message the diagnosis knows")
	for _, m := range Catalogue() {
		assert.Contains(t, text, m.Text)
	}
	assert.Len(t, a.Known, len(Catalogue()))
}

func TestCapAndEscape(t *testing.T) {
	long := strings.Repeat("x", Limit) + logLines[MsgUpstreamEnded]
	a, err := Diagnose(long, "v3.1")
	require.NoError(t, err)
	assert.True(t, a.Truncated)
	assert.False(t, a.Recognised, "a message after 64 KiB is not read")
	assert.Contains(t, a.Text(), "it was cut, and only its first 64 KiB were read")
	// a cut never splits a character
	s, cut := capText(strings.Repeat("é", Limit))
	assert.True(t, cut)
	assert.True(t, strings.HasSuffix(s, "é"))
	a, _ = Diagnose(strings.Replace(logLines[MsgUpstreamEnded], "Executor error: ", "Executor error: \x07\x00\u202e\xff ", 1), "v3.1")
	require.True(t, a.Recognised)
	ex := a.Matches[0].Excerpt
	assert.Contains(t, ex, `\x07\x00\u202e\xff`)
	for _, r := range ex {
		assert.False(t, r < 0x20 || r == 0x7f || r == 0x202e, "control character %U in the excerpt", r)
	}
	assert.Equal(t, `a\tb\nc\x1b[0m\u0085`, Escape("a\tb\nc\x1b[0m\u0085"))
}

func releaseRef(name string) string { r, _ := findRelease(name); return r.Ref }

// A no-break space or a zero-width space between words is a space (a message copied from a web
// page or a chat has them), and an answer with no match lists none as [] in JSON, not null.
func TestSpacesFromPagesAndNoMatchAsEmptyList(t *testing.T) {
	for _, sp := range []string{"\u00a0", "\u200b", "\u202f"} {
		a, err := Diagnose(strings.ReplaceAll("locality provider upstream ended unexpectedly during backfill", " ", sp), "v3.1")
		require.NoError(t, err)
		require.True(t, a.Recognised, "%q", sp)
		assert.Equal(t, MsgUpstreamEnded, a.Matches[0].ID)
	}
	a, _ := Diagnose("nothing known", "")
	b, err := json.Marshal(a)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"matches":[]`)
	assert.Contains(t, string(a.AppendJSON(nil)), `"matches":[]`)
}
