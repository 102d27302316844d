package wasmpack

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seg is a data segment for the modules the tests build.
type seg struct {
	kind int // 0 active (i32.const addr), 1 passive, 3 active at global.get 0
	addr int32
	data string
}

// module builds a module with one memory (exported as "mem"), a custom section, the segments,
// and a DataCount section when dataCount.
func module(segs []seg, dataCount bool) []byte {
	var b bytes.Buffer
	b.WriteString("\x00asm\x01\x00\x00\x00")
	custom := append(appendUleb(nil, 4), "note"...)
	custom = append(custom, "kept as it is"...)
	writeSection(&b, 0, custom)
	writeSection(&b, 5, []byte{1, 0, 2})                   // one memory, min 2 pages
	writeSection(&b, 7, []byte{1, 3, 'm', 'e', 'm', 2, 0}) // export "mem" = memory 0
	if dataCount {
		writeSection(&b, sectionDataCount, appendUleb(nil, uint64(len(segs))))
	}
	body := appendUleb(nil, uint64(len(segs)))
	for _, s := range segs {
		switch s.kind {
		case 0:
			body = append(body, 0, 0x41)
			body = appendSleb(body, int64(s.addr))
			body = append(body, 0x0b)
		case 1:
			body = append(body, 1)
		case 3:
			body = append(body, 0, 0x23, 0, 0x0b)
		}
		body = appendUleb(body, uint64(len(s.data)))
		body = append(body, s.data...)
	}
	writeSection(&b, sectionData, body)
	return b.Bytes()
}

// segmentsOf reads back a module's data segments.
func segmentsOf(t *testing.T, m []byte) []segment {
	t.Helper()
	r := &reader{b: m, off: 8}
	for r.off < len(m) {
		id, err := r.byte()
		require.NoError(t, err)
		n, err := r.uleb()
		require.NoError(t, err)
		body, err := r.bytes(n)
		require.NoError(t, err)
		if id == sectionData {
			segs, err := readSegments(body)
			require.NoError(t, err)
			return segs
		}
	}
	t.Fatal("no data section")
	return nil
}

func sectionBody(t *testing.T, m []byte, want byte) []byte {
	t.Helper()
	r := &reader{b: m, off: 8}
	for r.off < len(m) {
		id, _ := r.byte()
		n, _ := r.uleb()
		body, err := r.bytes(n)
		require.NoError(t, err)
		if id == want {
			return body
		}
	}
	return nil
}

type placed struct {
	addr uint32
	data string
}

func simple(segs []segment) []placed {
	var out []placed
	for _, s := range segs {
		if s.simple {
			out = append(out, placed{s.addr, string(s.data)})
		} else {
			out = append(out, placed{^uint32(0), "kind " + fmt.Sprint(s.raw[0])})
		}
	}
	return out
}

func TestMergeFillsSmallGapsWithZeros(t *testing.T) {
	m := module([]seg{{0, 0, "ab"}, {0, 4, "cd"}, {0, 6, "e"}, {0, 7 + 64, "f"}, {0, 72 + 65, "g"}}, false)
	out, st, err := Merge(m, 64)
	require.NoError(t, err)
	assert.Equal(t, []placed{{0, "ab\x00\x00cde" + strings.Repeat("\x00", 64) + "f"}, {137, "g"}}, simple(segmentsOf(t, out)))
	assert.Equal(t, Stats{SegmentsBefore: 5, SegmentsAfter: 2, ZerosAdded: 66, SizeBefore: len(m), SizeAfter: len(out)}, st)
	assert.Equal(t, sectionBody(t, m, 0), sectionBody(t, out, 0), "a custom section is copied as it was")
	assert.Equal(t, sectionBody(t, m, 7), sectionBody(t, out, 7))

	// a gap of zero bytes merges with any bound; a negative one never
	out, _, err = Merge(module([]seg{{0, 0, "ab"}, {0, 2, "cd"}, {0, 3, "x"}}, false), 0)
	require.NoError(t, err)
	assert.Equal(t, []placed{{0, "abcd"}, {3, "x"}}, simple(segmentsOf(t, out)))
}

func TestMergeLeavesPassiveSegmentsAlone(t *testing.T) {
	// every segment up to the last passive one keeps its index (memory.init and data.drop name
	// passive segments by index); active ones after it merge
	m := module([]seg{{0, 0, "a"}, {0, 1, "b"}, {1, 0, "p"}, {0, 2, "c"}, {0, 3, "d"}}, false)
	out, st, err := Merge(m, 64)
	require.NoError(t, err)
	assert.Equal(t, []placed{{0, "a"}, {1, "b"}, {^uint32(0), "kind 1"}, {2, "cd"}}, simple(segmentsOf(t, out)))
	assert.Equal(t, 4, st.SegmentsAfter)
	assert.Equal(t, "p", string(segmentsOf(t, out)[2].data))
}

func TestMergeUpdatesDataCount(t *testing.T) {
	m := module([]seg{{0, 0, "a"}, {0, 10, "b"}, {0, 20, "c"}, {0, 1000, "d"}}, true)
	assert.Equal(t, []byte{4}, sectionBody(t, m, sectionDataCount))
	out, _, err := Merge(m, 64)
	require.NoError(t, err)
	assert.Equal(t, []byte{2}, sectionBody(t, out, sectionDataCount))
	assert.Len(t, segmentsOf(t, out), 2)
	validate(t, out)
	mem := memories(t, 1100, m, out)
	assert.True(t, mem[0] == mem[1], "the memory differs once merged")
}

func TestMergeKeepsWhatAnotherSegmentWrote(t *testing.T) {
	// "x" at 10 lies in the gap between "a" (at 0) and "b" (at 20): zeros there would erase it
	m := module([]seg{{0, 10, "x"}, {0, 0, "a"}, {0, 20, "b"}, {0, 21, "c"}}, false)
	out, _, err := Merge(m, 64)
	require.NoError(t, err)
	assert.Equal(t, []placed{{10, "x"}, {0, "a"}, {20, "bc"}}, simple(segmentsOf(t, out)))
	// a segment that goes back (starts before the previous one's end) is not joined to it
	out, _, err = Merge(module([]seg{{0, 4, "abcd"}, {0, 6, "zz"}}, false), 64)
	require.NoError(t, err)
	assert.Equal(t, []placed{{4, "abcd"}, {6, "zz"}}, simple(segmentsOf(t, out)))
}

func TestMergeStopsAtAnOffsetItCannotRead(t *testing.T) {
	// an active segment at global.get 0 could be anywhere: nothing merges
	m := module([]seg{{0, 0, "a"}, {0, 1, "b"}, {3, 0, "g"}, {0, 2, "c"}}, false)
	out, st, err := Merge(m, 64)
	require.NoError(t, err)
	assert.Equal(t, m, out)
	assert.Equal(t, 4, st.SegmentsAfter)
}

func TestMergeHighAddresses(t *testing.T) {
	// addresses at or above 2^31 are negative i32.const values
	m := module([]seg{{0, -16, "ab"}, {0, -12, "cd"}}, false)
	out, _, err := Merge(m, 64)
	require.NoError(t, err)
	assert.Equal(t, []placed{{1<<32 - 16, "ab\x00\x00cd"}}, simple(segmentsOf(t, out)))
}

func TestMergeRefusesWhatIsNotAModule(t *testing.T) {
	_, _, err := Merge([]byte("hello, world"), 64)
	assert.ErrorContains(t, err, "not a WebAssembly module")
	m := module([]seg{{0, 0, "abcdef"}}, false)
	_, _, err = Merge(m[:len(m)-2], 64)
	assert.ErrorContains(t, err, "truncated")
	bad := module([]seg{{0, 0, "a"}}, false)
	bad[len(bad)-6] = 7 // the segment's kind
	_, _, err = Merge(bad, 64)
	assert.ErrorContains(t, err, "unknown kind 7")
}

func TestLEB128RoundTrip(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, 64, -64, -65, 1<<31 - 1, -1 << 31, 123456789} {
		r := &reader{b: appendSleb(nil, v)}
		got, err := r.sleb32()
		require.NoError(t, err)
		assert.Equal(t, int32(v), got)
		assert.Equal(t, len(r.b), r.off)
	}
	for _, v := range []uint64{0, 127, 128, 1<<32 - 1} {
		r := &reader{b: appendUleb(nil, v)}
		got, err := r.uleb()
		require.NoError(t, err)
		assert.Equal(t, int(v), got)
	}
}

// node returns the path of node, or skips the test.
func node(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	return p
}

// validate checks a module with WebAssembly.validate under Node.
func validate(t *testing.T, m []byte) {
	t.Helper()
	n := node(t)
	f := filepath.Join(t.TempDir(), "m.wasm")
	require.NoError(t, os.WriteFile(f, m, 0o644))
	out, err := exec.Command(n, "-e", `process.exit(WebAssembly.validate(require("fs").readFileSync(process.argv[1])) ? 0 : 1)`, f).CombinedOutput()
	require.NoError(t, err, "WebAssembly.validate: %s", out)
}

// memories instantiates modules under Node and returns the first n bytes of each one's memory.
func memories(t *testing.T, n int, ms ...[]byte) []string {
	t.Helper()
	dir := t.TempDir()
	args := []string{"-e", `
const fs = require("fs");
for (const f of process.argv.slice(1)) { // (with -e, the arguments start at 1)
  const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(f)), {});
  console.log(Buffer.from(instance.exports.mem.buffer, 0, ` + fmt.Sprint(n) + `).toString("hex"));
}`}
	for i, m := range ms {
		f := filepath.Join(dir, fmt.Sprintf("m%d.wasm", i))
		require.NoError(t, os.WriteFile(f, m, 0o644))
		args = append(args, f)
	}
	out, err := exec.Command(node(t), args...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Fields(string(out))
	require.Len(t, lines, len(ms))
	return lines
}

// TestMergedMemoryIsTheSame: random layouts (gaps of every size, overlaps, segments out of
// order, passive ones) give the same memory at start, merged or not.
func TestMergedMemoryIsTheSame(t *testing.T) {
	node(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var ms [][]byte
	before, after := 0, 0
	for round := 0; round < 16; round++ {
		var segs []seg
		addr := 0
		for i := 0; i < 40; i++ {
			switch rng.IntN(10) {
			case 0:
				addr = rng.IntN(4000) // jump anywhere, back or forth
			case 1:
				if round%4 == 0 {
					segs = append(segs, seg{1, 0, "passive"})
					continue
				}
			}
			data := make([]byte, 1+rng.IntN(20))
			for k := range data {
				data[k] = byte(1 + rng.IntN(255))
			}
			segs = append(segs, seg{0, int32(addr), string(data)})
			addr += len(data) + rng.IntN(100) - 5
			addr = max(addr, 0)
		}
		m := module(segs, round%2 == 0)
		out, st, err := Merge(m, 64)
		require.NoError(t, err)
		before, after = before+st.SegmentsBefore, after+st.SegmentsAfter
		ms = append(ms, m, out)
	}
	assert.Less(t, after, before, "the random layouts merge")
	mem := memories(t, 5000, ms...)
	for i := 0; i < len(ms); i += 2 {
		assert.True(t, mem[i] == mem[i+1], "layout %d: the memory differs once merged", i/2)
	}
}

// TestMergedExplainerAnswersAsLinked builds the explainer's wasm, merges it, and runs both
// under Node: every list, every built-in's views at every step (by step and by goto), its
// state, text and export, under every bug mode and release v2.7, the same answers.
func TestMergedExplainerAnswersAsLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm")
	}
	n := node(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", plain, "../../wasm")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	m, err := os.ReadFile(plain)
	require.NoError(t, err)
	merged, st, err := Merge(m, 64)
	require.NoError(t, err)
	assert.Less(t, st.SegmentsAfter*100, st.SegmentsBefore, "the linker's segments merge into a few")
	mergedFile := filepath.Join(dir, "merged.wasm")
	require.NoError(t, os.WriteFile(mergedFile, merged, 0o644))

	wasmExec := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
	run := func(f string) string {
		out, err := exec.Command(n, "testdata/views.mjs", f, wasmExec).Output()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	want, got := run(plain), run(mergedFile)
	require.Greater(t, strings.Count(want, "\nscenario "), 20, "every built-in ran:\n%s", want)
	assert.Equal(t, want, got)
}
