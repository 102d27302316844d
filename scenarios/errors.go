package scenarios

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
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

func fail(file string, pos Pos, format string, args ...any) {
	if pos.Line < 1 {
		pos.Line = 1
	}
	if pos.Col < 1 {
		pos.Col = 1
	}
	panic(failure{&Error{File: file, Line: pos.Line, Col: pos.Col, Msg: fmt.Sprintf(format, args...)}})
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

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError converts an error of the YAML library (a syntax error) into an *Error.
func yamlError(file string, err error) *Error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	msg := err.Error()
	line := 1
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if n, e := strconv.Atoi(m[1]); e == nil && n >= 1 {
			line = n
		}
		msg = m[2]
	} else if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return &Error{File: file, Line: line, Col: 1, Msg: "invalid YAML: " + msg}
}
