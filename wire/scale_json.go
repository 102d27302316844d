package wire

import (
	"bytes"

	"github.com/backfill-explainer/explainer/workload"
)

// JSON writes the summary as indented JSON in which every array or object that holds only
// scalars stays on one line (a series, one vnode's progress), so that a summary of a million
// rows reads as a page, not as a hundred thousand lines. It ends with a newline.
func ScaleSummaryJSON(s *workload.ScaleSummary) ([]byte, error) {
	return indentShallow(AppendScaleSummary(nil, s)), nil
}

// indentShallow indents compact JSON: containers that hold containers get one member per
// line; the others stay on one line, with a space after each comma and colon.
func indentShallow(src []byte) []byte {
	// nested[i]: the container opening at i holds a container
	nested := map[int]bool{}
	var stack []int
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			i = skipString(src, i)
		case '{', '[':
			if len(stack) > 0 {
				nested[stack[len(stack)-1]] = true
			}
			stack = append(stack, i)
		case '}', ']':
			stack = stack[:len(stack)-1]
		}
	}
	var out bytes.Buffer
	type open struct {
		at     int
		broken bool // one member per line
	}
	var opens []open
	newline := func() {
		out.WriteByte('\n')
		for range opens {
			out.WriteString("  ")
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := skipString(src, i)
			out.Write(src[i : j+1])
			i = j
		case '{', '[':
			out.WriteByte(c)
			empty := i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']')
			opens = append(opens, open{at: i, broken: nested[i] && !empty})
			if opens[len(opens)-1].broken {
				newline()
			}
		case '}', ']':
			o := opens[len(opens)-1]
			opens = opens[:len(opens)-1]
			if o.broken {
				newline()
			}
			out.WriteByte(c)
		case ',':
			out.WriteByte(',')
			if opens[len(opens)-1].broken {
				newline()
			} else {
				out.WriteByte(' ')
			}
		case ':':
			out.WriteString(": ")
		default:
			out.WriteByte(c)
		}
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// skipString returns the index of the quote that closes the string opening at i.
func skipString(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(src) - 1
}
