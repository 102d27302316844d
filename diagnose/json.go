package diagnose

import "github.com/backfill-explainer/explainer/internal/jsonw"

// AppendJSON writes the answer as compact JSON, byte for byte as encoding/json's Marshal
// writes it (the wasm leaves encoding/json out).
func (a *Answer) AppendJSON(b []byte) []byte {
	b = jsonw.KeyStringHTML(b, `{"release":`, a.Release)
	b = jsonw.KeyInt(b, `,"bytes":`, int64(a.Bytes))
	b = jsonw.KeyBool(b, `,"truncated":`, a.Truncated)
	b = jsonw.KeyBool(b, `,"recognised":`, a.Recognised)
	b = jsonw.List(jsonw.Key(b, `,"matches":`), a.Matches, (*Match).AppendJSON)
	b = jsonw.List(jsonw.Key(b, `,"known":`), a.Known, (*Known).AppendJSON)
	b = stringsHTML(jsonw.Key(b, `,"releases":`), a.Releases)
	b = jsonw.KeyStringHTML(b, `,"release_from":`, a.ReleaseFrom)
	return append(b, '}')
}

// AppendJSON writes a known message.
func (k *Known) AppendJSON(b []byte) []byte {
	b = jsonw.KeyStringHTML(b, `{"id":`, string(k.ID))
	b = jsonw.KeyStringHTML(b, `,"text":`, k.Text)
	b = stringsHTML(jsonw.Key(b, `,"releases":`), k.Releases)
	b = jsonw.KeyStringHTML(b, `,"note":`, k.Note)
	return append(b, '}')
}

// AppendJSON writes a match.
func (m *Match) AppendJSON(b []byte) []byte {
	b = jsonw.KeyStringHTML(b, `{"id":`, string(m.ID))
	b = jsonw.KeyStringHTML(b, `,"message":`, m.Message)
	b = jsonw.KeyBool(b, `,"panic":`, m.Panic)
	b = jsonw.KeyStringHTML(b, `,"raiser":`, m.Raiser)
	b = jsonw.KeyStringHTML(b, `,"note":`, m.Note)
	b = jsonw.KeyStringHTML(b, `,"excerpt":`, m.Excerpt)
	b = jsonw.KeyStringHTML(b, `,"actor":`, m.Actor)
	b = jsonw.KeyStringHTML(b, `,"peer":`, m.Peer)
	b = stringsHTML(jsonw.Key(b, `,"produced_by":`), m.ProducedBy)
	b = jsonw.KeyStringHTML(b, `,"release":`, m.Release)
	b = jsonw.KeyBool(b, `,"assumed":`, m.Assumed)
	b = jsonw.KeyBool(b, `,"produces":`, m.Produces)
	b = jsonw.KeyBool(b, `,"not_by_lp":`, m.NotByLP)
	b = jsonw.KeyStringHTML(b, `,"statement":`, m.Statement)
	b = jsonw.KeyStringHTML(b, `,"meaning":`, m.Meaning)
	b = jsonw.KeyStringHTML(b, `,"job":`, m.Job)
	b = stringsHTML(jsonw.Key(b, `,"phases":`), m.Phases)
	b = jsonw.List(jsonw.Key(b, `,"proven":`), m.Proven, (*Cite).AppendJSON)
	b = jsonw.KeyStringHTML(b, `,"left_behind":`, m.LeftBehind)
	b = stringsHTML(jsonw.Key(b, `,"look_next":`), m.LookNext)
	b = jsonw.Key(b, `,"open":`)
	if m.Open == nil {
		b = append(b, "null"...)
	} else {
		b = m.Open.AppendJSON(b)
	}
	b = jsonw.Key(b, `,"lesson":`)
	if m.Lesson == nil {
		b = append(b, "null"...)
	} else {
		b = jsonw.KeyStringHTML(b, `{"name":`, m.Lesson.Name)
		b = jsonw.KeyStringHTML(b, `,"title":`, m.Lesson.Title)
		b = jsonw.KeyInt(b, `,"minutes":`, int64(m.Lesson.Minutes))
		b = jsonw.KeyStringHTML(b, `,"hash":`, m.Lesson.Hash)
		b = append(b, '}')
	}
	return append(b, '}')
}

// AppendJSON writes a link (its Open's fields first, as encoding/json writes an embedded struct).
func (l *Link) AppendJSON(b []byte) []byte {
	b = jsonw.KeyStringHTML(b, `{"scenario":`, l.Scenario)
	b = jsonw.KeyInt(b, `,"step":`, int64(l.Step))
	b = jsonw.KeyStringHTML(b, `,"why":`, l.Why)
	b = jsonw.KeyStringHTML(b, `,"release":`, l.Release)
	b = jsonw.KeyStringHTML(b, `,"hash":`, l.Hash)
	return append(b, '}')
}

// AppendJSON writes a citation.
func (c *Cite) AppendJSON(b []byte) []byte {
	b = jsonw.KeyStringHTML(b, `{"text":`, c.Text)
	b = jsonw.KeyStringHTML(b, `,"file":`, c.File)
	b = jsonw.Lines(jsonw.Key(b, `,"lines":`), c.Lines)
	b = jsonw.KeyStringHTML(b, `,"ref":`, c.Ref)
	b = jsonw.KeyStringHTML(b, `,"url":`, c.URL)
	return append(b, '}')
}

// stringsHTML appends a []string as encoding/json's Marshal does (nil: null; HTML escaped).
func stringsHTML(b []byte, xs []string) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.StringHTML(b, s)
	}
	return append(b, ']')
}
