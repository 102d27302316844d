package engine

import (
	"strconv"
	"strings"
)

// Kind is the kind of a Value.
type Kind uint8

const (
	KindNull Kind = iota
	KindInt
	KindStr
)

// Value is one datum: a 64-bit integer, a string, or NULL.
type Value struct {
	Kind Kind
	I    int64
	S    string
}

// Int makes an integer value.
func Int(i int64) Value { return Value{Kind: KindInt, I: i} }

// Str makes a string value.
func Str(s string) Value { return Value{Kind: KindStr, S: s} }

// Null is the NULL value.
func Null() Value { return Value{} }

// IsNull reports whether v is NULL.
func (v Value) IsNull() bool { return v.Kind == KindNull }

// Compare orders values: integers numerically, strings by bytes, NULL after everything.
func Compare(a, b Value) int {
	if a.Kind == KindInt && b.Kind == KindInt { // the usual case first
		switch {
		case a.I < b.I:
			return -1
		case a.I > b.I:
			return 1
		}
		return 0
	}
	if a.Kind == KindNull || b.Kind == KindNull {
		switch {
		case a.Kind == b.Kind:
			return 0
		case a.Kind == KindNull:
			return 1
		default:
			return -1
		}
	}
	if a.Kind != b.Kind { // never happens within one typed column
		if a.Kind == KindInt {
			return -1
		}
		return 1
	}
	if a.Kind == KindInt {
		switch {
		case a.I < b.I:
			return -1
		case a.I > b.I:
			return 1
		}
		return 0
	}
	return strings.Compare(a.S, b.S)
}

// String renders a value the way the scenario format writes it.
func (v Value) String() string {
	switch v.Kind {
	case KindNull:
		return "null"
	case KindInt:
		return strconv.FormatInt(v.I, 10)
	}
	if isBareWord(v.S) {
		return v.S
	}
	return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
}

func isBareWord(s string) bool {
	switch strings.ToLower(s) {
	case "", "null", "true", "false":
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
		case r >= '0' && r <= '9', r == '-' && i > 0, r == '.' && i > 0:
		default:
			return false
		}
	}
	// a word that looks like an integer, of any length, must be quoted
	digits := strings.TrimPrefix(s, "-")
	return digits == "" || strings.Trim(digits, "0123456789") != ""
}

// Row is a tuple of values: a full row of the table's columns, or a key.
type Row []Value

// CompareRows orders rows lexicographically with Compare.
func CompareRows(a, b Row) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if c := Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// Equal reports whether two rows hold the same values.
func (r Row) Equal(o Row) bool { return len(r) == len(o) && CompareRows(r, o) == 0 }

// String renders a row as a tuple, e.g. (3,102).
func (r Row) String() string { return r.tuple(0) }

// briefLen is how many characters of a value an error message repeats.
const briefLen = 60

// brief renders a row as String does, each value cut to briefLen characters and "…", for
// error messages (a value may be half a megabyte).
func (r Row) brief() string { return r.tuple(briefLen) }

// tuple renders a row as a tuple, each value cut to cut characters and "…" (0: whole).
func (r Row) tuple(cut int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, v := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		s := v.String()
		if n := 0; cut > 0 && len(s) > cut {
			for k := range s {
				if n == cut {
					s = s[:k] + "…"
					break
				}
				n++
			}
		}
		b.WriteString(s)
	}
	b.WriteByte(')')
	return b.String()
}

// Project picks the values at the given column indices.
func (r Row) Project(cols []int) Row {
	out := make(Row, len(cols))
	for i, c := range cols {
		out[i] = r[c]
	}
	return out
}

// key encodes a row as a map key (exact, unambiguous).
func (r Row) key() string { return string(r.appendKey(nil)) }

// appendKey appends the row's key encoding to b.
func (r Row) appendKey(b []byte) []byte {
	for _, v := range r {
		switch v.Kind {
		case KindNull:
			b = append(b, 0)
		case KindInt:
			b = append(b, 1)
			b = strconv.AppendInt(b, v.I, 36)
			b = append(b, 0)
		case KindStr:
			b = append(b, 2)
			b = strconv.AppendInt(b, int64(len(v.S)), 36)
			b = append(b, ':')
			b = append(b, v.S...)
		}
	}
	return b
}
