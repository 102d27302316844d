// Package quote is how every message quotes its input: at most MaxChars characters of it, then
// "…", so that a megabyte of input gives a message a reader can take in (and a page can post).
package quote

import (
	"strconv"
	"strings"
)

// MaxChars is how many characters of an input a message repeats.
const MaxChars = 200

// Clip cuts s to MaxChars characters and "…".
func Clip(s string) string {
	n := 0
	for i := range s {
		if n == MaxChars {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// Q is s clipped and quoted as Go quotes it (%q).
func Q(s string) string { return strconv.Quote(Clip(s)) }

// Lines cuts every line of a message made elsewhere (by a library that quotes its input whole:
// the flag package, an operating system's error) to 3×MaxChars characters and "…".
func Lines(msg string) string {
	if len(msg) <= 3*MaxChars {
		return msg
	}
	lines := strings.SplitAfter(msg, "\n")
	for i, l := range lines {
		n := 0
		for k := range l {
			if n == 3*MaxChars {
				end := ""
				if strings.HasSuffix(l, "\n") {
					end = "\n"
				}
				lines[i] = l[:k] + "…" + end
				break
			}
			n++
		}
	}
	return strings.Join(lines, "")
}
