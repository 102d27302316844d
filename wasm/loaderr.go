//go:build js && wasm

package main

import "strings"

// lineColumnError wraps a parser error so its text starts at
// "line:column:" with any file name in front removed: the page API's
// load rejects with "12:5: message", not "scenario.yaml:12:5: message".
type lineColumnError struct{ err error }

func (e lineColumnError) Error() string { return stripFileName(e.err.Error()) }
func (e lineColumnError) Unwrap() error { return e.err }

// stripFileName removes a leading "NAME:" (NAME possibly empty) when what
// follows is "LINE:COLUMN:" with both numbers in digits. Anything else is
// returned unchanged.
func stripFileName(msg string) string {
	if startsWithLineColumn(msg) {
		return msg
	}
	name, rest, ok := strings.Cut(msg, ":")
	if !ok || strings.ContainsAny(name, " \n") || !startsWithLineColumn(rest) {
		return msg
	}
	return rest
}

func startsWithLineColumn(s string) bool {
	for i := 0; i < 2; i++ {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n == len(s) || s[n] != ':' {
			return false
		}
		s = s[n+1:]
	}
	return true
}
