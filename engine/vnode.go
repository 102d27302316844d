package engine

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// nullHashBytes is what a NULL contributes to the crc32 input.
var nullHashBytes = []byte{0xf0, 0xff, 0xff, 0xff}

// HashBytes is the byte string RisingWave's placement hashes for a key of the given types.
func HashBytes(key Row, types []ColumnType) []byte {
	var b []byte
	for i, v := range key {
		switch {
		case v.Kind == KindNull:
			b = append(b, nullHashBytes...)
		case v.Kind == KindStr:
			b = append(b, v.S...)
			b = append(b, 0xff)
		case types[i] == TypeInt:
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(v.I)))
		default:
			b = binary.LittleEndian.AppendUint64(b, uint64(v.I))
		}
	}
	return b
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
		for i, b := range c.Bounds {
			if k.I < b {
				return i, nil
			}
		}
		return len(c.Bounds), nil
	}
	types := make([]ColumnType, len(c.Locality))
	for i, col := range c.Locality {
		types[i] = c.Columns[col].Type
	}
	h := crc32.ChecksumIEEE(HashBytes(row.Project(c.Locality), types))
	return int(h % uint32(c.VnodeCount)), nil
}
