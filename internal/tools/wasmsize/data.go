package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// The data section holds the linear memory's initial contents as segments (the Go linker leaves
// runs of zeros out, so a wasm has tens of thousands of segments, each with a few bytes of
// header). It has no names, but Go's runtime finds its own tables in it through the module data
// (runtime.moduledata), which points at each: the pc-line table (function names, pc-value
// tables, function records, function data, the find-function buckets), the read-only data (type
// descriptors, among which Go places string literals and other constants), and the initialized
// variables. attributeData finds the module data as the runtime would (from the pc-line table's
// magic number) and gives each byte of the segments to the part it lies in. The offsets are
// Go 1.26's runtime.moduledata (runtime/symtab.go) on a 64-bit target.

// segment is one active data segment: its bytes, placed at addr.
type segment struct {
	addr uint64
	b    []byte
}

// readSegments reads the data section's active segments (Go writes only those: memory 0, an
// i32.const offset).
func readSegments(body []byte) ([]segment, error) {
	r := &reader{b: body}
	n, err := r.uleb()
	if err != nil {
		return nil, err
	}
	var segs []segment
	for i := 0; i < n; i++ {
		flags, err := r.uleb()
		if err != nil {
			return nil, err
		}
		if flags != 0 {
			return nil, fmt.Errorf("data segment %d: kind %d is not an active segment of memory 0", i, flags)
		}
		op, err := r.byte()
		if err != nil {
			return nil, err
		}
		if op != 0x41 { // i32.const
			return nil, fmt.Errorf("data segment %d: offset is not an i32.const", i)
		}
		addr, err := r.sleb()
		if err != nil {
			return nil, err
		}
		if end, err := r.byte(); err != nil || end != 0x0b {
			return nil, fmt.Errorf("data segment %d: offset expression does not end", i)
		}
		size, err := r.uleb()
		if err != nil {
			return nil, err
		}
		b, err := r.bytes(size)
		if err != nil {
			return nil, err
		}
		segs = append(segs, segment{addr: uint64(uint32(addr)), b: b})
	}
	return segs, nil
}

func (r *reader) sleb() (int64, error) {
	var v int64
	var shift uint
	for shift < 64 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, nil
		}
	}
	return 0, errors.New("bad LEB128")
}

// part is a named range of memory [start, end).
type part struct {
	name       string
	start, end uint64
}

// dataPart is a part's share of the data section.
type dataPart struct {
	name  string
	bytes int // bytes of segments within it (what it adds to the file)
	span  int // its size in memory, zeros included
}

const pcHeaderMagic = 0xfffffff1 // abi.Go120PCLnTabMagic (Go 1.20 and later)

// attributeData finds the module data in the segments and splits their bytes by part.
func attributeData(segs []segment) ([]dataPart, error) {
	var top uint64
	for _, s := range segs {
		top = max(top, s.addr+uint64(len(s.b)))
	}
	if top > 1<<30 {
		return nil, errors.New("data reaches past 1 GiB")
	}
	mem := make([]byte, top+8) // a word read at the end sees the zeros the segments leave out
	for _, s := range segs {
		copy(mem[s.addr:], s.b)
	}
	u64 := func(a uint64) uint64 {
		if a+8 > uint64(len(mem)) {
			return 0
		}
		return binary.LittleEndian.Uint64(mem[a:])
	}
	// the pc-line table's header: magic, two pad bytes, minLC 1, pointer size 8
	var hdr uint64
	found := false
	for a := uint64(0); a+8 <= top; a += 8 {
		if binary.LittleEndian.Uint32(mem[a:]) == pcHeaderMagic && mem[a+4] == 0 && mem[a+5] == 0 && mem[a+6] == 1 && mem[a+7] == 8 {
			hdr, found = a, true
			break
		}
	}
	if !found {
		return nil, errors.New("no Go pc-line table in the data (not a Go 1.20+ wasm?)")
	}
	funcnameOff := u64(hdr + 32) // pcHeader: magic+pads (8), nfunc, nfiles, unused, funcnameOffset
	// the module data: a word equal to the header's address, then funcnametab's pointer
	var md uint64
	found = false
	for a := uint64(0); a+16 <= top; a += 8 {
		if u64(a) == hdr && u64(a+8) == hdr+funcnameOff {
			md, found = a, true
			break
		}
	}
	if !found {
		return nil, errors.New("no runtime.moduledata pointing at the pc-line table")
	}
	slice := func(off uint64) (uint64, uint64) { return u64(md + off), u64(md + off + 8) } // pointer, length
	fn, fnLen := slice(8)
	cu, cuLen := slice(32)
	ft, ftLen := slice(56)
	pc, pcLen := slice(80)
	pcl, pclLen := slice(104)
	findfunctab := u64(md + 152)
	noptrdata, enoptrdata := u64(md+192), u64(md+200)
	data, edata := u64(md+208), u64(md+216)
	types, etypes := u64(md+296), u64(md+304)
	gofunc, epclntab := u64(md+320), u64(md+328)
	parts := []part{
		{"pc-line table: function names", fn, fn + fnLen},
		{"pc-line table: compilation units", cu, cu + 4*cuLen},
		{"pc-line table: file names", ft, ft + ftLen},
		{"pc-line table: pc-value tables", pc, pc + pcLen},
		{"pc-line table: function records", pcl, pcl + pclLen},
		{"pc-line table: go:func.* (stack maps, other function data)", gofunc, findfunctab},
		{"pc-line table: find-function buckets", findfunctab, epclntab},
		{"pc-line table: header", hdr, hdr + funcnameOff},
		// Go places string literals and other constants among the type descriptors.
		{"read-only data: type descriptors, strings, constants", types, etypes},
		{"type and itab links", epclntab, noptrdata},
		{"initialized variables without pointers", noptrdata, enoptrdata},
		{"initialized variables", data, edata},
	}
	return splitSegments(segs, parts), nil
}

// splitSegments counts each segment byte in the first part (in the list's order) that holds it:
// the pc-line table's sub-tables come before the whole table.
func splitSegments(segs []segment, parts []part) []dataPart {
	out := make([]dataPart, len(parts)+1)
	for i, p := range parts {
		out[i] = dataPart{name: p.name, span: int(p.end - p.start)}
	}
	out[len(parts)].name = "(elsewhere: not in any part the module data names)"
	for _, s := range segs {
		for a := s.addr; a < s.addr+uint64(len(s.b)); {
			end := s.addr + uint64(len(s.b))
			k := len(parts)
			for i, p := range parts {
				if a >= p.start && a < p.end {
					k = i
					end = min(end, p.end)
					break
				}
				if p.start > a && p.start < end {
					end = p.start // the run up to the next part's start
				}
			}
			out[k].bytes += int(end - a)
			a = end
		}
	}
	return out
}

func printData(w io.Writer, parts []dataPart, total int) {
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].bytes > parts[j].bytes })
	fmt.Fprintf(w, "%-60s %10s %10s\n", "data section, by what the runtime's module data names", "in file", "in memory")
	for _, p := range parts {
		if p.bytes == 0 && p.span == 0 {
			continue
		}
		fmt.Fprintf(w, "  %-58s %10d %10d\n", p.name, p.bytes, p.span)
	}
	fmt.Fprintf(w, "  %-58s %10d\n", "(segment headers)", total)
}
