package jsonw

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Appender is a type that writes its own JSON (engine.Value, engine.Row, engine.Output…).
type Appender interface{ AppendJSON(b []byte) []byte }

// Marshaler is encoding/json's Marshaler, honoured for a type without AppendJSON; its output is
// appended as it is (encoding/json compacts it: the callers' methods write compact JSON).
type Marshaler interface{ MarshalJSON() ([]byte, error) }

// Value appends p's target (p a pointer) as encoding/json writes it: struct fields by their
// json tags (name, omitempty, "-"), nil slices, maps and pointers as null, map keys sorted,
// AppendJSON and MarshalJSON methods honoured, strings as StringHTML when html (json.Marshal)
// else as String (an Encoder with SetEscapeHTML(false)). A plan per type is made once. Types it
// does not write (channels, funcs, complex numbers, []byte, embedded fields, ",string",
// non-string map keys) panic, naming the type: a programming error the tests find.
func Value(b []byte, p any, html bool) []byte {
	v := reflect.ValueOf(p)
	return planOf(v.Type(), html)(b, v)
}

type encoder func(b []byte, v reflect.Value) []byte

type planKey struct {
	t    reflect.Type
	html bool
}

var plans sync.Map // planKey → encoder

var (
	appenderType  = reflect.TypeFor[Appender]()
	marshalerType = reflect.TypeFor[Marshaler]()
)

func planOf(t reflect.Type, html bool) encoder {
	k := planKey{t, html}
	if e, ok := plans.Load(k); ok {
		return e.(encoder)
	}
	// a recursive type finds this stand-in until its plan is made
	var done encoder
	e, loaded := plans.LoadOrStore(k, encoder(func(b []byte, v reflect.Value) []byte { return done(b, v) }))
	if loaded {
		return e.(encoder)
	}
	done = makePlan(t, html)
	plans.Store(k, done)
	return done
}

func makePlan(t reflect.Type, html bool) encoder {
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(appenderType) {
		// a method on the pointer (or the value) is called through the value's address when it
		// has one, as encoding/json does; otherwise the method on the value, or none
		byValue := t.Implements(appenderType)
		var plain encoder
		if !byValue {
			plain = makePlain(t, html)
		}
		return func(b []byte, v reflect.Value) []byte {
			if v.CanAddr() {
				return v.Addr().Interface().(Appender).AppendJSON(b)
			}
			if byValue {
				return v.Interface().(Appender).AppendJSON(b)
			}
			return plain(b, v)
		}
	}
	if t.Implements(appenderType) { // a pointer type
		return func(b []byte, v reflect.Value) []byte {
			if v.IsNil() {
				return append(b, "null"...)
			}
			return v.Interface().(Appender).AppendJSON(b)
		}
	}
	if t.Implements(marshalerType) {
		return func(b []byte, v reflect.Value) []byte {
			if v.Kind() == reflect.Pointer && v.IsNil() {
				return append(b, "null"...)
			}
			out, err := v.Interface().(Marshaler).MarshalJSON()
			if err != nil {
				panic(fmt.Sprintf("jsonw: %s.MarshalJSON: %v", t, err))
			}
			return append(b, out...)
		}
	}
	return makePlain(t, html)
}

// makePlain: t's plan by its kind.
func makePlain(t reflect.Type, html bool) encoder {
	str := String
	if html {
		str = StringHTML
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, v reflect.Value) []byte { return Bool(b, v.Bool()) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value) []byte { return Int(b, v.Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(b []byte, v reflect.Value) []byte { return Uint(b, v.Uint()) }
	case reflect.Float64:
		return func(b []byte, v reflect.Value) []byte { return Float(b, v.Float()) }
	case reflect.String:
		return func(b []byte, v reflect.Value) []byte { return str(b, v.String()) }
	case reflect.Interface:
		return func(b []byte, v reflect.Value) []byte {
			if v.IsNil() {
				return append(b, "null"...)
			}
			if a, ok := v.Interface().(Appender); ok { // no copy of what the interface holds
				return a.AppendJSON(b)
			}
			e := v.Elem()
			return planOf(e.Type(), html)(b, e)
		}
	case reflect.Pointer:
		elem := planOf(t.Elem(), html)
		return func(b []byte, v reflect.Value) []byte {
			if v.IsNil() {
				return append(b, "null"...)
			}
			return elem(b, v.Elem())
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			break // encoding/json writes base64
		}
		elem := planOf(t.Elem(), html)
		isSlice := t.Kind() == reflect.Slice
		return func(b []byte, v reflect.Value) []byte {
			if isSlice && v.IsNil() {
				return append(b, "null"...)
			}
			b = append(b, '[')
			for i, n := 0, v.Len(); i < n; i++ {
				if i > 0 {
					b = append(b, ',')
				}
				b = elem(b, v.Index(i))
			}
			return append(b, ']')
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		elem := planOf(t.Elem(), html)
		return func(b []byte, v reflect.Value) []byte {
			if v.IsNil() {
				return append(b, "null"...)
			}
			keys := v.MapKeys()
			slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
			b = append(b, '{')
			for i, k := range keys {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(str(b, k.String()), ':')
				b = elem(b, v.MapIndex(k))
			}
			return append(b, '}')
		}
	case reflect.Struct:
		return makeStruct(t, html)
	}
	panic("jsonw: cannot write a " + t.String())
}

// field is a struct field's place in its plan.
type field struct {
	index     int
	key       []byte // `,"name":` (the first field's without the comma)
	omitEmpty bool
	enc       encoder
}

func makeStruct(t reflect.Type, html bool) encoder {
	var fields []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		if sf.Anonymous {
			panic("jsonw: cannot write the embedded field " + sf.Name + " of " + t.String())
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		if opts != "" && opts != "omitempty" {
			panic("jsonw: cannot write the option " + opts + " of " + t.String() + "." + sf.Name)
		}
		key := quote([]byte{','}, name, html)
		fields = append(fields, field{i, append(key, ':'), opts == "omitempty", planOf(sf.Type, html)})
	}
	return func(b []byte, v reflect.Value) []byte {
		first := true
		for i := range fields {
			f := &fields[i]
			fv := v.Field(f.index)
			if f.omitEmpty && isEmpty(fv) {
				continue
			}
			if first {
				b = append(b, '{')
				b = append(b, f.key[1:]...)
				first = false
			} else {
				b = append(b, f.key...)
			}
			b = f.enc(b, fv)
		}
		if first {
			b = append(b, '{')
		}
		return append(b, '}')
	}
}

func quote(b []byte, s string, html bool) []byte {
	if html {
		return StringHTML(b, s)
	}
	return String(b, s)
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
