// Package jsonw writes JSON by hand, byte for byte as encoding/json writes the same values, for
// the code the wasm shares: the engine's view, trace, reports and summaries, and the bridge's
// answers. It keeps encoding/json (and the reflection-driven encoding it does for every value)
// out of the wasm; each type writes itself with an AppendJSON method built from these
// primitives, tested against encoding/json's output.
//
// Two ways to write a string, as encoding/json has: String as an Encoder with SetEscapeHTML(false)
// writes it (the bridge's answers), StringHTML as json.Marshal does (<, > and & as \u003c, \u003e,
// \u0026). Both write invalid UTF-8 as \ufffd and U+2028, U+2029 escaped, as encoding/json does.
//
// Decode (decode.go) reads the bridge's arguments.
package jsonw

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// safe[b]: an ASCII byte a string holds as it is (not '"', '\\' or a control character);
// safeHTML[b] also excludes '<', '>' and '&'.
var safe, safeHTML = func() (s, h [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		s[b] = b != '"' && b != '\\'
		h[b] = s[b] && b != '<' && b != '>' && b != '&'
	}
	return s, h
}()

// String appends s as a JSON string, as an encoding/json Encoder with SetEscapeHTML(false) does.
func String(b []byte, s string) []byte { return appendString(b, s, &safe) }

// StringHTML appends s as a JSON string, as json.Marshal does (escaping <, > and &).
func StringHTML(b []byte, s string) []byte { return appendString(b, s, &safeHTML) }

func appendString(dst []byte, src string, ok *[utf8.RuneSelf]bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(src); {
		if c := src[i]; c < utf8.RuneSelf {
			if ok[c] {
				i++
				continue
			}
			dst = append(dst, src[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, src[start:]...)
	return append(dst, '"')
}

// Int appends an integer.
func Int(b []byte, i int64) []byte { return strconv.AppendInt(b, i, 10) }

// Uint appends an unsigned integer.
func Uint(b []byte, u uint64) []byte { return strconv.AppendUint(b, u, 10) }

// Bool appends true or false.
func Bool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// Float appends a float64 as encoding/json does (ES6 number formatting). encoding/json refuses
// NaN and infinities; Float writes null for them, which no caller ever has.
func Float(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// List appends xs as a JSON array, each element written by each; a nil slice is null (as
// encoding/json writes it), an empty one []. It is Each with a closure, so that every element
// type shares Each's loop.
func List[T any](b []byte, xs []T, each func(*T, []byte) []byte) []byte {
	return Each(b, len(xs), xs == nil, func(b []byte, i int) []byte { return each(&xs[i], b) })
}

// Each appends a JSON array of n elements, element i written by each (null when isNil). One
// function for every list: a generated writer passes a closure (on the stack) where a generic
// list, inlined or stenciled per element type, took some 700 bytes of wasm a list.
//
//go:noinline
func Each(b []byte, n int, isNil bool, each func(b []byte, i int) []byte) []byte {
	if isNil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, i)
	}
	return append(b, ']')
}

// Map appends m as encoding/json writes a map with string keys: an object with its keys
// sorted (nil: null). key writes a key (String, or StringHTML where encoding/json's HTML
// escaping is kept), value a value.
func Map[V any](b []byte, m map[string]V, key func([]byte, string) []byte, value func([]byte, V) []byte) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = key(b, k)
		b = append(b, ':')
		b = value(b, m[k])
	}
	return append(b, '}')
}

// Strings, Ints and Int64s are three loops written out on purpose: one generic Array(b, xs, put)
// behind them (out of line) made the page's wasm 12 KB larger (measured); each is a few
// instructions.

// Strings appends a []string (nil: null).
func Strings(b []byte, xs []string) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = String(b, s)
	}
	return append(b, ']')
}

// Ints appends a []int (nil: null).
func Ints(b []byte, xs []int) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// Int64s appends a []int64 (nil: null).
func Int64s(b []byte, xs []int64) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, x, 10)
	}
	return append(b, ']')
}

// Lines appends a [2]int (a range of source lines), always an array.
func Lines(b []byte, l [2]int) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(l[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(l[1]), 10)
	return append(b, ']')
}

// The Key… functions append a key (the literal text before a value, e.g. `,"step":`) and its
// value in one call. They are kept out of line on purpose: a type's AppendJSON is a list of
// calls, some 30 bytes of wasm a field instead of the few hundred an inlined append takes.

// Key appends key, the text before a value the caller appends next.
//
//go:noinline
func Key(b []byte, key string) []byte { return append(b, key...) }

// KeyString appends key and s (as String).
//
//go:noinline
func KeyString(b []byte, key, s string) []byte { return appendString(append(b, key...), s, &safe) }

// KeyStringHTML appends key and s (as StringHTML).
//
//go:noinline
func KeyStringHTML(b []byte, key, s string) []byte {
	return appendString(append(b, key...), s, &safeHTML)
}

// KeyInt appends key and i.
//
//go:noinline
func KeyInt(b []byte, key string, i int64) []byte {
	return strconv.AppendInt(append(b, key...), i, 10)
}

// KeyUint appends key and u.
//
//go:noinline
func KeyUint(b []byte, key string, u uint64) []byte {
	return strconv.AppendUint(append(b, key...), u, 10)
}

// KeyBool appends key and v.
//
//go:noinline
func KeyBool(b []byte, key string, v bool) []byte { return Bool(append(b, key...), v) }
