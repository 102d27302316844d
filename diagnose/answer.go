// Package diagnose answers an engineer holding a log line: which known message of the
// locality-provider backfill and its surroundings the text holds, which releases produce it,
// what it means there, what the source proves, what is left behind, where to look next, and
// which built-in scenario shows it at which step. Pure Go, no I/O.
package diagnose

import (
	"fmt"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/quote"
)

// Answer is the diagnosis of one text for one release.
type Answer struct {
	Release    string   `json:"release"`   // the release asked for ("" none)
	Bytes      int      `json:"bytes"`     // the size of the text given
	Truncated  bool     `json:"truncated"` // only the first Limit bytes were read
	Recognised bool     `json:"recognised"`
	Matches    []Match  `json:"matches"`  // in the order they appear in the text
	Known      []Known  `json:"known"`    // every message the diagnosis knows
	Releases   []string `json:"releases"` // the releases it can answer for, oldest first
	// ReleaseFrom says where the answer's release came from when the text names a version
	// (version.go), or "".
	ReleaseFrom string `json:"release_from"`
}

// Known names a message the diagnosis recognises and the releases that produce it.
type Known struct {
	ID       MessageID `json:"id"`
	Text     string    `json:"text"`
	Releases []string  `json:"releases"`
	Note     string    `json:"note"`
}

// Match is one known message found in the text, answered for one release.
type Match struct {
	ID         MessageID   `json:"id"`
	Message    string      `json:"message"` // the exact text (N: an actor id)
	Panic      bool        `json:"panic"`
	Raiser     string      `json:"raiser"`
	Note       string      `json:"note"`
	Excerpt    string      `json:"excerpt"` // the line it was found in, escaped
	Actor      string      `json:"actor"`   // the failed actor's id the text names, or ""
	Peer       string      `json:"peer"`    // the other actor the message names, or ""
	ProducedBy []string    `json:"produced_by"`
	Release    string      `json:"release"`  // the release this answer is for
	Assumed    bool        `json:"assumed"`  // no release was given: this is the newest that produces it
	Produces   bool        `json:"produces"` // that release can produce the message
	NotByLP    bool        `json:"not_by_lp"`
	Statement  string      `json:"statement"` // what the release says about the message, in a sentence
	Meaning    string      `json:"meaning"`
	Job        string      `json:"job"` // what the recovery does to the failed actor's job, this release
	Phases     []string    `json:"phases"`
	Proven     []Cite      `json:"proven"`
	LeftBehind string      `json:"left_behind"`
	LookNext   []string    `json:"look_next"`
	Open       *Link       `json:"open"`   // the built-in to open, or null
	Lesson     *LessonLink `json:"lesson"` // the lesson for this message, or null
}

// Link opens a built-in scenario at a step under a release.
type Link struct {
	Open
	Release string `json:"release"`
	Hash    string `json:"hash"` // the page's address: #scenario=NAME&step=N&release=R
}

// KnownMessages lists every message of the catalogue.
func KnownMessages() []Known {
	out := make([]Known, len(Catalogue()))
	for i, m := range Catalogue() {
		out[i] = Known{ID: m.ID, Text: m.Text, Releases: m.ProducedBy(), Note: m.Note}
	}
	return out
}

// Diagnose reads text (at most Limit bytes of it) and answers for release (one of
// ReleaseNames, or "" for none).
func Diagnose(text, release string) (*Answer, error) {
	if release != "" {
		if _, ok := findRelease(release); !ok {
			return nil, fmt.Errorf("unknown release %s; the releases are %s", quote.Q(release), strings.Join(ReleaseNames(), ", "))
		}
	}
	a := &Answer{Release: release, Bytes: len(text), Matches: []Match{}, Known: KnownMessages(), Releases: ReleaseNames()}
	text, a.Truncated = capText(text)
	clean := stripANSI(text)
	f := fold(clean)
	release, a.ReleaseFrom = releaseFrom(release, f, clean)
	a.Release = release
	actor := actorOf(f.text)
	for _, fd := range findAll(f.text) {
		m := answer(fd.msg, release)
		m.Excerpt = Escape(excerpt(clean, f.from[fd.at]))
		m.Actor, m.Peer = actor, fd.peer
		m.Lesson = lessonFor(m.ID)
		m.fill()
		a.Matches = append(a.Matches, m)
	}
	a.Recognised = len(a.Matches) > 0
	return a, nil
}

// answer answers one message for a release ("": the newest release that produces it).
func answer(msg *Message, release string) Match {
	m := Match{ID: msg.ID, Message: msg.Text, Panic: msg.Panic, Raiser: msg.Raiser, Note: msg.Note, ProducedBy: msg.ProducedBy(), Release: release}
	if release == "" {
		m.Assumed = true
		m.Release = m.ProducedBy[len(m.ProducedBy)-1]
	}
	if f := msg.Facts[m.Release]; f != nil {
		m.Produces, m.NotByLP = true, f.NotByLP
		switch {
		case f.NotByLP:
			m.Statement = m.Release + " produces the text, but not from the locality provider. " + f.Where
		case len(m.ProducedBy) == len(engine.Releases):
			m.Statement = m.Release + " produces it, as every release does. " + f.Where
		default:
			m.Statement = m.Release + " produces it. " + f.Where
		}
		if m.Assumed {
			m.Statement = fmt.Sprintf("No release given: this answer is for %s, the newest release that produces it (produced by %s). ", m.Release, strings.Join(m.ProducedBy, ", ")) + f.Where
		}
		m.Meaning, m.Phases, m.Proven, m.LeftBehind = f.Meaning, f.Phases, f.Proven, f.LeftBehind
		m.LookNext = append([]string{}, f.LookNext...)
		job, cite := jobAt(m.Release)
		m.Job, m.Proven = job, append(append([]Cite{}, f.Proven...), cite)
		if f.Open != nil {
			m.Open = &Link{Open: *f.Open, Release: m.Release}
		}
		return m
	}
	in := msg.Instead[m.Release]
	m.Statement = fmt.Sprintf("%s cannot produce this message (produced by %s only).", m.Release, strings.Join(m.ProducedBy, ", "))
	if in != nil {
		m.Meaning, m.Proven = in.Text, in.Proven
		if in.Open != nil {
			m.Open = &Link{Open: *in.Open, Release: m.Release}
		}
	}
	return m
}

// fill puts the actor ids the text named into the advice, and writes the link.
func (m *Match) fill() {
	for i, s := range m.LookNext {
		if m.Actor != "" {
			s = strings.ReplaceAll(s, "actor_id = A", "actor_id = "+m.Actor)
		}
		if m.Peer != "" {
			s = strings.ReplaceAll(s, "actor N", "actor "+m.Peer)
			s = strings.ReplaceAll(s, "actor_id = N", "actor_id = "+m.Peer)
		}
		m.LookNext[i] = s
	}
	if m.Open != nil {
		m.Open.Hash = fmt.Sprintf("#scenario=%s&step=%d&release=%s", m.Open.Scenario, m.Open.Step, m.Open.Release)
	}
}

// Text is the answer in plain words, as the command line prints it and the page shows it.
func (a *Answer) Text() string {
	var b strings.Builder
	if a.Truncated {
		fmt.Fprintf(&b, "The text is longer than %d KiB: it was cut, and only its first %d KiB were read.\n\n", Limit>>10, Limit>>10)
	}
	if !a.Recognised {
		b.WriteString("This text holds no message the diagnosis knows. It recognises these messages (and the releases that produce them):\n")
		for _, k := range a.Known {
			rel := strings.Join(k.Releases, ", ")
			if k.Note != "" {
				rel += ": " + k.Note
			}
			fmt.Fprintf(&b, "  - %s  (%s)\n", k.Text, rel)
		}
		b.WriteString("An error message it does not know may still come from RisingWave: look it up in the RisingWave source at your release.\n")
		return b.String()
	}
	if a.ReleaseFrom != "" {
		b.WriteString(a.ReleaseFrom + "\n\n")
	}
	for i, m := range a.Matches {
		if i > 0 {
			b.WriteString("\n")
		}
		m.write(&b)
	}
	return b.String()
}

// write says the answer first (what it means, what happens to the job, what is left behind, what to check, where to see
// it), then who raises it and the proofs.
func (m *Match) write(b *strings.Builder) {
	kind := "Error"
	if m.Panic {
		kind = "Panic"
	}
	fmt.Fprintf(b, "%s: %s\n", kind, m.Message)
	fmt.Fprintf(b, "  Found in: %s\n", m.Excerpt)
	fmt.Fprintf(b, "  Release %s: %s\n", m.Release, m.Statement)
	if m.Meaning != "" {
		title := "What it means"
		if !m.Produces {
			title = "What " + m.Release + " does instead"
		}
		fmt.Fprintf(b, "  %s: %s\n", title, m.Meaning)
	}
	if m.Job != "" {
		fmt.Fprintf(b, "  The job: %s\n", m.Job)
	}
	if m.LeftBehind != "" {
		fmt.Fprintf(b, "  Left behind: %s\n", m.LeftBehind)
	}
	if len(m.LookNext) > 0 {
		b.WriteString("  Where to look next, in order:\n")
		for i, s := range m.LookNext {
			fmt.Fprintf(b, "    %d. %s\n", i+1, s)
		}
	}
	if m.Open != nil {
		fmt.Fprintf(b, "  See it in the explainer: %s at step %d under %s: %s.\n    Open: %s\n", m.Open.Scenario, m.Open.Step, m.Open.Release, m.Open.Why, m.Open.Hash)
	} else {
		b.WriteString("  No built-in scenario shows it.\n")
	}
	if m.Lesson != nil {
		fmt.Fprintf(b, "  Lesson (%d minutes): %s.\n    Open: %s\n", m.Lesson.Minutes, m.Lesson.Title, m.Lesson.Hash)
	}
	by := strings.Join(m.ProducedBy, ", ")
	if m.Note != "" {
		by += " (" + m.Note + ")"
	}
	fmt.Fprintf(b, "  Raised by: %s. Produced by: %s.\n", m.Raiser, by)
	if len(m.Phases) > 0 {
		fmt.Fprintf(b, "  Phase: %s\n", strings.Join(m.Phases, "; "))
	}
	if len(m.Proven) > 0 {
		b.WriteString("  What the source proves:\n")
		for _, c := range m.Proven {
			fmt.Fprintf(b, "    - %s (%s:%d-%d at %s)\n", c.Text, c.File, c.Lines[0], c.Lines[1], shortRef(c.Ref))
		}
	}
}

func shortRef(ref string) string {
	if len(ref) == 40 {
		return ref[:11]
	}
	return ref
}
