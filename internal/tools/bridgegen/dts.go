package main

import (
	"encoding/json"
	"fmt"
	"go/format"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/backfill-explainer/explainer/wasm/api"
)

// The declarations the page is checked against (web/boot/bridge.d.ts, written by
// internal/tools/bridgegen): an interface BridgeMethods with one line per method,
//
//	name(arg: Type): Result;   or   name(): Result;
//
// then an interface (or a type) per Go type the arguments and results hold, named by the Go
// type's name (with its package's name before it when two packages have a type of that name).
// Each struct field is its JSON name, `?` when omitempty. A type with its own MarshalJSON is
// written as its JSON is (customJSON); another such type is an error, never a guess.

// customJSON: the types whose JSON is not their fields', by their Go name.
var customJSON = map[string]string{
	"engine.Value": "number | string | null",
	"engine.Row":   "Value[] | null",
	"engine.Output": `{type: "barrier"; epoch: number; checkpoint: boolean; step: number}
  | {type: "chunk"; rows: OutRowJSON[]; step: number; source: string}
  | {type: "watermark"; column: string; value: Value; step: number}
  | {type: "recovery"; epoch: number; step: number}`,
	"workload.FaultKind": "string",
}

// customRefs: the named types a customJSON text refers to (walked so they are declared).
var customRefs = map[string][]string{
	"engine.Row":    {"engine.Value"},
	"engine.Output": {"engine.Value"},
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// types is every named type the methods' arguments and results hold, in the order first met,
// with its declared name.
type types struct {
	order []reflect.Type
	name  map[reflect.Type]string
	byGo  map[string]reflect.Type
	err   error
}

var (
	declOnce sync.Once
	decls    *types
)

func declared() *types {
	declOnce.Do(func() {
		d := &types{name: map[reflect.Type]string{}, byGo: map[string]reflect.Type{}}
		for _, m := range api.All() {
			d.walk(m.ArgType())
			d.walk(m.ResultType())
		}
		// names: the Go name, or the package's name and the Go name when two share it
		count := map[string]int{}
		for _, t := range d.order {
			count[goName(t)]++
		}
		for _, t := range d.order {
			n := exported(goName(t))
			if count[goName(t)] > 1 {
				n = exported(pkgName(t)) + n
			}
			d.name[t] = n
		}
		// every name a customJSON text uses is declared
		have := map[string]bool{}
		for _, n := range d.name {
			have[n] = true
		}
		for _, t := range d.order {
			for _, w := range strings.FieldsFunc(customJSON[qualified(t)], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
				if unicode.IsUpper([]rune(w)[0]) && !have[w] && d.err == nil {
					d.err = fmt.Errorf("api: %s's declaration names %s, which is not declared", qualified(t), w)
				}
			}
		}
		decls = d
	})
	return decls
}

func goName(t reflect.Type) string {
	n := t.Name()
	if i := strings.IndexByte(n, '['); i >= 0 {
		n = n[:i]
	}
	return n
}

func pkgName(t reflect.Type) string { return t.PkgPath()[strings.LastIndexByte(t.PkgPath(), '/')+1:] }

func qualified(t reflect.Type) string { return pkgName(t) + "." + goName(t) }

func exported(s string) string {
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// named reports whether t is declared by a name of its own (a named struct, or a type with its
// own JSON).
func named(t reflect.Type) bool {
	if t.Name() == "" || t.PkgPath() == "" {
		return false
	}
	if _, ok := customJSON[qualified(t)]; ok {
		return true
	}
	return t.Kind() == reflect.Struct && t != reflect.TypeFor[api.None]()
}

func (d *types) walk(t reflect.Type) {
	for !named(t) && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice && t != reflect.TypeFor[api.RawJSON]() || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
		t = t.Elem()
	}
	if !named(t) {
		if t.Kind() != reflect.Interface && (t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler)) && t != reflect.TypeFor[api.RawJSON]() && d.err == nil {
			d.err = fmt.Errorf("api: %s has its own JSON and no declaration (customJSON)", t)
		}
		return
	}
	if _, seen := d.byGo[qualified(t)]; seen {
		return
	}
	d.byGo[qualified(t)] = t
	d.order = append(d.order, t)
	if _, ok := customJSON[qualified(t)]; ok {
		for _, r := range customRefs[qualified(t)] {
			d.walkGo(t, r)
		}
		return
	}
	if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		if d.err == nil {
			d.err = fmt.Errorf("api: %s has its own JSON and no declaration (customJSON)", t)
		}
		return
	}
	for _, f := range fields(t) {
		d.walk(f.Type)
	}
}

// walkGo walks a type a customJSON text names: a field's type of the same package found by name.
func (d *types) walkGo(from reflect.Type, q string) {
	var find func(t reflect.Type, depth int) reflect.Type
	find = func(t reflect.Type, depth int) reflect.Type {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Name() != "" && qualified(t) == q {
			return t
		}
		if t.Kind() != reflect.Struct || depth > 3 {
			return nil
		}
		for i := range t.NumField() {
			if x := find(t.Field(i).Type, depth+1); x != nil {
				return x
			}
		}
		return nil
	}
	if x := find(from, 0); x != nil {
		d.walk(x)
	} else if d.err == nil {
		d.err = fmt.Errorf("api: %s (named by %s's declaration) is not found among its fields", q, qualified(from))
	}
}

// fields are a struct's fields as encoding/json writes them: exported, not "-", embedded
// structs' fields in their place.
func fields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Tag.Get("json") == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && f.Tag.Get("json") == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, fields(et)...)
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// ts is a type as the declarations write it.
func (d *types) ts(t reflect.Type) string {
	if n, ok := d.name[t]; ok {
		return n
	}
	switch t.Kind() {
	case reflect.Pointer:
		return d.ts(t.Elem()) + " | null"
	case reflect.Slice, reflect.Array:
		if t == reflect.TypeFor[api.RawJSON]() {
			return "object"
		}
		e := d.ts(t.Elem())
		if strings.Contains(e, " ") {
			e = "(" + e + ")"
		}
		return e + "[]"
	case reflect.Map:
		return "{[key: string]: " + d.ts(t.Elem()) + "}"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Interface:
		return "unknown"
	case reflect.Struct:
		if t == reflect.TypeFor[api.None]() {
			return "null"
		}
	}
	return "unknown"
}

// argTS is an argument's type: a pointer to an integer is "number | null" (left out: null).
func (d *types) argTS(t reflect.Type) string {
	if t.Kind() == reflect.Map {
		return "{[field: string]: unknown}"
	}
	return d.ts(t)
}

// resultName is a result's type as a method answers it: a pointer's is never null.
func resultName(t reflect.Type) string {
	d := declared()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return d.ts(t)
}

// Declaration is the text of web/boot/bridge.d.ts.
func Declaration() ([]byte, error) {
	d := declared()
	if d.err != nil {
		return nil, d.err
	}
	var b strings.Builder
	b.WriteString(`// Code generated by "go run ./internal/tools/bridgegen"; DO NOT EDIT.
// The wasm bridge's methods (wasm/api/api.go): the page calls one as
// call(name, JSON.stringify(arg)) and gets '{"ok": Result}' or '{"error": {message, line, column}}';
// a wrong call (a missing, extra or wrongly typed argument) is an error whose message ends
// "(usage: name(arg: type) → Result)". web/test/node/bridge-calls.test.mjs checks every call
// the page's modules make against these lines; internal/tools/bridgegen's test that this file
// is what the table declares.

export interface BridgeMethods {
`)
	for _, m := range api.All() {
		fmt.Fprintf(&b, "  /** %s */\n", m.Doc())
		arg := ""
		if at := m.ArgType(); at != reflect.TypeFor[api.None]() {
			opt := ""
			if at.Kind() == reflect.Pointer {
				opt = "?"
			}
			arg = m.ArgName() + opt + ": " + d.argTS(at)
		}
		fmt.Fprintf(&b, "  %s(%s): %s;\n", m.Name(), arg, resultName(m.ResultType()))
	}
	b.WriteString("}\n")
	sorted := slices.Clone(d.order)
	slices.SortStableFunc(sorted, func(x, y reflect.Type) int { return strings.Compare(d.name[x], d.name[y]) })
	for _, t := range sorted {
		fmt.Fprintf(&b, "\n/** %s */\n", t.String())
		if c, ok := customJSON[qualified(t)]; ok {
			fmt.Fprintf(&b, "export type %s = %s;\n", d.name[t], c)
			continue
		}
		fmt.Fprintf(&b, "export interface %s {\n", d.name[t])
		for _, f := range fields(t) {
			name, opt := api.FieldName(f)
			q := ""
			if opt {
				q = "?"
			}
			fmt.Fprintf(&b, "  %s%s: %s;\n", name, q, d.ts(f.Type))
		}
		b.WriteString("}\n")
	}
	return []byte(b.String()), nil
}

// UsageSource is the text of usage_gen.go: each method's usage (ComputeUsage), so that the wasm
// says it without reflecting on the declarations.
func UsageSource() ([]byte, error) {
	if d := declared(); d.err != nil {
		return nil, d.err
	}
	var b strings.Builder
	b.WriteString("// Code generated by \"go run ./internal/tools/bridgegen\"; DO NOT EDIT.\n\npackage api\n\n")
	b.WriteString("// usages: each method's usage (ComputeUsage), by name.\nvar usages = map[string]string{\n")
	for _, m := range api.All() {
		fmt.Fprintf(&b, "\t%q: %q,\n", m.Name(), ComputeUsage(m))
	}
	b.WriteString("}\n")
	return format.Source([]byte(b.String()))
}

// ComputeUsage is a method's usage from its types (what usage_gen.go holds).
func ComputeUsage(m api.Method) string {
	var b strings.Builder
	b.WriteString(m.Name())
	b.WriteByte('(')
	if t := m.ArgType(); t != reflect.TypeFor[api.None]() {
		b.WriteString(m.ArgName())
		b.WriteString(": ")
		b.WriteString(ArgWords(t))
	}
	b.WriteString(") → ")
	b.WriteString(resultName(m.ResultType()))
	return b.String()
}

// ArgWords says an argument's type in the usage: "string", "integer", "integer or null", or the
// object's fields.
func ArgWords(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.String:
		return "string"
	case t.Kind() == reflect.Int:
		return "integer"
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Int:
		return "integer or null"
	case t.Kind() == reflect.Map:
		return "object"
	case t.Kind() == reflect.Struct:
		var f []string
		for i := range t.NumField() {
			name, opt := api.FieldName(t.Field(i))
			ft := t.Field(i).Type
			w := "string"
			if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
				w = "{" + strings.Join(fieldNames(ft.Elem()), ", ") + "}"
			}
			if opt {
				name += "?"
			}
			f = append(f, name+": "+w)
		}
		return "{" + strings.Join(f, ", ") + "}"
	}
	return t.String()
}

func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		name, _ := api.FieldName(t.Field(i))
		out = append(out, name+"?")
	}
	return out
}
