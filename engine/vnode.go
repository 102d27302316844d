package engine

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sort"
)

// OwnedIndex is a vnode's index among the actor's vnodes (Config.Owned, ascending), which the
// per-vnode state is kept by; -1: a vnode the actor does not own. A vnode number is a plain int.
type OwnedIndex int32

// nullHashBytes is what a NULL contributes to the crc32 input.
var nullHashBytes = []byte{0xf0, 0xff, 0xff, 0xff}

// crcTable is CRC-32 (IEEE)'s table; the crcUpdate functions run its byte-wise loop on the
// pre-inverted state (the same checksum as crc32.ChecksumIEEE), allocating nothing.
var crcTable = crc32.MakeTable(crc32.IEEE)

func crcUpdate(h uint32, b []byte) uint32 {
	for _, x := range b {
		h = crcTable[byte(h)^x] ^ h>>8
	}
	return h
}

func crcUpdateString(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h = crcTable[byte(h)^s[i]] ^ h>>8
	}
	return h
}

// crcUpdateUint feeds the n low bytes of x, little-endian.
func crcUpdateUint(h uint32, x uint64, n int) uint32 {
	for i := 0; i < n; i++ {
		h = crcTable[byte(h)^byte(x)] ^ h>>8
		x >>= 8
	}
	return h
}

// HashBytes is the byte string RisingWave's placement hashes for a key of the given types.
func HashBytes(key Row, types []ColumnType) []byte {
	var b []byte
	for i, v := range key {
		b = appendHashBytes(b, v, types[i])
	}
	return b
}

// appendHashBytes appends what one value of a column of type t contributes to the hash.
func appendHashBytes(b []byte, v Value, t ColumnType) []byte {
	switch {
	case v.Kind == KindNull:
		return append(b, nullHashBytes...)
	case v.Kind == KindStr:
		return append(append(b, v.S...), 0xff)
	case t == TypeInt:
		return binary.LittleEndian.AppendUint32(b, uint32(int32(v.I)))
	}
	return binary.LittleEndian.AppendUint64(b, uint64(v.I))
}

// Vnode places a full row on a vnode by its locality columns.
func (c *Config) Vnode(row Row) (int, error) {
	switch c.Rule {
	case RuleModulo:
		k := row[c.Locality[0]]
		if k.IsNull() {
			return 0, fmt.Errorf("rule modulo cannot place a NULL key")
		}
		m := k.I % int64(c.VnodeCount)
		if m < 0 {
			m += int64(c.VnodeCount)
		}
		return int(m), nil
	case RuleRanges:
		k := row[c.Locality[0]]
		if k.IsNull() {
			return len(c.Bounds), nil
		}
		// the first bound above the key (bounds increase)
		return sort.Search(len(c.Bounds), func(i int) bool { return k.I < c.Bounds[i] }), nil
	}
	h := ^uint32(0) // CRC-32 (IEEE) over HashBytes, computed without building them
	for _, col := range c.Locality {
		v := row[col]
		switch {
		case v.Kind == KindNull:
			h = crcUpdate(h, nullHashBytes)
		case v.Kind == KindStr:
			h = crcUpdateString(h, v.S)
			h = crcTable[byte(h)^0xff] ^ h>>8
		case c.Columns[col].Type == TypeInt:
			h = crcUpdateUint(h, uint64(uint32(int32(v.I))), 4)
		default:
			h = crcUpdateUint(h, uint64(v.I), 8)
		}
	}
	return int(^h % uint32(c.VnodeCount)), nil
}
