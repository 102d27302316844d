package engine

import (
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCRC32PlacementMatchesRisingWave(t *testing.T) {
	// the vectors of protocol.md, checked against RisingWave with 256 vnodes
	tests := []struct {
		name  string
		typ   ColumnType
		key   int64
		vnode int
	}{
		{"int 1", TypeInt, 1, 121},
		{"int 2", TypeInt, 2, 151},
		{"int 3", TypeInt, 3, 242},
		{"int 10", TypeInt, 10, 120},
		{"int 11", TypeInt, 11, 29},
		{"bigint 1", TypeBigint, 1, 247},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Config{Columns: []Column{{"a", tt.typ}, {"id", TypeBigint}}, Locality: []int{0}, StreamKey: []int{1}, VnodeCount: 256}
			v, err := c.Vnode(Row{Int(tt.key), Int(0)})
			require.NoError(t, err)
			assert.Equal(t, tt.vnode, v)
		})
	}
}

func TestHashBytes(t *testing.T) {
	tests := []struct {
		name  string
		key   Row
		types []ColumnType
		want  []byte
	}{
		{"int little-endian 4 bytes", Row{Int(1)}, []ColumnType{TypeInt}, []byte{1, 0, 0, 0}},
		{"bigint little-endian 8 bytes", Row{Int(-1)}, []ColumnType{TypeBigint}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"varchar utf-8 then ff", Row{Str("é")}, []ColumnType{TypeVarchar}, []byte{0xc3, 0xa9, 0xff}},
		{"null", Row{Null()}, []ColumnType{TypeBigint}, []byte{0xf0, 0xff, 0xff, 0xff}},
		{"several columns joined in order", Row{Int(2), Str("x")}, []ColumnType{TypeInt, TypeVarchar}, []byte{2, 0, 0, 0, 'x', 0xff}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, HashBytes(tt.key, tt.types))
		})
	}
}

func TestModuloAndRanges(t *testing.T) {
	mod := &Config{Columns: []Column{{"a", TypeBigint}}, Locality: []int{0}, StreamKey: []int{0}, VnodeCount: 4, Rule: RuleModulo}
	for key, want := range map[int64]int{0: 0, 5: 1, -1: 3, -4: 0, -5: 3} {
		v, err := mod.Vnode(Row{Int(key)})
		require.NoError(t, err)
		assert.Equal(t, want, v, "modulo of %d", key)
	}
	_, err := mod.Vnode(Row{Null()})
	assert.Error(t, err, "modulo cannot place NULL")

	rng := &Config{Columns: []Column{{"a", TypeBigint}}, Locality: []int{0}, StreamKey: []int{0}, VnodeCount: 3, Rule: RuleRanges, Bounds: []int64{10, 20}}
	for key, want := range map[int64]int{-5: 0, 9: 0, 10: 1, 19: 1, 20: 2, 1 << 40: 2} {
		v, err := rng.Vnode(Row{Int(key)})
		require.NoError(t, err)
		assert.Equal(t, want, v, "range of %d", key)
	}
	v, err := rng.Vnode(Row{Null()})
	require.NoError(t, err)
	assert.Equal(t, 2, v, "NULL goes to the last vnode")
}

func TestCompareOrdersNullsLast(t *testing.T) {
	assert.Equal(t, -1, Compare(Int(-5), Int(3)))
	assert.Equal(t, -1, Compare(Int(3), Null()))
	assert.Equal(t, 1, Compare(Null(), Str("z")))
	assert.Equal(t, 0, Compare(Null(), Null()))
	assert.Equal(t, -1, Compare(Str("B"), Str("a")), "strings compare by bytes")
	assert.Equal(t, -1, CompareRows(Row{Int(2), Int(101)}, Row{Int(2), Null()}))
	assert.Equal(t, 1, CompareRows(Row{Int(3), Int(0)}, Row{Int(2), Int(999)}))
}

func TestValueText(t *testing.T) {
	assert.Equal(t, "(1,x,null,'a b','it''s','12')", Row{Int(1), Str("x"), Null(), Str("a b"), Str("it's"), Str("12")}.String())
}

func TestValueTextReadsBack(t *testing.T) {
	for _, s := range []string{"99999999999999999999", "-12", "NULL", "True", "FALSE", ""} {
		assert.False(t, isBareWord(s), "%q must be quoted", s)
	}
	for _, s := range []string{"x", "a-1", "v1.2", "_"} {
		assert.True(t, isBareWord(s), "%q is a bare word", s)
	}
}

// TestVnodeMatchesHashBytes: the placement's allocation-free CRC equals crc32.ChecksumIEEE
// over HashBytes, for every kind of value and several locality columns.
func TestVnodeMatchesHashBytes(t *testing.T) {
	cols := []Column{{"a", TypeInt}, {"b", TypeBigint}, {"s", TypeVarchar}, {"id", TypeBigint}}
	types := []ColumnType{TypeInt, TypeBigint, TypeVarchar}
	c := &Config{Columns: cols, Locality: []int{0, 1, 2}, StreamKey: []int{3}, VnodeCount: 32768}
	rows := []Row{
		{Int(1), Int(2), Str("x"), Int(0)},
		{Int(-7), Int(-1 << 62), Str(""), Int(0)},
		{Null(), Null(), Null(), Int(0)},
		{Int(1 << 30), Int(123456789), Str("k00000042 with spaces ÿ"), Int(0)},
	}
	for _, r := range rows {
		v, err := c.Vnode(r)
		require.NoError(t, err)
		want := int(crc32.ChecksumIEEE(HashBytes(r[:3], types)) % 32768)
		assert.Equal(t, want, v, "%s", r)
	}
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = c.Vnode(rows[0]) }), "placement allocates nothing")
}
