package jsonw

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encode is encoding/json's output for v, as the bridge's Encoder writes it (html false) or as
// json.Marshal does (html true).
func encode(t testing.TB, v any, html bool) string {
	t.Helper()
	if html {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return strings.TrimSuffix(buf.String(), "\n")
}

var tricky = []string{
	"", "plain", `quote " and \ backslash`, "<a href='x'>&amp;</a>", "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "ünïcødé ✓ ✗ → …", "\u2028 and \u2029", "bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate bytes",
	"emoji 😀", strings.Repeat("long ", 100),
}

func checkString(t *testing.T, s string) {
	t.Helper()
	assert.Equal(t, encode(t, s, false), string(String(nil, s)), "%q", s)
	assert.Equal(t, encode(t, s, true), string(StringHTML(nil, s)), "%q", s)
	assert.Equal(t, "x"+encode(t, s, false), string(String([]byte("x"), s)), "appends")
}

func TestStringAsEncodingJSON(t *testing.T) {
	for _, s := range tricky {
		checkString(t, s)
	}
	for c := 0; c < 256; c++ {
		checkString(t, "a"+string(rune(c))+"b")
		checkString(t, "a"+string([]byte{byte(c)})+"b")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		checkString(t, string(b))
	}
}

func FuzzString(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkString(t, s) })
}

func TestFloatAsEncodingJSON(t *testing.T) {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.0 / 3, 1e-6, 9.99999e-7, 1e-7, 1e20, 1e21, 123456789e13,
		math.MaxFloat64, math.SmallestNonzeroFloat64, -1e-9, 2.5e-10, 0.1, 100, 1e6, 12345.678}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		fs = append(fs, math.Float64frombits(r.Uint64()), r.Float64(), float64(r.IntN(10000))/10000, r.NormFloat64()*1e25)
	}
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			assert.Equal(t, "null", string(Float(nil, f)))
			continue
		}
		assert.Equal(t, encode(t, f, false), string(Float(nil, f)), "%v", f)
	}
}

func TestScalarsAndListsAsEncodingJSON(t *testing.T) {
	for _, i := range []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 42} {
		assert.Equal(t, encode(t, i, false), string(Int(nil, i)))
	}
	for _, u := range []uint64{0, 1, math.MaxUint64} {
		assert.Equal(t, encode(t, u, false), string(Uint(nil, u)))
	}
	assert.Equal(t, "true", string(Bool(nil, true)))
	assert.Equal(t, "false", string(Bool(nil, false)))
	for _, xs := range [][]string{nil, {}, {"a"}, {"a", "<b>", ""}} {
		assert.Equal(t, encode(t, xs, false), string(Strings(nil, xs)))
	}
	for _, xs := range [][]int{nil, {}, {1}, {1, -2, 3}} {
		assert.Equal(t, encode(t, xs, false), string(Ints(nil, xs)))
	}
	for _, xs := range [][]int64{nil, {}, {7}, {math.MinInt64, 0}} {
		assert.Equal(t, encode(t, xs, false), string(Int64s(nil, xs)))
	}
	assert.Equal(t, encode(t, [2]int{672, 687}, false), string(Lines(nil, [2]int{672, 687})))
	each := func(x *int, b []byte) []byte { return Int(b, int64(*x)) }
	for _, xs := range [][]int{nil, {}, {5, 6}} {
		assert.Equal(t, encode(t, xs, false), string(List(nil, xs, each)))
	}
	// a map: its keys sorted as encoding/json sorts them, escaped with or without HTML escaping
	for _, m := range []map[string]string{nil, {}, {"b": "2", "a": "1"}, {"<z>": "&", "é": "\u2028", "": "x", "A": "<"}} {
		assert.Equal(t, encode(t, m, false), string(Map(nil, m, String, String)))
		assert.Equal(t, encode(t, m, true), string(Map(nil, m, StringHTML, StringHTML)))
	}
	ints := map[string]int64{"z": -1, "m": math.MaxInt64, "a": 0}
	assert.Equal(t, encode(t, ints, false), string(Map(nil, ints, String, Int)))
}

// ---- Decode ----

// decodeRef is encoding/json's reading of text into an `any`, numbers as json.Number.
func decodeRef(text string) (any, error) {
	if !json.Valid([]byte(text)) {
		return nil, &SyntaxError{Msg: "invalid"}
	}
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return fromRef(v), nil
}

// fromRef turns json.Number into Number, to compare with Decode.
func fromRef(v any) any {
	switch x := v.(type) {
	case json.Number:
		return Number(x)
	case []any:
		for i := range x {
			x[i] = fromRef(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = fromRef(x[k])
		}
	}
	return v
}

var decodeCases = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-12.5e+3`, `1E2`, `0.0001`, `123456789012345678901234567890`,
	`""`, `"abc"`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u2028"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00\ud800x"`,
	`"\ud800\u0041"`, `"\ud83d\ud83d\ude00"`, "\"bad \xff\"", "\"\xed\xa0\x80\"", `"é ✓"`,
	`[]`, `[1,"a",null,true,[],{}]`, `{}`, ` {"kind": "barrier", "epoch": 9, "rows": ["+ 1 2"]} `,
	`{"a":1,"a":2}`, `{"nested":{"x":[1,{"y":null}]}}`, "\t\n\r 5 \n",
	// malformed
	``, ` `, `nul`, `nulls`, `tru`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x10`, `NaN`, `Infinity`,
	`"unterminated`, `"bad \q escape"`, `"\u12"`, `"\u12G4"`, "\"ctl \x01\"", `[1,]`, `[1 2]`, `{"a"}`, `{"a":}`,
	`{"a":1,}`, `{a:1}`, `{"a":1 "b":2}`, `[`, `{`, `{"a":1`, `1 2`, `5]`, `5}`, `"a" "b"`, `[1]]`, `'single'`,
	`{"a":1}x`, "\"\\ud800\\uZZZZ\"", `[[[[`, "\x00",
}

func checkDecode(t *testing.T, text string) {
	t.Helper()
	want, wantErr := decodeRef(text)
	got, err := Decode(text)
	if wantErr != nil {
		assert.Error(t, err, "%q: encoding/json refuses it", text)
		return
	}
	if assert.NoError(t, err, "%q", text) {
		assert.True(t, reflect.DeepEqual(want, got), "%q: got %#v, want %#v", text, got, want)
	}
}

func TestDecodeAsEncodingJSON(t *testing.T) {
	for _, c := range decodeCases {
		checkDecode(t, c)
	}
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	_, err := Decode(deep)
	assert.NoError(t, err, "10,000 levels, encoding/json's limit")
	_, err = Decode("[" + deep + "]")
	assert.Error(t, err, "10,001 levels")
	_, err = json.Marshal(json.RawMessage("[" + deep + "]"))
	assert.Error(t, err, "encoding/json refuses 10,001 levels too")
}

func FuzzDecode(f *testing.F) {
	for _, c := range decodeCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, text string) { checkDecode(t, text) })
}

func TestNumberConversions(t *testing.T) {
	f, err := Number("1.5e2").Float64()
	assert.NoError(t, err)
	assert.Equal(t, 150.0, f)
	_, err = Number("1e999").Float64()
	assert.Error(t, err, "json.Unmarshal refuses a number out of float64's range")
	var x any
	assert.Error(t, json.Unmarshal([]byte("1e999"), &x))
	i, err := Number("-42").Int64()
	assert.NoError(t, err)
	assert.Equal(t, int64(-42), i)
	for _, n := range []Number{"1.0", "1e2", "99999999999999999999"} {
		_, err := n.Int64()
		_, refErr := json.Number(n).Int64()
		assert.Error(t, err, n)
		assert.Error(t, refErr, n)
	}
}
