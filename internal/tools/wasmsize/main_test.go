package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// section frames a wasm section: id, LEB128 size, body.
func section(id byte, body []byte) []byte {
	return append(append([]byte{id}, leb(len(body))...), body...)
}

func leb(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func str(s string) []byte { return append(leb(len(s)), s...) }

// module builds a module with one imported function and the given function bodies and names.
func module(bodies [][]byte, names []string) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, section(1, []byte{1, 0x60, 0, 0})...) // one type: () -> ()
	imp := append([]byte{1}, str("go")...)
	imp = append(append(imp, str("debug")...), 0, 0) // func of type 0
	m = append(m, section(2, imp)...)
	fn := leb(len(bodies))
	for range bodies {
		fn = append(fn, 0)
	}
	m = append(m, section(3, fn)...)
	code := leb(len(bodies))
	for _, b := range bodies {
		code = append(append(code, leb(len(b))...), b...)
	}
	m = append(m, section(10, code)...)
	m = append(m, section(11, []byte{0})...)
	sub := leb(len(names))
	for i, n := range names {
		sub = append(append(sub, leb(i+1)...), str(n)...) // index 0 is the import
	}
	name := append(str("name"), 1)
	name = append(append(name, leb(len(sub))...), sub...)
	return append(m, section(0, name)...)
}

func TestAnalyzeSumsBodiesByPackage(t *testing.T) {
	body := func(n int) []byte { return append([]byte{0}, bytes.Repeat([]byte{1}, n-2)...) } // locals 0, n-2 bytes, end
	m := module([][]byte{append(body(10), 0x0b), append(body(200), 0x0b), append(body(30), 0x0b)}, []string{
		"runtime.mallocgc",
		"github.com_backfill_explainer_engine.__Engine_.Apply",
		"go.yaml.in_yaml_v3.__parser_.parse",
	})
	r, err := analyze(m)
	require.NoError(t, err)
	assert.True(t, r.hasNames)
	assert.Equal(t, 3, r.funcs)
	assert.Equal(t, 10+1, r.byPkg["runtime"]) // body and its size byte
	assert.Equal(t, 200+2, r.byPkg["github.com/backfill/explainer/engine"])
	assert.Equal(t, 30+1, r.byPkg["go.yaml.in/yaml/v3"])
	assert.Equal(t, len(m), r.total)
	var out strings.Builder
	r.print(&out, 10)
	assert.Contains(t, out.String(), "go.yaml.in/yaml/v3")
}

func TestAnalyzeRefusesOtherFiles(t *testing.T) {
	_, err := analyze([]byte("not wasm at all"))
	assert.Error(t, err)
	_, err = analyze(module([][]byte{{0, 0x0b}}, []string{"main.main"})[:30])
	assert.Error(t, err)
}

func TestPkgOf(t *testing.T) {
	for name, want := range map[string]string{
		"runtime.gc_foo":                   "runtime",
		"internal_runtime_maps.__Map_.Get": "internal/runtime/maps",
		"golang.org_x_net_html.parse":      "golang.org/x/net/html",
		"main.main":                        "main",
	} {
		assert.Equal(t, want, pkgOf(name), name)
	}
}
