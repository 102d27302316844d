package scenarios

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is every error the parser returns: a position in the scenario text and a message that
// says what was expected. Line and Col are 1-based; Col counts characters (runes), as YAML does.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

// Error renders the error as file:line:col: msg, or line:col: msg when File is empty.
func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Pos is a 1-based line and column in the scenario text.
type Pos struct{ Line, Col int }

// StepPos is where a step is written: the position of its list item, and for a chunk the
// position of each row string (parallel to Step.Chunk).
type StepPos struct {
	Pos
	Rows []Pos
}

// failure carries an *Error through panics inside the parser; Parse and ParseStep recover it.
type failure struct{ err *Error }

// fail stops the parser with an error. A long text argument (a value, a key or a name from the
// file, which may be half a megabyte) is cut to what a reader can take in (see clip); use
// failMsg for a message made already.
func fail(file string, pos Pos, format string, args ...any) {
	for i, a := range args {
		if s, ok := a.(string); ok && utf8.RuneCountInString(s) > 2*maxQuoted {
			args[i] = clip(s)
		}
	}
	failMsg(file, pos, fmt.Sprintf(format, args...))
}

// failMsg stops the parser with an error whose message is made (its parts from the file clipped).
func failMsg(file string, pos Pos, msg string) {
	if pos.Line < 1 {
		pos.Line = 1
	}
	if pos.Col < 1 {
		pos.Col = 1
	}
	panic(failure{&Error{File: file, Line: pos.Line, Col: pos.Col, Msg: msg}})
}

// maxQuoted is how many characters of a text from the file an error repeats.
const maxQuoted = 60

// clip cuts a text from the file that an error repeats to maxQuoted characters and "…".
func clip(s string) string {
	n := 0
	for i := range s {
		if n == maxQuoted {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// catch turns a parser failure back into an error; other panics propagate.
func catch(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}

// yamlLine splits "yaml: line N: problem" (what ^yaml: line (\d+): (.*)$ matches: N decimal
// digits, the problem one line).
func yamlLine(msg string) (line, problem string, ok bool) {
	rest, ok := strings.CutPrefix(msg, "yaml: line ")
	if !ok {
		return "", "", false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	problem, ok = strings.CutPrefix(rest[i:], ": ")
	if i == 0 || !ok || strings.Contains(problem, "\n") {
		return "", "", false
	}
	return rest[:i], problem, true
}

// parserProblems are the problems of the YAML library's parser (not its scanner); for these it
// reports a 0-based line (the start of the construct being parsed), so 1 is added.
var parserProblems = []string{
	"did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"did not find expected '-' indicator", "did not find expected <document start>",
	"did not find expected <stream-start>", "did not find expected key",
	"did not find expected node content", "found duplicate %TAG directive",
	"found duplicate %YAML directive", "found incompatible YAML document", "found undefined tag handle",
}

// readerProblems are the YAML library's complaints about the bytes themselves; it reports no
// position for them, so the parser finds the offending character itself.
var readerProblems = []string{
	"control characters are not allowed", "invalid leading UTF-8 octet",
	"incomplete UTF-8 octet sequence", "invalid trailing UTF-8 octet", "invalid Unicode character",
	"invalid length of a UTF-8 sequence",
}

// yamlError converts an error of the YAML library (a syntax error) into an *Error.
func yamlError(file string, text []byte, err error) *Error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	msg := err.Error()
	line, col := 1, 1
	if num, problem, ok := yamlLine(msg); ok {
		msg = problem
		if n, e := strconv.Atoi(num); e == nil && n >= 1 {
			line = n
			if slices.Contains(parserProblems, msg) {
				line++
			}
		}
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
		if slices.Contains(readerProblems, msg) {
			line, col = badCharPos(text)
		}
	}
	// the library's line is its context's, not the problem's (see yamlpos.go): find the problem
	if !slices.Contains(readerProblems, msg) {
		if pos, ok := locateProblem(text, err, line); ok {
			line, col = pos.Line, pos.Col
		}
	}
	// at the end of the text the problem may lie on the (empty) line after the last one: name
	// the end of the last line instead
	starts := lineStarts(text)
	last := len(starts)
	if last > 1 && starts[last-1] == len(text) {
		last--
	}
	if line > last {
		end := len(text)
		for end > starts[last-1] && (text[end-1] == '\n' || text[end-1] == '\r') {
			end--
		}
		line, col = last, utf8.RuneCount(text[starts[last-1]:end])+1
	}
	line = max(line, 1)
	return &Error{File: file, Line: line, Col: col, Msg: "invalid YAML: " + msg}
}

// badCharPos finds the first byte YAML refuses: invalid UTF-8 or a non-printable character.
func badCharPos(text []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size <= 1 || !yamlPrintable(r) {
			return line, col
		}
		i += size
		switch {
		case r == '\r' && i < len(text) && text[i] == '\n':
		case r == '\n' || r == '\r':
			line, col = line+1, 1
		default:
			col++
		}
	}
	return 1, 1
}

// yamlPrintable is YAML's set of characters allowed in a stream.
func yamlPrintable(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0x7E || r == 0x85 ||
		r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
