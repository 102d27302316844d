package jsonw

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Number is a JSON number's text, as it was written.
type Number string

// Decode reads text that is exactly one JSON value (whitespace around it allowed) into what
// json.Unmarshal makes of it in an `any`: nil, bool, string, []any, map[string]any, and numbers
// as Number (json.Decoder.UseNumber's choice; Float64 converts one as json.Unmarshal would).
// Strings are read as encoding/json reads them: invalid UTF-8 and lone surrogates become U+FFFD;
// a repeated key keeps its last value. It refuses what encoding/json refuses, and nesting
// deeper than encoding/json's 10,000 levels.
func Decode(text string) (any, error) {
	d := decoder{s: text}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i < len(d.s) {
		return nil, d.fail("after the value")
	}
	return v, nil
}

// Float64 converts a number as json.Unmarshal does into a float64 (an error when out of range).
func (n Number) Float64() (float64, error) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return 0, errors.New("json: number " + string(n) + " is out of the range of a float64")
	}
	return f, nil
}

// Int64 converts a number as json.Number.Int64 does (an error unless it is an integer in range).
func (n Number) Int64() (int64, error) { return strconv.ParseInt(string(n), 10, 64) }

const maxDepth = 10000 // encoding/json's limit

type decoder struct {
	s string
	i int
}

// SyntaxError says where the text stopped being JSON.
type SyntaxError struct {
	Msg    string
	Offset int // bytes read before the error
}

func (e *SyntaxError) Error() string { return e.Msg }

func (d *decoder) fail(where string) error {
	if d.i >= len(d.s) {
		return &SyntaxError{"unexpected end of JSON input", d.i}
	}
	return &SyntaxError{"invalid character " + strconv.QuoteRune(rune(d.s[d.i])) + " " + where, d.i + 1}
}

func (d *decoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (any, error) {
	if d.i >= len(d.s) {
		return nil, d.fail("")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		if depth >= maxDepth {
			return nil, &SyntaxError{"exceeded max depth", d.i + 1}
		}
		return d.object(depth + 1)
	case c == '[':
		if depth >= maxDepth {
			return nil, &SyntaxError{"exceeded max depth", d.i + 1}
		}
		return d.array(depth + 1)
	case c == '"':
		return d.str()
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case c == 't':
		return true, d.word("true")
	case c == 'f':
		return false, d.word("false")
	case c == 'n':
		return nil, d.word("null")
	}
	return nil, d.fail("looking for beginning of value")
}

func (d *decoder) word(w string) error {
	for k := 0; k < len(w); k++ {
		if d.i >= len(d.s) || d.s[d.i] != w[k] {
			return d.fail("in literal " + w + " (expecting " + strconv.QuoteRune(rune(w[k])) + ")")
		}
		d.i++
	}
	return nil
}

func (d *decoder) object(depth int) (any, error) {
	d.i++ // {
	m := map[string]any{}
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return m, nil
	}
	for {
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, d.fail("looking for beginning of object key string")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, d.fail("after object key")
		}
		d.i++
		d.space()
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		d.space()
		if d.i >= len(d.s) {
			return nil, d.fail("")
		}
		switch d.s[d.i] {
		case ',':
			d.i++
			d.space()
		case '}':
			d.i++
			return m, nil
		default:
			return nil, d.fail("after object key:value pair")
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	d.i++ // [
	out := []any{}
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return out, nil
	}
	for {
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		d.space()
		if d.i >= len(d.s) {
			return nil, d.fail("")
		}
		switch d.s[d.i] {
		case ',':
			d.i++
			d.space()
		case ']':
			d.i++
			return out, nil
		default:
			return nil, d.fail("after array element")
		}
	}
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) number() (any, error) {
	start := d.i
	digits := func() int {
		n := 0
		for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.s[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.s) && d.s[d.i] == '0':
		d.i++
	case digits() == 0:
		return nil, d.fail("in numeric literal")
	}
	if d.i < len(d.s) && d.s[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return nil, d.fail("after decimal point in numeric literal")
		}
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return nil, d.fail("in exponent of numeric literal")
		}
	}
	return Number(d.s[start:d.i]), nil
}

// str reads a string as encoding/json unquotes one.
func (d *decoder) str() (string, error) {
	d.i++ // "
	start := d.i
	// the common case: nothing to unescape or replace
	for d.i < len(d.s) {
		c := d.s[d.i]
		if c == '"' {
			d.i++
			return d.s[start : d.i-1], nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		d.i++
	}
	b := []byte(d.s[start:d.i])
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return string(b), nil
		case c < 0x20:
			return "", d.fail("in string literal")
		case c == '\\':
			d.i++
			if d.i >= len(d.s) {
				return "", d.fail("")
			}
			switch e := d.s[d.i]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, err := d.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					// a pair, or U+FFFD for a lone half
					r2 := rune(-1)
					if d.i+2 < len(d.s) && d.s[d.i+1] == '\\' && d.s[d.i+2] == 'u' {
						save := d.i
						d.i += 2
						if x, err := d.hex4(); err == nil {
							r2 = x
						} else {
							return "", err
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b = utf8.AppendRune(b, dec)
							break
						}
						d.i = save // the second escape is read on its own
					}
					b = utf8.AppendRune(b, utf8.RuneError)
					break
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", d.fail("in string escape code")
			}
			d.i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			d.i++
		default:
			r, size := utf8.DecodeRuneInString(d.s[d.i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, d.s[d.i:d.i+size]...)
			}
			d.i += size
		}
	}
	return "", d.fail("")
}

// hex4 reads the four hex digits after \u (d.i at the u) and leaves d.i at the last of them.
func (d *decoder) hex4() (rune, error) {
	var r rune
	for k := 0; k < 4; k++ {
		d.i++
		if d.i >= len(d.s) {
			return 0, d.fail("")
		}
		c := d.s[d.i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, d.fail("in \\u hexadecimal character escape")
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}
