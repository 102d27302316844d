// Package jsontest is for tests only: it makes values with every field set at random, and
// encodes them with encoding/json, to check the hand-written AppendJSON methods (internal/jsonw)
// against encoding/json byte for byte on every key a type has, not only on the ones the built-in
// scenarios happen to fill.
package jsontest

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
)

// Strings are the texts fields get: escapes, HTML, non-ASCII, invalid UTF-8, empty.
var Strings = []string{"", "", "plain", `a "quoted" \ text`, "<b>&amp;</b>", "line\nbreak\ttab", "✓ ✗ → …",
	"\u2028", "bad \xff", "\x01ctl", "v0", "happy-path"}

// Filler fills values at random. Special makes the values of types that need them (the field
// types whose every value is not valid, and interface types: what they may hold).
type Filler struct {
	R       *rand.Rand
	Special map[reflect.Type]func(r *rand.Rand) any
}

// New makes a filler seeded with seed.
func New(seed uint64) *Filler {
	return &Filler{R: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), Special: map[reflect.Type]func(*rand.Rand) any{}}
}

// Fill sets *p (p a pointer) at random.
func (f *Filler) Fill(p any) { f.fill(reflect.ValueOf(p).Elem(), 0) }

func (f *Filler) fill(v reflect.Value, depth int) {
	if mk, ok := f.Special[v.Type()]; ok {
		x := mk(f.R)
		if x == nil {
			v.SetZero()
		} else {
			v.Set(reflect.ValueOf(x))
		}
		return
	}
	r := f.R
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := []int64{0, 0, 1, -1, int64(r.IntN(1000)), math.MaxInt32, math.MinInt32}[r.IntN(7)]
		if v.Kind() == reflect.Int64 && r.IntN(5) == 0 {
			n = []int64{math.MaxInt64, math.MinInt64}[r.IntN(2)]
		}
		if !v.OverflowInt(n) {
			v.SetInt(n)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n := []uint64{0, 0, 1, uint64(r.IntN(1000)), math.MaxUint64}[r.IntN(5)]
		if !v.OverflowUint(n) {
			v.SetUint(n)
		}
	case reflect.Float32, reflect.Float64:
		x := []float64{0, 1, 0.5, 1.0 / 3, 1e-7, 1e21, r.Float64(), -r.NormFloat64() * 1e6}[r.IntN(8)]
		v.SetFloat(x)
	case reflect.String:
		v.SetString(Strings[r.IntN(len(Strings))])
	case reflect.Pointer:
		if depth > 6 || r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		if depth > 6 || r.IntN(4) == 0 {
			v.SetZero()
			return
		}
		n := r.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			f.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if r.IntN(4) == 0 {
			v.SetZero()
			return
		}
		m := reflect.MakeMap(v.Type())
		for i := r.IntN(5); i > 0; i-- {
			k := reflect.New(v.Type().Key()).Elem()
			f.fill(k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			if !sf.IsExported() || sf.Tag.Get("json") == "-" {
				continue
			}
			f.fill(v.Field(i), depth+1)
		}
	case reflect.Interface:
		panic("jsontest: no Special for interface type " + v.Type().String())
	default:
		panic("jsontest: cannot fill a " + v.Type().String())
	}
}

// Encoder is encoding/json's output for v as the wasm bridge's Encoder writes it (no HTML
// escaping), without the newline.
func Encoder(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// Marshal is json.Marshal's output for v.
func Marshal(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
