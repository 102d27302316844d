// Package wasmpack shrinks a linked WebAssembly module by merging its data segments.
//
// The Go linker leaves runs of zeros out of the data section, so a Go wasm holds tens of
// thousands of active segments, each with its own few bytes of header (flags, an i32.const
// offset, a length) that compress poorly. Merge joins neighbouring segments whose gap is at most
// a bound, writing the gap as zeros: the memory a module starts with is the same, in fewer bytes.
//
// Only active segments of memory 0 with an i32.const offset are merged, and only when the result
// is the same memory: the next segment starts at or after the run's end, and no segment before it
// in the section wrote to the gap (so the zeros written there overwrite nothing). Passive
// segments, and every segment before the last passive one, keep their place, so the index of
// every passive segment (which memory.init and data.drop name) is unchanged; a DataCount section
// is rewritten with the new count. Every other section is copied byte for byte.
package wasmpack

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
)

// Section ids of the WebAssembly binary format.
const (
	sectionData      = 11
	sectionDataCount = 12
)

// Stats says what Merge did.
type Stats struct {
	SegmentsBefore, SegmentsAfter int
	ZerosAdded                    int // gap bytes written as zeros
	SizeBefore, SizeAfter         int // of the whole module
}

// segment is one data segment as read, and, for an active segment of memory 0 with an
// i32.const offset, its address.
type segment struct {
	raw    []byte // the whole encoded segment (flags, offset or memory index, bytes)
	simple bool   // active, memory 0, offset an i32.const
	addr   uint32
	data   []byte
}

// Merge returns module with its data segments merged where the gap between one and the next is
// at most maxGap bytes. A module without a data section is returned unchanged.
func Merge(module []byte, maxGap int) ([]byte, Stats, error) {
	st := Stats{SizeBefore: len(module)}
	if len(module) < 8 || string(module[:4]) != "\x00asm" {
		return nil, st, errors.New("wasmpack: not a WebAssembly module")
	}
	if maxGap < 0 {
		return nil, st, errors.New("wasmpack: negative gap")
	}
	out := bytes.NewBuffer(make([]byte, 0, len(module)))
	out.Write(module[:8])
	r := &reader{b: module, off: 8}
	dataCountAt := -1 // where the DataCount section's body starts in out, to rewrite it
	newCount := -1
	for r.off < len(module) {
		id, err := r.byte()
		if err != nil {
			return nil, st, err
		}
		size, err := r.uleb()
		if err != nil {
			return nil, st, err
		}
		body, err := r.bytes(size)
		if err != nil {
			return nil, st, fmt.Errorf("wasmpack: section %d: %w", id, err)
		}
		switch id {
		case sectionData:
			segs, err := readSegments(body)
			if err != nil {
				return nil, st, fmt.Errorf("wasmpack: data section: %w", err)
			}
			merged, zeros := merge(segs, maxGap)
			st.SegmentsBefore, st.SegmentsAfter, st.ZerosAdded = len(segs), len(merged), zeros
			newCount = len(merged)
			writeSection(out, id, encodeSegments(merged))
		case sectionDataCount:
			dataCountAt = out.Len()
			writeSection(out, id, body)
		default:
			writeSection(out, id, body)
		}
	}
	b := out.Bytes()
	if dataCountAt >= 0 && newCount >= 0 {
		// The DataCount section precedes the code and data sections: rebuild the module with
		// the new count (its length may change).
		var fixed bytes.Buffer
		fixed.Write(b[:dataCountAt])
		rr := &reader{b: b, off: dataCountAt + 1}
		size, err := rr.uleb()
		if err != nil {
			return nil, st, err
		}
		writeSection(&fixed, sectionDataCount, appendUleb(nil, uint64(newCount)))
		fixed.Write(b[rr.off+size:])
		b = fixed.Bytes()
	}
	st.SizeAfter = len(b)
	return b, st, nil
}

// merge joins runs of simple segments (after the last passive one) whose gaps are at most
// maxGap and touch no other segment. It returns the segments and the zeros added.
func merge(segs []segment, maxGap int) ([]segment, int) {
	lastPassive := -1
	for i, s := range segs {
		if isPassive(s) {
			lastPassive = i
		}
		if !s.simple && !isPassive(s) {
			// an active segment not in the simple form (another memory, an offset that is not
			// a constant) could write anywhere: nothing is merged
			return segs, 0
		}
	}
	free := newCoverage(segs)
	var out []segment
	zeros := 0
	open := false // the last segment of out may take the next one
	for i, s := range segs {
		if !s.simple {
			out = append(out, s)
			open = false
			continue
		}
		if open {
			prev := &out[len(out)-1]
			prevEnd := uint64(prev.addr) + uint64(len(prev.data))
			if uint64(s.addr) >= prevEnd && uint64(s.addr)-prevEnd <= uint64(maxGap) && free.empty(prevEnd, uint64(s.addr)) {
				if prev.raw != nil {
					// the first merge into prev: copy its bytes (they are the module's) into
					// a slice of its own, which later merges append to
					prev.data, prev.raw = append([]byte(nil), prev.data...), nil
				}
				gap := int(uint64(s.addr) - prevEnd)
				prev.data = append(prev.data, make([]byte, gap)...)
				prev.data = append(prev.data, s.data...)
				zeros += gap
				continue
			}
		}
		out = append(out, s)
		open = i > lastPassive
	}
	return out, zeros
}

// coverage answers whether any segment writes to a range of addresses. Zeros written into a gap
// that no segment touches leave the memory as it was: memory starts zeroed.
type coverage struct {
	starts []uint64 // the segments' starts, ascending
	maxEnd []uint64 // maxEnd[k]: the highest end among the first k+1 segments by start
}

func newCoverage(segs []segment) coverage {
	type iv struct{ start, end uint64 }
	var ivs []iv
	for _, s := range segs {
		if s.simple && len(s.data) > 0 {
			ivs = append(ivs, iv{uint64(s.addr), uint64(s.addr) + uint64(len(s.data))})
		}
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].start < ivs[j].start })
	c := coverage{starts: make([]uint64, len(ivs)), maxEnd: make([]uint64, len(ivs))}
	var hi uint64
	for k, v := range ivs {
		hi = max(hi, v.end)
		c.starts[k], c.maxEnd[k] = v.start, hi
	}
	return c
}

// empty reports whether no segment writes to [lo, hi).
func (c coverage) empty(lo, hi uint64) bool {
	if lo >= hi {
		return true
	}
	k := sort.Search(len(c.starts), func(k int) bool { return c.starts[k] >= hi }) // segments starting before hi
	return k == 0 || c.maxEnd[k-1] <= lo
}

func isPassive(s segment) bool { return !s.simple && len(s.raw) > 0 && s.raw[0] == 1 }

// readSegments reads a data section's segments.
func readSegments(body []byte) ([]segment, error) {
	r := &reader{b: body}
	n, err := r.uleb()
	if err != nil {
		return nil, err
	}
	segs := make([]segment, 0, n)
	for i := 0; i < n; i++ {
		start := r.off
		flags, err := r.uleb()
		if err != nil {
			return nil, err
		}
		s := segment{}
		switch flags {
		case 0: // active, memory 0, offset expression
			simple, addr, err := readOffset(r)
			if err != nil {
				return nil, fmt.Errorf("segment %d: %w", i, err)
			}
			s.simple, s.addr = simple, addr
		case 1: // passive
		case 2: // active, memory index, offset expression
			if _, err := r.uleb(); err != nil {
				return nil, err
			}
			if _, _, err := readOffset(r); err != nil {
				return nil, fmt.Errorf("segment %d: %w", i, err)
			}
		default:
			return nil, fmt.Errorf("segment %d: unknown kind %d", i, flags)
		}
		size, err := r.uleb()
		if err != nil {
			return nil, err
		}
		data, err := r.bytes(size)
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", i, err)
		}
		s.data = data
		s.raw = body[start:r.off]
		segs = append(segs, s)
	}
	if r.off != len(body) {
		return nil, fmt.Errorf("%d bytes after the last segment", len(body)-r.off)
	}
	return segs, nil
}

// readOffset reads a constant expression and reports whether it is `i32.const N; end`.
// Anything else (a global.get, an extended constant expression) is skipped to its end.
func readOffset(r *reader) (bool, uint32, error) {
	start := r.off
	op, err := r.byte()
	if err != nil {
		return false, 0, err
	}
	if op == 0x41 { // i32.const
		v, err := r.sleb32()
		if err != nil {
			return false, 0, err
		}
		end, err := r.byte()
		if err != nil {
			return false, 0, err
		}
		if end == 0x0b {
			return true, uint32(v), nil
		}
	}
	// Not the simple form: skip the expression (its operands are LEB128 numbers or indices,
	// none of which holds a 0x0b byte that ends a LEB128 number... so decode by opcode).
	r.off = start
	for {
		op, err := r.byte()
		if err != nil {
			return false, 0, err
		}
		switch op {
		case 0x0b:
			return false, 0, nil
		case 0x41, 0x23: // i32.const, global.get
			if _, err := r.sleb64(); err != nil {
				return false, 0, err
			}
		case 0x42: // i64.const
			if _, err := r.sleb64(); err != nil {
				return false, 0, err
			}
		case 0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e: // i32/i64 add, sub, mul
		default:
			return false, 0, fmt.Errorf("offset expression: opcode 0x%02x", op)
		}
	}
}

// encodeSegments writes a data section's body.
func encodeSegments(segs []segment) []byte {
	size := 5
	for _, s := range segs {
		size += len(s.data) + 16
	}
	b := make([]byte, 0, size)
	b = appendUleb(b, uint64(len(segs)))
	for _, s := range segs {
		if s.raw != nil {
			b = append(b, s.raw...)
			continue
		}
		b = append(b, 0, 0x41)
		b = appendSleb(b, int64(int32(s.addr)))
		b = append(b, 0x0b)
		b = appendUleb(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

func writeSection(w *bytes.Buffer, id byte, body []byte) {
	w.WriteByte(id)
	w.Write(appendUleb(nil, uint64(len(body))))
	w.Write(body)
}
