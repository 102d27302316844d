package scenarios

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
)

// yamlValue reads a value written as a YAML scalar (start rows, progress pos, watermark value)
// for column col: an integer, null, or a string. Booleans and floats are errors.
func (p *parser) yamlValue(n *yaml.Node, col int) engine.Value {
	if n.Kind != yaml.ScalarNode {
		p.failAt(n, "column %s: expected a value (an integer, null or a string), found %s", p.cfg.Columns[col].Name, describe(n))
	}
	var v engine.Value
	switch {
	case n.Tag == "!!null":
		v = engine.Null()
	case n.Tag == "!!bool":
		p.failAt(n, "column %s: the YAML boolean %s is not a value; write '%s' in quotes for a string", p.cfg.Columns[col].Name, n.Value, n.Value)
	case n.Tag == "!!int" || n.Tag == "!!float" && plainInt(n.Value):
		i, err := ParseDecimal(n.Value)
		if err != nil {
			failMsg(p.file, posOf(n), err.Error())
		}
		v = engine.Int(i)
	case n.Tag == "!!float":
		p.failAt(n, "column %s: %s is not an integer; values are integers, null or strings (write '%s' in quotes for a string)", p.cfg.Columns[col].Name, n.Value, n.Value)
	case n.Tag == "!!str":
		v = engine.Str(n.Value)
		if msg := valueTooLong(v); msg != "" {
			failMsg(p.file, posOf(n), msg)
		}
	default:
		p.failAt(n, "column %s: unexpected tag %s", p.cfg.Columns[col].Name, n.Tag)
	}
	if msg := p.checkType(col, v, n.Value, posOf(n)); msg != "" {
		failMsg(p.file, posOf(n), msg)
	}
	return v
}

// checkType checks v against column col's type and records what an untyped column holds.
// It returns an error message, or "" when v fits.
func (p *parser) checkType(col int, v engine.Value, written string, at Pos) string {
	written = clip(written)
	c := &p.cols[col]
	name := p.cfg.Columns[col].Name
	switch v.Kind {
	case engine.KindNull:
		return ""
	case engine.KindInt:
		switch {
		case c.typ == engine.TypeVarchar && c.declared:
			return fmt.Sprintf("column %s is varchar; %s is an integer (write '%s' in quotes for a string)", name, written, written)
		case c.typ == engine.TypeVarchar:
			return fmt.Sprintf("column %s holds strings (first at %d:%d); %s is an integer (write '%s' in quotes for a string)", name, c.first.Line, c.first.Col, written, written)
		case c.typ == engine.TypeInt && (v.I < math.MinInt32 || v.I > math.MaxInt32):
			return fmt.Sprintf("integer %s overflows int column %s (-2147483648..2147483647)", written, name)
		}
		if !c.declared && !c.seen {
			c.seen, c.first = true, at
		}
		return ""
	}
	switch {
	case c.declared && c.typ != engine.TypeVarchar:
		return fmt.Sprintf("column %s is %s; %s is a string", name, c.typ, quoteForMsg(v.S))
	case c.rule != "":
		return fmt.Sprintf("column %s must hold integers (rule %s); %s is a string", name, c.rule, quoteForMsg(v.S))
	case !c.declared && c.seen && c.typ != engine.TypeVarchar:
		return fmt.Sprintf("column %s holds integers (first at %d:%d); %s is a string", name, c.first.Line, c.first.Col, quoteForMsg(v.S))
	}
	if !c.declared && !c.seen {
		c.seen, c.first, c.typ = true, at, engine.TypeVarchar
	}
	return ""
}

func quoteForMsg(s string) string { return clip(formatRowValue(engine.Str(s))) }

// ---- row strings: `OP v1 v2 …`, or `(OP v1 v2 …)` for an invisible row ----

type token struct {
	text string // as written
	off  int    // byte offset in the row string
	val  engine.Value
}

// rowSyntaxError is a syntax error at a byte offset of a row string.
type rowSyntaxError struct {
	off int
	msg string
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// tokenizeRow splits a row string into its op and value tokens.
func tokenizeRow(s string) (op engine.Op, opOff int, visible bool, vals []token, e *rowSyntaxError) {
	lo, hi := 0, len(s)
	for lo < hi && isSpace(s[lo]) {
		lo++
	}
	for hi > lo && isSpace(s[hi-1]) {
		hi--
	}
	visible = true
	if lo < hi && s[lo] == '(' {
		if s[hi-1] != ')' || hi-lo < 2 {
			return 0, 0, false, nil, &rowSyntaxError{lo, "an invisible row is written in parentheses, (OP v1 v2 …); the closing ) is missing"}
		}
		visible = false
		lo++
		hi--
	}
	var toks []token
	i := lo
	for i < hi {
		if isSpace(s[i]) {
			i++
			continue
		}
		start := i
		if s[i] == '\'' {
			var b strings.Builder
			i++
			closed := false
			for i < hi {
				if s[i] == '\'' {
					if i+1 < hi && s[i+1] == '\'' {
						b.WriteByte('\'')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				b.WriteByte(s[i])
				i++
			}
			if !closed {
				return 0, 0, false, nil, &rowSyntaxError{start, "unterminated quoted string; close it with ' (write '' for a quote inside)"}
			}
			if i < hi && !isSpace(s[i]) {
				return 0, 0, false, nil, &rowSyntaxError{i, "expected a space after the quoted string"}
			}
			toks = append(toks, token{text: s[start:i], off: start, val: engine.Str(b.String())})
			continue
		}
		for i < hi && !isSpace(s[i]) {
			i++
		}
		toks = append(toks, token{text: s[start:i], off: start})
	}
	if len(toks) == 0 {
		return 0, 0, false, nil, &rowSyntaxError{lo, "empty row; expected OP v1 v2 … with OP one of +, -, U-, U+"}
	}
	op, ok := parseOp(toks[0].text)
	if !ok {
		return 0, 0, false, nil, &rowSyntaxError{toks[0].off, fmt.Sprintf("bad op %q; a row starts with +, -, U- or U+", clip(toks[0].text))}
	}
	vals = toks[1:]
	for k := range vals {
		t := &vals[k]
		if t.text[0] != '\'' {
			v, msg := wordValue(t.text)
			if msg != "" {
				return 0, 0, false, nil, &rowSyntaxError{t.off, msg}
			}
			t.val = v
		}
		if msg := valueTooLong(t.val); msg != "" {
			return 0, 0, false, nil, &rowSyntaxError{t.off, msg}
		}
	}
	return op, toks[0].off, visible, vals, nil
}

// wordValue reads an unquoted value of a row string: an integer, null, or a bare word.
func wordValue(w string) (engine.Value, string) {
	shown := clip(w)
	if isIntToken(w) {
		i, err := ParseDecimal(w)
		if err != nil {
			return engine.Value{}, err.Error()
		}
		return engine.Int(i), ""
	}
	switch strings.ToLower(w) {
	case "null":
		if w == "null" {
			return engine.Null(), ""
		}
		return engine.Value{}, fmt.Sprintf("write null in lower case for NULL, or '%s' in quotes for a string", shown)
	case "true", "false":
		return engine.Value{}, fmt.Sprintf("%s is not a value; write '%s' in quotes for a string", shown, shown)
	}
	if !isBareWord(w) {
		return engine.Value{}, fmt.Sprintf("bad value %s; a value is an integer, null, a bare word ([A-Za-z0-9_] then [A-Za-z0-9_.-]) or a 'quoted string'", shown)
	}
	return engine.Str(w), ""
}

// isIntToken reports whether w is written as an integer: -?[0-9]+.
func isIntToken(w string) bool {
	d := strings.TrimPrefix(w, "-")
	if d == "" {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// isBareWord reports whether s can be written unquoted in a row string and reads back as the
// string s: [A-Za-z0-9_] then [A-Za-z0-9_.-]*, not an integer, not null/true/false in any case.
func isBareWord(s string) bool {
	if s == "" || isIntToken(s) {
		return false
	}
	switch strings.ToLower(s) {
	case "null", "true", "false":
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case (c == '-' || c == '.') && i > 0:
		default:
			return false
		}
	}
	return true
}

// row reads one chunk row string node.
func (p *parser) row(n *yaml.Node) engine.RowOp {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		p.failAt(n, "a chunk row is a string like \"+ 1 100\", found %s", describe(n))
	}
	s := n.Value
	op, opOff, visible, vals, e := tokenizeRow(s)
	if e != nil {
		failMsg(p.file, p.posIn(n, e.off), e.msg)
	}
	if len(vals) != len(p.cfg.Columns) {
		at := opOff // too few values: at the op; too many: at the first extra one
		if len(vals) > len(p.cfg.Columns) {
			at = vals[len(p.cfg.Columns)].off
		}
		fail(p.file, p.posIn(n, at), "row has %s; the table has %d columns (%s)", plural(len(vals), "value"), len(p.cfg.Columns), p.columnNames())
	}
	row := make(engine.Row, len(vals))
	for i, t := range vals {
		at := p.posIn(n, t.off)
		if msg := p.checkType(i, t.val, t.text, at); msg != "" {
			failMsg(p.file, at, msg)
		}
		row[i] = t.val
	}
	if visible {
		p.checkOwned(row, posOf(n), "row")
	}
	return engine.RowOp{Op: op, Row: row, Visible: visible}
}

// posIn maps a byte offset of a scalar's value to its position in the source, when the scalar
// sits on one line; otherwise it falls back to the scalar's own position. It walks the source
// from the scalar's first character only as far as the offset (the line's character index is
// kept, see lineAt), so positions cost what the scalar holds, not what its line holds.
func (p *parser) posIn(n *yaml.Node, off int) Pos {
	base := posOf(n)
	if n.Line < 1 || n.Line > len(p.lines) || n.Column < 1 {
		return base
	}
	line := p.lines[n.Line-1]
	i, ok := p.lineAt(n.Line, n.Column) // byte offset in line of the scalar's first character
	if !ok {
		return base
	}
	col := n.Column
	switch n.Style {
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		i, col = i+1, col+1 // the opening quote
	case 0, yaml.FlowStyle:
	default:
		return base
	}
	for k := 0; k < min(off, len(n.Value)); { // advance over one decoded character
		_, size := utf8.DecodeRuneInString(n.Value[k:])
		k += size
		if i >= len(line) {
			return base
		}
		adv := 1 // source characters (all ASCII except the one copied) that stand for it
		switch {
		case n.Style == yaml.SingleQuotedStyle && line[i] == '\'':
			adv = 2
		case n.Style == yaml.DoubleQuotedStyle && line[i] == '\\':
			if i+1 >= len(line) {
				return base
			}
			switch line[i+1] {
			case 'x':
				adv = 4
			case 'u':
				adv = 6
			case 'U':
				adv = 10
			default:
				adv = 2
			}
		default:
			_, sz := utf8.DecodeRuneInString(line[i:])
			i, col = i+sz, col+1
			continue
		}
		i, col = i+adv, col+adv
	}
	if i > len(line) {
		return base
	}
	return Pos{n.Line, col}
}

// lineAt returns the byte offset in line number ln of its character number col (both 1-based),
// remembering where the last lookup on that line ended so that lookups in order along a line
// cost as much as the line, in all.
func (p *parser) lineAt(ln, col int) (int, bool) {
	line := p.lines[ln-1]
	c := &p.cursor
	if c.line != ln || c.col > col {
		*c = lineCursor{line: ln, col: 1}
	}
	for c.col < col {
		if c.off >= len(line) {
			return 0, false
		}
		_, size := utf8.DecodeRuneInString(line[c.off:])
		c.off += size
		c.col++
	}
	return c.off, c.off <= len(line)
}

// lineCursor is a character of a line and its byte offset.
type lineCursor struct{ line, col, off int }

// valueTooLong says why a string value is over MaxValueChars ("" when it is not).
func valueTooLong(v engine.Value) string {
	if v.Kind != engine.KindStr || len(v.S) <= MaxValueChars {
		return ""
	}
	if c := utf8.RuneCountInString(v.S); c > MaxValueChars {
		return fmt.Sprintf("a value is %d characters; the limit is %d", c, MaxValueChars)
	}
	return ""
}

// parseOp reads "+", "-", "U-" or "U+".
func parseOp(s string) (engine.Op, bool) {
	switch s {
	case "+":
		return engine.OpInsert, true
	case "-":
		return engine.OpDelete, true
	case "U-":
		return engine.OpUpdateDelete, true
	case "U+":
		return engine.OpUpdateInsert, true
	}
	return 0, false
}
