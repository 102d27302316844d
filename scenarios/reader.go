package scenarios

import (
	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
)

// Reader reads a YAML file the way the scenario parser does, for a format built on scenario
// files (lessons: docs/lesson-format.md): the same syntax errors placed at their line and
// column, the same checks of keys, texts and integers, and scenarios written inline. A method
// stops at the first problem; Read returns it as an *Error naming file:line:column.
type Reader struct {
	p    *parser
	text []byte
}

// NewReader reads text (file names it in errors); kind names the file in errors about the whole
// file ("a lesson is one YAML document").
func NewReader(file, kind string, text []byte) *Reader {
	p := newParser(file, text)
	p.kind = kind
	return &Reader{p: p, text: text}
}

// Read decodes the single document and hands its root to read (nil when the text holds none).
// The first problem found, by the decoding or by read through the Reader's methods, is returned.
func (r *Reader) Read(read func(root *yaml.Node)) (err error) {
	defer catch(&err)
	read(r.p.decode(r.text))
	return nil
}

// Fail stops reading with an error at n's position.
func (r *Reader) Fail(n *yaml.Node, format string, args ...any) { r.p.failAt(n, format, args...) }

// FailMsg stops reading with a message made already (nothing in it from the file is clipped).
func (r *Reader) FailMsg(n *yaml.Node, msg string) { failMsg(r.p.file, posOf(n), msg) }

// FailAt stops reading with an error at pos.
func (r *Reader) FailAt(pos Pos, format string, args ...any) { fail(r.p.file, pos, format, args...) }

// Stop stops reading with err: an *Error as it is (Open's, placed already), another at 1:1.
func (r *Reader) Stop(err error) {
	if e, ok := err.(*Error); ok {
		panic(failure{e})
	}
	failMsg(r.p.file, Pos{1, 1}, err.Error())
}

// Fields are a mapping's entries by key.
type Fields struct{ f fields }

// Get returns the key's node and its value's.
func (f Fields) Get(key string) (k, v *yaml.Node, ok bool) {
	e, ok := f.f.get(key)
	return e.key, e.val, ok
}

// Mapping checks that n is a mapping whose keys are all allowed and distinct.
func (r *Reader) Mapping(n *yaml.Node, where string, allowed ...string) Fields {
	return Fields{r.p.mapping(n, where, allowed...)}
}

// Require returns the value of a key the mapping must have.
func (r *Reader) Require(f Fields, key, where string) *yaml.Node {
	return r.p.require(f.f, key, where).val
}

// Sequence checks that n is a list and returns its items.
func (r *Reader) Sequence(n *yaml.Node, what string) []*yaml.Node { return r.p.sequence(n, what) }

// Text reads free text: any scalar; null is "".
func (r *Reader) Text(n *yaml.Node, what string) string { return r.p.text(n, what) }

// IntIn reads an integer within lo..hi.
func (r *Reader) IntIn(n *yaml.Node, what string, lo, hi int64) int64 {
	return r.p.intIn(n, what, lo, hi)
}

// Describe names what a node holds, as errors do ("a list", "the number 3", `"x"`).
func Describe(n *yaml.Node) string { return describe(n) }

// Scenario reads a scenario written inline as the mapping n: the scenario format, its errors
// placed in the reader's file. It is checked as Parse checks a file; a workload is refused.
func (r *Reader) Scenario(n *yaml.Node) *Scenario {
	p := newParser(r.p.file, nil)
	p.lines = r.p.lines
	return p.scenario(n)
}

// ParseRow reads one row string of a chunk (`+ 3 102`, `(U- 2 'a b')`) against cfg's columns,
// written as the YAML scalar n of the reader's file; an error is placed at the offending token.
func (r *Reader) ParseRow(cfg *engine.Config, n *yaml.Node) engine.RowOp {
	p := newParser(r.p.file, nil)
	p.lines = r.p.lines
	p.cfg = cfg
	p.cols = make([]colInfo, len(cfg.Columns))
	for i, c := range cfg.Columns {
		p.cols[i] = colInfo{declared: true, typ: c.Type}
	}
	p.setOwned()
	p.noEpochCheck = true
	return p.row(n)
}
