package wasmpack

import "errors"

// reader reads the WebAssembly binary format's numbers and byte strings.
type reader struct {
	b   []byte
	off int
}

var errShort = errors.New("truncated module")

func (r *reader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, errShort
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

// uleb reads an unsigned LEB128 number of at most 32 bits.
func (r *reader) uleb() (int, error) {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if v > 1<<32-1 {
				return 0, errors.New("LEB128 number out of range")
			}
			return int(v), nil
		}
	}
	return 0, errors.New("bad LEB128")
}

func (r *reader) bytes(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.off {
		return nil, errShort
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s, nil
}

// sleb reads a signed LEB128 number of at most bits bits.
func (r *reader) sleb(bits uint) (int64, error) {
	var v int64
	var shift uint
	for {
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
		if shift >= bits+7 {
			return 0, errors.New("bad LEB128")
		}
	}
}

func (r *reader) sleb32() (int32, error) {
	v, err := r.sleb(32)
	return int32(v), err
}

func (r *reader) sleb64() (int64, error) { return r.sleb(64) }

func appendUleb(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
