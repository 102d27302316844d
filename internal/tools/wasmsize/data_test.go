package main

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeMemory lays out what the runtime finds through its module data, each part filled with a
// byte of its own, and returns it as segments that leave the zeros out (as the linker does).
func fakeMemory() ([]segment, map[string]int) {
	mem := make([]byte, 0x3000)
	fill := func(from, to int, c byte) {
		for i := from; i < to; i++ {
			mem[i] = c
		}
	}
	put := func(at int, v uint64) { binary.LittleEndian.PutUint64(mem[at:], v) }
	fill(0x100, 0x180, 't') // types, strings: 0x100..0x1000, half empty
	const hdr = 0x1000
	binary.LittleEndian.PutUint32(mem[hdr:], pcHeaderMagic)
	mem[hdr+6], mem[hdr+7] = 1, 8
	put(hdr+8, 1)     // nfunc
	put(hdr+16, 1)    // nfiles
	put(hdr+32, 0x48) // funcnameOffset
	fill(0x1048, 0x1058, 'n')
	fill(0x1058, 0x1060, 'c')
	fill(0x1060, 0x1068, 'f')
	fill(0x1068, 0x1080, 'p')
	fill(0x1080, 0x10a0, 'r')
	fill(0x10a0, 0x10b0, 'g')
	fill(0x10b0, 0x10b4, 'b') // find-function buckets 0x10b0..0x10c0, mostly zero
	fill(0x2000, 0x2010, 'o') // noptrdata
	const md = 0x2010         // data 0x2010..0x2200 holds the module data
	put(md, hdr)
	slice := func(off int, p, n uint64) { put(md+off, p); put(md+off+8, n); put(md+off+16, n) }
	slice(8, 0x1048, 16)
	slice(32, 0x1058, 2)
	slice(56, 0x1060, 8)
	slice(80, 0x1068, 24)
	slice(104, 0x1080, 32)
	put(md+152, 0x10b0) // findfunctab
	put(md+192, 0x2000) // noptrdata
	put(md+200, 0x2010) // enoptrdata
	put(md+208, 0x2010) // data
	put(md+216, 0x2200) // edata
	put(md+296, 0x100)  // types
	put(md+304, 0x1000) // etypes
	put(md+312, 0x100)  // rodata
	put(md+320, 0x10a0) // gofunc
	put(md+328, 0x10c0) // epclntab
	var segs []segment
	for i := 0; i < len(mem); {
		if mem[i] == 0 {
			i++
			continue
		}
		j := i
		for j < len(mem) && !bytes.Equal(mem[j:min(j+8, len(mem))], make([]byte, min(8, len(mem)-j))) {
			j++
		}
		segs = append(segs, segment{addr: uint64(i), b: mem[i:j]})
		i = j
	}
	nonzeroData := 0
	for _, c := range mem[0x2010:0x2200] {
		if c != 0 {
			nonzeroData++
		}
	}
	return segs, map[string]int{
		"read-only data: type descriptors, strings, constants":       0x80,
		"pc-line table: function names":                              16,
		"pc-line table: compilation units":                           8,
		"pc-line table: file names":                                  8,
		"pc-line table: pc-value tables":                             24,
		"pc-line table: function records":                            32,
		"pc-line table: go:func.* (stack maps, other function data)": 16,
		"pc-line table: find-function buckets":                       4,
		"initialized variables without pointers":                     16,
	}
}

func TestAttributeData(t *testing.T) {
	segs, want := fakeMemory()
	parts, err := attributeData(segs)
	require.NoError(t, err)
	got := map[string]int{}
	total, inSegs := 0, 0
	for _, p := range parts {
		got[p.name] = p.bytes
		total += p.bytes
	}
	for _, s := range segs {
		inSegs += len(s.b)
	}
	assert.Equal(t, inSegs, total, "every byte of the segments is given to one part")
	for name, n := range want {
		assert.Equal(t, n, got[name], name)
	}
	assert.Positive(t, got["initialized variables"], "the module data itself")
	assert.Zero(t, got["(elsewhere: not in any part the module data names)"])
	var out strings.Builder
	printData(&out, parts, 7)
	assert.Contains(t, out.String(), "pc-line table: function names")

	// the segments read back from a data section
	body := leb(len(segs))
	for _, s := range segs {
		body = append(body, 0, 0x41)
		body = append(body, sleb(int64(s.addr))...)
		body = append(body, 0x0b)
		body = append(append(body, leb(len(s.b))...), s.b...)
	}
	back, err := readSegments(body)
	require.NoError(t, err)
	assert.Equal(t, segs, back)
}

func TestAttributeDataWithoutGo(t *testing.T) {
	_, err := attributeData([]segment{{addr: 16, b: []byte("no tables here")}})
	assert.ErrorContains(t, err, "no Go pc-line table")
}

func sleb(v int64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
