package main

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/backfill-explainer/explainer/internal/quote"
)

// termWriter passes text on to a terminal with its control characters escaped: a title, a
// note, an error message or a value from a scenario file may hold ESC, CSI or BEL, which a
// terminal would obey (move the cursor, rewrite the screen, set its title). C0 controls but
// tab and newline, DEL, C1 controls and bytes that are not UTF-8 are written as \xHH, \u009b
// and so on; every other character, é or → or 漢, passes as it is. JSON output needs none of
// this (encoding/json escapes controls itself) and is not written through it.
type termWriter struct {
	w       io.Writer
	pending []byte // the start of a character split between two writes
}

func newTermWriter(w io.Writer) *termWriter { return &termWriter{w: w} }

func (t *termWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(t.pending) > 0 {
		p = append(t.pending, p...)
		t.pending = nil
	}
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				out = fmt.Appendf(out, `\x%02x`, c)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		if !utf8.FullRune(p[i:]) {
			t.pending = append([]byte(nil), p[i:]...) // the rest comes with the next write
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = fmt.Appendf(out, `\x%02x`, c)
		case r >= 0x80 && r <= 0x9f, invisibleFormat(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes out a character left incomplete at the end (as escaped bytes).
func (t *termWriter) Flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	var out []byte
	for _, c := range t.pending {
		out = fmt.Appendf(out, `\x%02x`, c)
	}
	t.pending = nil
	_, err := t.w.Write(out)
	return err
}

// clippedWriter cuts each line written to it to what quote.Lines keeps: the flag package and
// the operating system's errors quote an operand whole (a 100 KB one was echoed in full).
type clippedWriter struct{ w io.Writer }

func (c clippedWriter) Write(p []byte) (int, error) {
	if len(p) <= 3*quote.MaxChars {
		return c.w.Write(p)
	}
	if _, err := io.WriteString(c.w, quote.Lines(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// invisibleFormat reports the characters that change how the text around them reads without
// showing themselves: bidirectional controls (U+202E turns a line around), the line and
// paragraph separators, zero-width characters and the byte order mark.
func invisibleFormat(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f ||
		r == 0x061c || r == 0x2028 || r == 0x2029 || r >= 0x200b && r <= 0x200d || r == 0x2060 || r == 0xfeff
}
