package diagnose

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limit is how much of a paste is read: 64 KiB. The rest is cut off (the answer says so).
const Limit = 64 << 10

// capText cuts text to Limit bytes at a character boundary.
func capText(text string) (string, bool) {
	if len(text) <= Limit {
		return text, false
	}
	cut := Limit
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut], true
}

// stripANSI removes terminal escape sequences: CSI (ESC [ … final byte), OSC (ESC ] … BEL or
// ESC \) and two-byte ESC sequences.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") && !strings.Contains(s, "\u009b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		csi := c == 0x1b && i+1 < len(s) && s[i+1] == '['
		if strings.HasPrefix(s[i:], "\u009b") {
			csi, i = true, i+1 // the one-character CSI: skip its first byte here, the second below
		}
		switch {
		case csi:
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j + 1
		case c == 0x1b && i+1 < len(s) && s[i+1] == ']':
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j + 1
		case c == 0x1b:
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// Escape writes text so that no control character reaches a terminal or a page as it is:
// control characters, bidirectional controls and bytes that are not UTF-8 become escapes.
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// folded is text made easy to search: lower case, every run of white space one space, with
// where each of its bytes came from in the text.
type folded struct {
	text string
	from []int
}

func fold(s string) folded {
	var b []byte
	var from []int
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0xc2 { // a space from a web page is a space (all its bytes)
			if w := pageSpace(s[i:]); w > 0 {
				c, i = ' ', i+w-1
			}
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			if !space && len(b) > 0 {
				b = append(b, ' ')
				from = append(from, i)
			}
			space = true
			continue
		}
		space = false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
		from = append(from, i)
	}
	return folded{text: string(b), from: from}
}

// excerpt is the line of s that holds byte at, at most about 240 bytes of it around that byte.
func excerpt(s string, at int) string {
	start := strings.LastIndexByte(s[:at], '\n') + 1
	end := strings.IndexByte(s[at:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += at
	}
	line := strings.TrimRight(s[start:end], "\r")
	rel := at - start
	const room = 120
	pre, post := "", ""
	if rel > room {
		cut := rel - room
		for cut < len(line) && !utf8.RuneStart(line[cut]) {
			cut++
		}
		line, rel, pre = line[cut:], rel-cut, "…"
	}
	if len(line) > rel+2*room {
		cut := rel + 2*room
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line, post = line[:cut], "…"
	}
	return pre + strings.TrimSpace(line) + post
}

// number reads the digits at the start of s.
func number(s string) string {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return s[:n]
}

// pageSpace is the length of the no-break, thin or zero-width space s starts with (0: none).
func pageSpace(s string) int {
	for _, sp := range []string{"\u00a0", "\u200b", "\u202f", "\u2009", "\u2060", "\ufeff"} {
		if strings.HasPrefix(s, sp) {
			return len(sp)
		}
	}
	return 0
}
