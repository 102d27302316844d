// Package scenarios reads and writes scenario files (docs/scenario-format.md §1).
//
// Decisions where the format leaves a choice:
//   - Every error is an *Error with a 1-based line and column (columns count characters).
//     Errors inside a row string point at the offending token when the YAML scalar sits on one
//     line (plain, 'single' or "double" quoted, escapes accounted for); otherwise at the scalar.
//     YAML syntax errors carry the library's line and column 1. Top-level sections are checked
//     in the order title, summary, table, vnodes, chunk_size, fragment, actor, start, steps, and
//     the first error wins.
//   - Values in YAML positions (start rows, progress pos, watermark value): integers (decimal,
//     ParseDecimal, as everywhere), null, or strings; YAML booleans and floats are errors ("write 'true' in
//     quotes for a string"). In row strings: -?[0-9]+ is an integer, null is NULL, bare words are
//     [A-Za-z0-9_][A-Za-z0-9_.-]*, and true/false (any case) and NULL/Null are errors, so that a
//     row never means something other than it seems; quote them ('true') for strings.
//   - Untyped columns take their type from their first non-null value in the order the parser
//     reads (start rows, progress, then steps); the locality column of rule modulo/ranges must
//     hold integers. All-NULL columns are bigint.
//   - Invisible rows (in parentheses) are type- and width-checked but not placed: the hash
//     dispatcher sends other actors' rows as invisible ones, so their vnode is not checked.
//   - start.state_table rows must be on owned vnodes with distinct pks; start.progress needs
//     vnode and pos (finished defaults to false, rows to 0) and is sorted by vnode.
//   - Aliases are rejected; a file holds exactly one YAML document; `steps: []` is allowed.
//   - FormatStep keeps notes (a step with a note is written as a flow mapping) and
//     FormatScenario writes every column with its type, so both round-trip exactly.
package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
)

// Scenario is a parsed scenario file.
type Scenario struct {
	File   string
	Config *engine.Config
	Steps  []engine.Step // one per entry of `steps`, Note filled from `note:`
	Pos    []StepPos     // parallel to Steps
	OpenAt int           // the step the page opens the file at (`open_at`, open_at.go)

	// WrittenFor: the releases the texts not written per release are written for (`written_for:`,
	// the file's release first); TitleBy and SummaryBy: the title and summary per release, when
	// written so (note_release.go, by_release.go).
	WrittenFor         []string
	TitleBy, SummaryBy map[string]string
	// Borrowed: a release a text of the file does not name → the release whose text it reads
	// there (its registry entry's ProseOf).
	Borrowed map[string]string
}

// Parse reads a scenario file (YAML or JSON). Every error it returns is an *Error naming
// file:line:col. It checks everything that needs no execution: syntax, keys, widths, types,
// columns, vnode ownership of rows, increasing epochs, counts and limits.
func Parse(file string, text []byte) (sc *Scenario, err error) {
	defer catch(&err)
	p := newParser(file, text)
	if len(text) > limits.bytes {
		fail(file, Pos{1, 1}, "the scenario is %d bytes; the limit is %d bytes (1 MiB)", len(text), limits.bytes)
	}
	root := p.decode(text)
	if root == nil {
		fail(file, Pos{1, 1}, "empty scenario: expected a mapping with keys title, table and steps")
	}
	return p.scenario(root), nil
}

// ParseStep reads one step written as in a scenario's `steps` list, e.g. `chunk: ["+ 5 104"]`,
// `barrier: {epoch: 9, start_backfill: [7]}`, `snapshot: 1`, `end`, `recover`, `error: boom`,
// or `{end: null, note: text}`. Values are checked against cfg's column types and rows against
// its owned vnodes; epochs are not compared with anything. Errors are *Error with File "" and
// positions within text.
func ParseStep(cfg *engine.Config, text string) (st engine.Step, err error) {
	defer catch(&err)
	if cfg == nil {
		fail("", Pos{1, 1}, "no configuration to read the step against")
	}
	if len(text) > limits.bytes {
		fail("", Pos{1, 1}, "the step is %d bytes; the limit is %d bytes (1 MiB)", len(text), limits.bytes)
	}
	if err := cfg.Validate(); err != nil {
		fail("", Pos{1, 1}, "invalid configuration: %v", err)
	}
	p := newParser("", []byte(text))
	p.cfg = cfg
	p.cols = make([]colInfo, len(cfg.Columns))
	for i, c := range cfg.Columns {
		p.cols[i] = colInfo{declared: true, typ: c.Type}
	}
	p.setOwned()
	p.noEpochCheck = true
	root := p.decode([]byte(text))
	if root == nil {
		fail("", Pos{1, 1}, "empty step: expected one of %s", eventList())
	}
	st, _ = p.step(root, 0)
	return st, nil
}

// colInfo is what the parser knows about a column's type.
type colInfo struct {
	declared bool              // written as name:type
	typ      engine.ColumnType // the declared type, or the type inferred so far
	seen     bool              // an untyped column has seen a non-null value (typ is then inferred)
	first    Pos               // where that value was
	rule     string            // non-empty when the vnode rule forces an integer column
}

type parser struct {
	file  string
	lines []string
	cfg   *engine.Config
	cols  []colInfo
	owned []bool
	rows  int

	cursor lineCursor // where posIn last looked (see lineAt)

	borrowed map[string]string // a release → the release whose texts it borrows (note_release.go)

	noEpochCheck bool
	haveEpoch    bool
	lastEpoch    int64
	lastEpochAt  Pos

	wl *WorkloadScenario // ParseWorkload: the workload being read (nil: a scenario with steps)

	kind string // what the file is, in errors about the whole file ("scenario", or a Reader's)
}

func newParser(file string, text []byte) *parser {
	return &parser{file: file, lines: splitLines(text), kind: "scenario"}
}

// splitLines splits text into lines the way YAML counts them (\r\n, \r and \n are breaks).
func splitLines(text []byte) []string {
	s := strings.ReplaceAll(string(text), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}

func posOf(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }

func (p *parser) failAt(n *yaml.Node, format string, args ...any) {
	fail(p.file, posOf(n), format, args...)
}

// decode parses text into the root node of its single document (nil when there is none) and
// rejects aliases, which the format does not use.
func (p *parser) decode(text []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	dec.UniqueKeys(true) // a repeated key stops the parse where it is read (checkDistinctKeys)
	var doc yaml.Node
	if err := decodeSafe(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		p.failDuplicate(err)
		panic(failure{yamlError(p.file, text, err)})
	}
	var extra yaml.Node
	if err := decodeSafe(dec, &extra); err == nil {
		fail(p.file, Pos{extra.Line, extra.Column}, "a %s is one YAML document; found a second one", p.kind)
	} else if !errors.Is(err, io.EOF) {
		p.failDuplicate(err)
		panic(failure{yamlError(p.file, text, err)})
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	p.checkNoAliases(root)
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil
	}
	return root
}

// decodeSafe guards against panics inside the YAML library, reporting them as errors.
func decodeSafe(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return dec.Decode(n)
}

// acceptedTags are the explicit tags a scenario may carry: the standard ones that say what the
// value already is (or, !!str, that it is a string). Others (!!binary, !!timestamp, !!set,
// custom !tags) would be decoded silently into something else, so they are refused.
var acceptedTags = []string{"!!str", "!!int", "!!bool", "!!null", "!!seq", "!!map"}

func (p *parser) checkNoAliases(n *yaml.Node) {
	if n.Kind == yaml.AliasNode {
		p.failAt(n, "aliases (*%s) are not supported in %s files; write the value out", n.Value, p.kind)
	}
	if n.Style&yaml.TaggedStyle != 0 && !slices.Contains(acceptedTags, n.Tag) {
		p.failAt(n, "the tag %s is not supported in %s files; write the value without it (the tags accepted are %s)", n.Tag, p.kind, strings.Join(acceptedTags, ", "))
	}
	if n.Kind == yaml.MappingNode {
		p.checkDistinctKeys(n)
	}
	for _, c := range n.Content {
		p.checkNoAliases(c)
	}
}

// failDuplicate reports a repeated key the YAML decoder stopped at (Decoder.UniqueKeys, a change
// of the library's copy in third_party/yaml): found while the text is parsed, at the first
// repeat, so that a text of repeated keys costs what reading its first lines does, whatever
// its length (issue 34 HIGH 1: a 51-character #run= link of repeated keys froze the page).
func (p *parser) failDuplicate(err error) {
	var dk *yaml.DuplicateKeyError
	if errors.As(err, &dk) {
		p.failAt(dk.Key, "duplicate key %q (first at line %d, column %d)", dk.Key.Value, dk.First.Line, dk.First.Column)
	}
}

// checkDistinctKeys refuses a mapping whose scalar keys repeat, at the first repeat: one map a
// mapping, so a text of n keys costs n (the YAML library's own check, when it decodes into a
// map, compares every pair). The decoder already stops at a repeat (failDuplicate); this stays
// as the check of the tree the parser reads.
func (p *parser) checkDistinctKeys(n *yaml.Node) {
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			p.failAt(k, "duplicate key %q (first at line %d, column %d)", k.Value, prev.Line, prev.Column)
		}
		seen[k.Value] = k
	}
}

// ---- generic node helpers ----

type field struct{ key, val *yaml.Node }

type fields struct {
	n *yaml.Node
	m map[string]field
}

func (f fields) get(k string) (field, bool) { v, ok := f.m[k]; return v, ok }

// keyList is the format's own keys in an error: not text from the file, so never clipped.
type keyList []string

func (k keyList) String() string { return strings.Join(k, ", ") }

// mapping checks that n is a mapping whose keys are all allowed and distinct.
func (p *parser) mapping(n *yaml.Node, where string, allowed ...string) fields {
	if n.Kind != yaml.MappingNode {
		p.failAt(n, "%s: expected a mapping with keys %s, found %s", where, keyList(allowed), describe(n))
	}
	f := fields{n: n, m: map[string]field{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.failAt(k, "%s: a key must be a plain word; allowed keys: %s", where, keyList(allowed))
		}
		if !slices.Contains(allowed, k.Value) {
			p.failAt(k, "unknown key %q in %s; allowed keys: %s", k.Value, where, keyList(allowed))
		}
		if prev, dup := f.m[k.Value]; dup {
			p.failAt(k, "duplicate key %q in %s (first at line %d)", k.Value, where, prev.key.Line)
		}
		f.m[k.Value] = field{k, v}
	}
	return f
}

func (p *parser) require(f fields, key, where string) field {
	v, ok := f.m[key]
	if !ok {
		p.failAt(f.n, "%s: missing key %q", where, key)
	}
	return v
}

func (p *parser) sequence(n *yaml.Node, what string) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		p.failAt(n, "%s: expected a list, found %s", what, describe(n))
	}
	return n.Content
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing (null)"
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int", "!!float":
			return "the number " + n.Value
		}
		return strconv.Quote(n.Value)
	}
	return "an unexpected node"
}

// plainInt reports whether s is an optional sign and decimal digits, nothing else (what
// ^[-+]?[0-9]+$ matches): a YAML float that is in fact a plain integer.
func plainInt(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// integer reads a YAML integer scalar.
func (p *parser) integer(n *yaml.Node, what string) int64 {
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float" && plainInt(n.Value)) {
		i, err := ParseDecimal(n.Value)
		if err == nil {
			return i
		}
		failMsg(p.file, posOf(n), what+": "+err.Error())
	}
	p.failAt(n, "%s: expected an integer, found %s", what, describe(n))
	return 0
}

// intIn reads an integer within lo..hi.
func (p *parser) intIn(n *yaml.Node, what string, lo, hi int64) int64 {
	i := p.integer(n, what)
	if i < lo || i > hi {
		p.failAt(n, "%s must be in %d..%d, found %d", what, lo, hi, i)
	}
	return i
}

func (p *parser) boolean(n *yaml.Node, what string) bool {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		if b, err := strconv.ParseBool(n.Value); err == nil {
			return b
		}
	}
	p.failAt(n, "%s: expected true or false, found %s", what, describe(n))
	return false
}

// text reads free text (title, summary, note, error message): any scalar; null is "".
func (p *parser) text(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode {
		p.failAt(n, "%s: expected text, found %s", what, describe(n))
	}
	if n.Tag == "!!null" {
		return ""
	}
	limit := MaxTextChars
	if strings.HasSuffix(what, "title") {
		limit = MaxTitleChars
	}
	if c := utf8.RuneCountInString(n.Value); c > limit {
		p.failAt(n, "%s is %d characters; the limit is %d", what, c, limit)
	}
	return n.Value
}

// ---- the scenario ----

var topKeys = []string{"title", "summary", "table", "vnodes", "chunk_size", "fragment", "actor", "bug", "release", "create", "written_for", "start", "steps", "workload", "open_at"}

func (p *parser) scenario(root *yaml.Node) *Scenario {
	top := p.mapping(root, "scenario", topKeys...)
	cfg := &engine.Config{VnodeCount: 256, ChunkSize: 256, Fragment: 1, Actor: 1}
	p.cfg = cfg

	t := p.require(top, "title", "scenario")
	if t.val.Kind != yaml.MappingNode { // per release, read once the release is known
		cfg.Title = p.text(t.val, "title")
		if strings.TrimSpace(cfg.Title) == "" {
			p.failAt(t.val, "title must not be empty")
		}
	}
	p.table(p.require(top, "table", "scenario"))
	vn, haveVnodes := top.get("vnodes")
	p.vnodes(vn, haveVnodes)
	if f, ok := top.get("chunk_size"); ok {
		cfg.ChunkSize = int(p.intIn(f.val, "chunk_size", 1, MaxChunkSize))
	}
	if f, ok := top.get("fragment"); ok {
		cfg.Fragment = p.intIn(f.val, "fragment", 0, MaxID)
	}
	if f, ok := top.get("actor"); ok {
		cfg.Actor = p.intIn(f.val, "actor", 0, MaxID)
	}
	if f, ok := top.get("bug"); ok {
		name := p.text(f.val, "bug")
		b, err := engine.ParseBug(name)
		if err != nil {
			failMsg(p.file, posOf(f.val), strings.Replace(err.Error(), name, clip(name), 1))
		}
		cfg.Bug = b
	}
	if f, ok := top.get("release"); ok {
		cfg.Release = p.release(f.val) // (release.go)
	}
	if f, ok := top.get("create"); ok {
		cfg.Create = p.create(f.val) // (release.go)
	}
	written := []string{cfg.RunRelease().Name}
	if f, ok := top.get("written_for"); ok {
		written = p.writtenFor(f.val) // (note_release.go)
	}
	var titleBy, summaryBy map[string]string
	cfg.Title, titleBy = p.byRelease(t.val, "title")
	for _, r := range engine.Releases {
		if v, ok := titleBy[r.Name]; ok && strings.TrimSpace(v) == "" {
			p.failAt(t.val, "title: %s's title must not be empty", r.Name)
		}
	}
	if s, ok := top.get("summary"); ok {
		cfg.Summary, summaryBy = p.byRelease(s.val, "summary")
	}
	if f, ok := top.get("start"); ok {
		p.start(f.val)
	}
	stepsField := p.stepsOrWorkload(top) // `workload:` instead of `steps:` (workload.go)
	items := p.sequence(stepsField.val, "steps")
	sc := &Scenario{File: p.file, Config: cfg, WrittenFor: written, TitleBy: titleBy, SummaryBy: summaryBy}
	if len(items) > limits.steps {
		p.failAt(items[limits.steps], "more than %d steps; the limit is %d", limits.steps, limits.steps)
	}
	sc.Steps = make([]engine.Step, len(items))
	sc.Pos = make([]StepPos, len(items))
	for i, item := range items {
		st, rows := p.step(item, i+1)
		sc.Steps[i] = st
		sc.Pos[i] = StepPos{Pos: posOf(item), Rows: rows}
	}
	sc.OpenAt = p.openAt(top, len(items))
	sc.WrittenFor, sc.Borrowed = p.borrowWritten(sc.WrittenFor), p.borrowed // (note_release.go)
	// untyped columns take their inferred type; all-NULL ones are bigint
	for i := range p.cols {
		cfg.Columns[i].Type = p.cols[i].typ
	}
	if err := cfg.Validate(); err != nil {
		at := root
		if haveVnodes {
			at = vn.val
		}
		p.failAt(at, "%v", err)
	}
	return sc
}

// columnName reports whether s is a column name: [a-z_][a-z0-9_]*, nothing else.
func columnName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func (p *parser) table(t field) {
	f := p.mapping(t.val, "table", "columns", "locality", "stream_key")
	cols := p.sequence(p.require(f, "columns", "table").val, "table.columns")
	if len(cols) == 0 {
		p.failAt(f.m["columns"].val, "table.columns needs at least one column")
	}
	names := map[string]int{}
	for i, c := range cols {
		if c.Kind != yaml.ScalarNode || c.Tag != "!!str" {
			p.failAt(c, "table.columns: expected a column name like a or a:int, found %s", describe(c))
		}
		name, typ, typed := strings.Cut(c.Value, ":")
		name, typ = strings.TrimSpace(name), strings.TrimSpace(typ)
		if !columnName(name) {
			p.failAt(c, "bad column name %q; names match [a-z_][a-z0-9_]*", name)
		}
		if _, dup := names[name]; dup {
			p.failAt(c, "duplicate column %q", name)
		}
		names[name] = i
		info := colInfo{typ: engine.TypeBigint}
		if typed {
			info.declared = true
			switch typ {
			case "int":
				info.typ = engine.TypeInt
			case "bigint":
				info.typ = engine.TypeBigint
			case "varchar":
				info.typ = engine.TypeVarchar
			default:
				p.failAt(c, "unknown type %q for column %s; expected int, bigint or varchar", typ, name)
			}
		}
		p.cfg.Columns = append(p.cfg.Columns, engine.Column{Name: name, Type: info.typ})
		p.cols = append(p.cols, info)
	}
	p.cfg.Locality = p.columnList(f, "locality", names)
	p.cfg.StreamKey = p.columnList(f, "stream_key", names)
}

func (p *parser) columnList(f fields, key string, names map[string]int) []int {
	fl := p.require(f, key, "table")
	items := p.sequence(fl.val, "table."+key)
	if len(items) == 0 {
		p.failAt(fl.val, "table.%s needs at least one column", key)
	}
	var out []int
	for _, it := range items {
		if it.Kind != yaml.ScalarNode {
			p.failAt(it, "table.%s: expected a column name, found %s", key, describe(it))
		}
		i, ok := names[it.Value]
		if !ok {
			p.failAt(it, "unknown column %q in %s; columns are %s", it.Value, key, p.columnNames())
		}
		if slices.Contains(out, i) {
			p.failAt(it, "column %s appears twice in %s", it.Value, key)
		}
		out = append(out, i)
	}
	return out
}

func (p *parser) columnNames() string {
	names := make([]string, len(p.cfg.Columns))
	for i, c := range p.cfg.Columns {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func (p *parser) vnodes(vn field, have bool) {
	cfg := p.cfg
	var f fields
	if have {
		f = p.mapping(vn.val, "vnodes", "count", "owned", "rule", "bounds")
	} else {
		f = fields{m: map[string]field{}}
	}
	if c, ok := f.get("count"); ok {
		cfg.VnodeCount = int(p.intIn(c.val, "vnodes.count", 1, MaxVnodes))
	}
	var ruleNode *yaml.Node
	if r, ok := f.get("rule"); ok {
		ruleNode = r.val
		if r.val.Kind != yaml.ScalarNode {
			p.failAt(r.val, "vnodes.rule: expected crc32, modulo or ranges, found %s", describe(r.val))
		}
		switch r.val.Value {
		case "crc32":
			cfg.Rule = engine.RuleCRC32
		case "modulo":
			cfg.Rule = engine.RuleModulo
		case "ranges":
			cfg.Rule = engine.RuleRanges
		default:
			p.failAt(r.val, "vnodes.rule: unknown rule %q; expected crc32, modulo or ranges", r.val.Value)
		}
	}
	if cfg.Rule != engine.RuleCRC32 {
		if len(cfg.Locality) != 1 {
			p.failAt(ruleNode, "rule %s needs exactly one locality column, found %d", cfg.Rule, len(cfg.Locality))
		}
		c := cfg.Locality[0]
		if p.cols[c].typ == engine.TypeVarchar {
			p.failAt(ruleNode, "rule %s needs an integer locality column; %s is varchar", cfg.Rule, cfg.Columns[c].Name)
		}
		p.cols[c].rule = cfg.Rule.String()
	}
	b, haveBounds := f.get("bounds")
	switch {
	case haveBounds && cfg.Rule != engine.RuleRanges:
		p.failAt(b.key, "vnodes.bounds is only for rule ranges (the rule is %s)", cfg.Rule)
	case haveBounds:
		items := p.sequence(b.val, "vnodes.bounds")
		for i, it := range items {
			v := p.integer(it, "vnodes.bounds")
			if i > 0 && v <= cfg.Bounds[i-1] {
				p.failAt(it, "vnodes.bounds must increase: %d follows %d", v, cfg.Bounds[i-1])
			}
			cfg.Bounds = append(cfg.Bounds, v)
		}
		if len(cfg.Bounds)+1 != cfg.VnodeCount {
			p.failAt(b.val, "rule ranges with count %d needs %d bounds (count == len(bounds)+1), found %d", cfg.VnodeCount, cfg.VnodeCount-1, len(cfg.Bounds))
		}
	case cfg.Rule == engine.RuleRanges && cfg.VnodeCount != 1:
		p.failAt(ruleNode, "rule ranges needs bounds: %d increasing integers for count %d", cfg.VnodeCount-1, cfg.VnodeCount)
	}
	if o, ok := f.get("owned"); ok {
		items := p.sequence(o.val, "vnodes.owned")
		if len(items) == 0 {
			p.failAt(o.val, "vnodes.owned must name at least one vnode")
		}
		seen := map[int64]int{}
		for _, it := range items {
			v := p.integer(it, "vnodes.owned")
			if v < 0 || v >= int64(cfg.VnodeCount) {
				p.failAt(it, "owned vnode %d is outside 0..%d (count %d)", v, cfg.VnodeCount-1, cfg.VnodeCount)
			}
			if line, dup := seen[v]; dup {
				p.failAt(it, "owned vnode %d is listed twice (first at line %d)", v, line)
			}
			seen[v] = it.Line
			cfg.Owned = append(cfg.Owned, int(v))
		}
		slices.Sort(cfg.Owned)
	} else {
		cfg.Owned = make([]int, cfg.VnodeCount)
		for i := range cfg.Owned {
			cfg.Owned[i] = i
		}
	}
	p.setOwned()
}

func (p *parser) setOwned() {
	p.owned = make([]bool, max(p.cfg.VnodeCount, 0))
	for _, v := range p.cfg.Owned {
		if v >= 0 && v < len(p.owned) {
			p.owned[v] = true
		}
	}
}

func (p *parser) ownedString() string {
	if len(p.cfg.Owned) == p.cfg.VnodeCount {
		return "all"
	}
	if len(p.cfg.Owned) > 16 {
		return fmt.Sprintf("%d of %d vnodes", len(p.cfg.Owned), p.cfg.VnodeCount)
	}
	s := make([]string, len(p.cfg.Owned))
	for i, v := range p.cfg.Owned {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}

// checkOwned reports a row whose vnode the actor does not own.
func (p *parser) checkOwned(row engine.Row, at Pos, what string) {
	v, err := p.cfg.Vnode(row)
	if err != nil {
		fail(p.file, at, "%s %s: %v", what, row, err)
	}
	if v < 0 || v >= len(p.owned) || !p.owned[v] {
		fail(p.file, at, "%s %s is on vnode %d, which actor %d does not own (owned: %s)", what, row, v, p.cfg.Actor, p.ownedString())
	}
}

func (p *parser) countRow(at Pos) {
	p.rows++
	if p.rows > limits.rows {
		fail(p.file, at, "more than %d rows in all (chunk rows and start rows); the limit is %d", limits.rows, limits.rows)
	}
}

func (p *parser) start(n *yaml.Node) {
	f := p.mapping(n, "start", "state_table", "progress")
	cfg := p.cfg
	if st, ok := f.get("state_table"); ok {
		seen := map[string]int{}
		pk := cfg.PK()
		for _, it := range p.sequence(st.val, "start.state_table") {
			p.countRow(posOf(it))
			vals := p.sequence(it, "start.state_table row")
			if len(vals) != len(cfg.Columns) {
				p.failAt(it, "start.state_table row has %s; the table has %d columns (%s)", plural(len(vals), "value"), len(cfg.Columns), p.columnNames())
			}
			row := make(engine.Row, len(vals))
			for i, v := range vals {
				row[i] = p.yamlValue(v, i)
			}
			p.checkOwned(row, posOf(it), "start row")
			key := row.Project(pk).String()
			if line, dup := seen[key]; dup {
				p.failAt(it, "start.state_table has pk %s twice (first at line %d)", key, line)
			}
			seen[key] = it.Line
			cfg.StartState = append(cfg.StartState, row)
		}
	}
	if pr, ok := f.get("progress"); ok {
		seen := map[int]int{}
		pk := cfg.PK()
		for _, it := range p.sequence(pr.val, "start.progress") {
			e := p.mapping(it, "start.progress entry", "vnode", "pos", "finished", "rows")
			vf := p.require(e, "vnode", "start.progress entry")
			v := int(p.intIn(vf.val, "start.progress vnode", 0, int64(cfg.VnodeCount-1)))
			if !p.owned[v] {
				p.failAt(vf.val, "start.progress names vnode %d, which actor %d does not own (owned: %s)", v, cfg.Actor, p.ownedString())
			}
			if line, dup := seen[v]; dup {
				p.failAt(vf.val, "start.progress names vnode %d twice (first at line %d)", v, line)
			}
			seen[v] = vf.val.Line
			row := engine.ProgressRow{Vnode: v}
			posf := p.require(e, "pos", "start.progress entry")
			vals := p.sequence(posf.val, "start.progress pos")
			if len(vals) != len(pk) {
				p.failAt(posf.val, "start.progress pos has %s; the pk (locality ++ stream_key) has %d: %s", plural(len(vals), "value"), len(pk), p.pkNames())
			}
			row.Pos = make(engine.Row, len(vals))
			for i, val := range vals {
				row.Pos[i] = p.yamlValue(val, pk[i])
			}
			if fin, ok := e.get("finished"); ok {
				row.Finished = p.boolean(fin.val, "start.progress finished")
			}
			if r, ok := e.get("rows"); ok {
				row.Rows = p.intIn(r.val, "start.progress rows", 0, 1<<62)
			}
			cfg.StartProgress = append(cfg.StartProgress, row)
		}
		slices.SortFunc(cfg.StartProgress, func(a, b engine.ProgressRow) int { return a.Vnode - b.Vnode })
	}
}

func (p *parser) pkNames() string {
	var s []string
	for _, c := range p.cfg.PK() {
		s = append(s, p.cfg.Columns[c].Name)
	}
	return strings.Join(s, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
