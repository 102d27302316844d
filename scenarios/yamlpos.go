package scenarios

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Why the YAML library's positions are off. go.yaml.in/yaml/v3 (v3.0.6, decode.go, parser.fail)
// reports a syntax error as "yaml: line N: problem", with one line and no column, and the line
// is not the problem's: it prefers the mark of the construct it was in the middle of (the
// "context": the start of the enclosing mapping or list, or of an unterminated quoted string)
// to the mark of the problem itself; it adds 1 to that 0-based line only for scanner errors, so
// a parser error names the line before its context; and it takes a context on the first line
// (line 0) for no context, so it names the problem's line then instead. A mis-indented item on
// line 5 is reported at line 4 (the list began on line 4, 0-based 3, plus the parser's
// correction), an unterminated quote on line 1 at the line after the last.
//
// locateProblem finds the problem itself with the library's help: the library reads its input
// in order, so the problem lies on the first line whose inclusion (the text up to the end of
// that line) already yields the same error, and at the first character of that line whose
// inclusion does. Exponential and binary search keep this to a few dozen decodings of
// prefixes, and probeBudget bounds the bytes decoded in all. An unterminated quoted string is
// reported where it opens (lastOpenQuote), which is what a reader needs to find.

// probeBudget bounds the bytes locateProblem decodes in all: a file of up to about 150 KB gets
// its exact position, a larger one its problem's line when the budget allows, or else the
// library's (corrected) line (a decoding of 1 MiB takes about 0.3 s).
const probeBudget = 4 << 20

// problemLocator probes prefixes of a text for an error.
type problemLocator struct {
	text   []byte
	starts []int // byte offset of each line's first character
	want   string
	spent  int
	close  bool // close the flow collections a prefix leaves open (for flow problems)
	parser bool // a problem of the library's parser (not its scanner)
}

// locateProblem returns the position of the YAML syntax problem err reports in text, and
// whether it found one. from is the first line the problem can be on.
func locateProblem(text []byte, err error, from int) (Pos, bool) {
	msg := err.Error()
	// a prefix that stops inside a flow collection fails at its end with the same complaint as
	// a wrong token inside it, so for flow problems each prefix gets its brackets closed
	l := &problemLocator{text: text, starts: lineStarts(text), want: msg,
		close: strings.Contains(msg, "did not find expected ',' or"), parser: isParserProblem(msg)}
	if strings.HasSuffix(msg, "found unexpected end of stream") {
		// the quote must really open a string there: the text up to it and the quote must
		// end inside a string (a quote inside a block scalar is only a character)
		if pos, at, ok := lastOpenQuote(text); ok && l.endsInString(at) {
			return pos, true
		}
	}
	n := len(l.starts)
	from = min(max(from, 1), n)
	end := func(k int) int { // the end of line k (1-based), before its break
		if k >= n {
			return len(text)
		}
		e := l.starts[k]
		for e > l.starts[k-1] && (text[e-1] == '\n' || text[e-1] == '\r') {
			e--
		}
		return e
	}
	// the first line k ≥ from whose inclusion yields the error
	lo, hi := from-1, from // lines lo and before do not yield it (from-1 is assumed not to)
	for step := 1; ; step *= 2 {
		if hi >= n {
			hi = n
			break
		}
		ok, done := l.same(end(hi))
		if done {
			return Pos{}, false
		}
		if ok {
			break
		}
		lo, hi = hi, hi+step
	}
	for lo+1 < hi {
		mid := (lo + hi) / 2
		ok, done := l.same(end(mid))
		if done {
			return Pos{}, false
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	line := hi
	// the first character of that line whose inclusion yields it
	start := l.starts[line-1]
	clo, chi := 0, end(line)-start // prefixes of the line of clo characters do not, of chi do
	firstChar := Pos{line, 1}      // the line's first character, when the search runs out
	for k, c := range string(text[start : start+chi]) {
		if c != ' ' && c != '\t' {
			firstChar.Col = utf8.RuneCount(text[start:start+k]) + 1
			break
		}
	}
	if ok, done := l.same(start + chi); done || !ok {
		return firstChar, true // the problem is the line's end (or beyond it)
	}
	for clo+1 < chi {
		mid := (clo + chi) / 2
		ok, done := l.same(start + mid)
		if done {
			return firstChar, true
		}
		if ok {
			chi = mid
		} else {
			clo = mid
		}
	}
	// chi bytes of the line yield it: the problem was noticed at its chi-th byte, at the end of
	// the token the parser refused; report where that token begins
	at := start + chi - 1
	if l.parser {
		at = tokenStart(text, at) // a scanner stops at the character it refuses; a parser after the token
	}
	line = sort.SearchInts(l.starts, at+1)
	return Pos{line, utf8.RuneCount(text[l.starts[line-1]:at]) + 1}, true
}

// tokenStart returns where the token that ends at byte i begins: a quoted string's opening
// quote, or the first character of a plain scalar (a key, when i is its ':').
func tokenStart(text []byte, i int) int {
	switch c := text[i]; {
	case c == '"' || c == '\'':
		for j := i - 1; j >= 0; j-- {
			if text[j] != c {
				continue
			}
			if c == '"' && j > 0 && text[j-1] == '\\' {
				continue
			}
			if c == '\'' && j > 0 && text[j-1] == '\'' {
				j-- // '' inside a single-quoted string
				continue
			}
			return j
		}
	case c == ':':
		stops := "\n\r" // a plain scalar may hold [ { , outside a flow collection
		if len(closers(text[:i])) > 0 {
			stops += "[{,"
		}
		j := i
		for j > 0 && !strings.ContainsRune(stops, rune(text[j-1])) &&
			!(j > 1 && strings.ContainsRune(":-?", rune(text[j-2])) && text[j-1] == ' ') {
			j--
		}
		for j < i && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		return j
	}
	return i
}

// same reports whether the text up to end yields the same error; done is true once the
// budget is spent.
func (l *problemLocator) same(end int) (ok, done bool) {
	if l.spent += end; l.spent > probeBudget {
		return false, true
	}
	prefix := l.text[:end]
	if l.close {
		prefix = append(append([]byte(nil), prefix...), closers(prefix)...)
	}
	dec := yaml.NewDecoder(bytes.NewReader(prefix))
	for {
		var n yaml.Node
		err := decodeSafe(dec, &n)
		switch {
		case err == nil:
			continue
		case errors.Is(err, io.EOF):
			return false, false
		}
		return err.Error() == l.want, false
	}
}

// closers returns the brackets that close the flow collections text leaves open, innermost
// first (outside quoted strings and comments).
func closers(text []byte) []byte {
	var stack []byte
	quote := byte(0)
	comment := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n' || c == '\r':
			comment = false
		case comment:
		case quote == '"' && c == '\\':
			i++
		case quote != 0 && c == quote:
			if quote == '\'' && i+1 < len(text) && text[i+1] == '\'' {
				i++
				continue
			}
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			if i == 0 || strings.IndexByte(" \t[{,:", text[i-1]) >= 0 {
				quote = c
			}
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t'):
			comment = true
		case c == '[':
			stack = append(stack, ']')
		case c == '{':
			stack = append(stack, '}')
		case (c == ']' || c == '}') && len(stack) > 0 && stack[len(stack)-1] == c:
			stack = stack[:len(stack)-1]
		}
	}
	if quote != 0 {
		return nil
	}
	slices.Reverse(stack)
	return stack
}

// endsInString reports whether the text up to and including the quote at byte at leaves a
// quoted string open.
func (l *problemLocator) endsInString(at int) bool {
	dec := yaml.NewDecoder(bytes.NewReader(l.text[:at+1]))
	for {
		var n yaml.Node
		err := decodeSafe(dec, &n)
		switch {
		case err == nil:
			continue
		case errors.Is(err, io.EOF):
			return false
		}
		return strings.HasSuffix(err.Error(), "found unexpected end of stream")
	}
}

// lineStarts returns the byte offset of the first character of each line (YAML's breaks:
// \r\n, \r, \n).
func lineStarts(text []byte) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case '\n':
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lastOpenQuote finds a quoted string that is never closed: a ' or " where a scalar can begin
// (at the start of a line's content, or after [ { , : - ? and a space), outside comments and
// other quoted strings; ” stands for ' inside single quotes and \ escapes inside double ones.
func lastOpenQuote(text []byte) (Pos, int, bool) {
	line, col := 1, 1
	var open Pos
	openAt := 0
	quote := byte(0)
	canStart := true // a scalar may begin here
	comment := false
	for i := 0; i < len(text); {
		c := text[i]
		_, size := utf8.DecodeRune(text[i:])
		switch {
		case c == '\n' || c == '\r':
			if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			i++
			line, col = line+1, 1
			comment = false
			if quote == 0 {
				canStart = true
			}
			continue
		case comment:
		case quote == '\'' && c == '\'':
			if i+1 < len(text) && text[i+1] == '\'' {
				i, col = i+1, col+1
			} else {
				quote, canStart = 0, false
			}
		case quote == '"' && c == '\\':
			if i+1 < len(text) && text[i+1] != '\n' && text[i+1] != '\r' {
				_, s := utf8.DecodeRune(text[i+1:])
				i, col = i+s, col+1
			}
		case quote == '"' && c == '"':
			quote, canStart = 0, false
		case quote != 0:
		case c == '\'' || c == '"':
			if canStart {
				quote, open, openAt = c, Pos{line, col}, i
			}
			canStart = false
		case c == '#' && (canStart || i > 0 && (text[i-1] == ' ' || text[i-1] == '\t')):
			comment = true
		case c == ' ' || c == '\t':
		case strings.IndexByte("[{,", c) >= 0:
			canStart = true
		case strings.IndexByte(":-?", c) >= 0:
			// an indicator only when a space or the line's end follows
			canStart = i+1 == len(text) || strings.IndexByte(" \t\r\n", text[i+1]) >= 0
		default:
			canStart = false
		}
		i += size
		col++
	}
	return open, openAt, quote != 0
}

// isParserProblem reports whether a library error is one of its parser's (see parserProblems).
func isParserProblem(msg string) bool {
	_, problem, _ := strings.Cut(msg, ": line ")
	if _, p, ok := strings.Cut(problem, ": "); ok {
		problem = p
	}
	return slices.Contains(parserProblems, problem)
}
