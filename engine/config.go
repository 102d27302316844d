package engine

import "fmt"

// ColumnType is a column's SQL type; it matters for crc32 vnode placement only.
type ColumnType uint8

const (
	TypeBigint ColumnType = iota
	TypeInt
	TypeVarchar
)

func (t ColumnType) String() string {
	switch t {
	case TypeInt:
		return "int"
	case TypeVarchar:
		return "varchar"
	}
	return "bigint"
}

// Column is a named, typed column of the input stream.
type Column struct {
	Name string
	Type ColumnType
}

// Rule is how a row's locality key maps to a vnode.
type Rule uint8

const (
	RuleCRC32 Rule = iota
	RuleModulo
	RuleRanges
)

func (r Rule) String() string {
	switch r {
	case RuleModulo:
		return "modulo"
	case RuleRanges:
		return "ranges"
	}
	return "crc32"
}

// ProgressRow is one row of the progress table: [vnode, pos…, finished, rows].
type ProgressRow struct {
	Vnode    int
	Pos      Row
	Finished bool
	Rows     int64
}

// Config describes one actor of the locality provider and the committed state it starts from.
type Config struct {
	Title      string
	Summary    string
	Columns    []Column
	Locality   []int // column indices: the locality columns = the distribution key
	StreamKey  []int // column indices of the input stream key
	VnodeCount int
	Owned      []int // ascending
	Rule       Rule
	Bounds     []int64
	ChunkSize  int
	Fragment   int64
	Actor      int64
	Bug        Bug        // a deliberate deviation from the protocol (BugNone: the real behaviour)
	Release    *Release   // the RisingWave release whose executor runs (nil: DefaultRelease)
	Create     CreateType // how the job was created (create.go)

	StartState    []Row
	StartProgress []ProgressRow
}

// PK is the state table's primary key: locality columns then the stream key.
func (c *Config) PK() []int {
	pk := make([]int, 0, len(c.Locality)+len(c.StreamKey))
	pk = append(pk, c.Locality...)
	return append(pk, c.StreamKey...)
}

// Capacity is a builder's capacity: max(2, chunk_size).
func (c *Config) Capacity() int { return max(2, c.ChunkSize) }

// Validate checks the configuration's own consistency (the parser reports positions first).
func (c *Config) Validate() error {
	if len(c.Columns) == 0 {
		return fmt.Errorf("table needs at least one column")
	}
	if len(c.Locality) == 0 || len(c.StreamKey) == 0 {
		return fmt.Errorf("locality and stream_key each need at least one column")
	}
	for _, i := range append(c.PK(), 0) {
		if i < 0 || i >= len(c.Columns) {
			return fmt.Errorf("column index %d out of range", i)
		}
	}
	if c.VnodeCount < 1 || c.VnodeCount > 32768 {
		return fmt.Errorf("vnode count %d is outside 1..32768", c.VnodeCount)
	}
	if len(c.Owned) == 0 {
		return fmt.Errorf("the actor must own at least one vnode")
	}
	for i, v := range c.Owned {
		if v < 0 || v >= c.VnodeCount {
			return fmt.Errorf("owned vnode %d is outside 0..%d", v, c.VnodeCount-1)
		}
		if i > 0 && c.Owned[i-1] >= v {
			return fmt.Errorf("owned vnodes must be ascending without duplicates")
		}
	}
	if c.ChunkSize < 1 {
		return fmt.Errorf("chunk_size must be at least 1")
	}
	switch c.Rule {
	case RuleRanges:
		if len(c.Locality) != 1 || c.Columns[c.Locality[0]].Type == TypeVarchar {
			return fmt.Errorf("rule ranges needs one integer locality column")
		}
		if len(c.Bounds)+1 != c.VnodeCount {
			return fmt.Errorf("rule ranges needs count == len(bounds)+1")
		}
		for i := 1; i < len(c.Bounds); i++ {
			if c.Bounds[i] <= c.Bounds[i-1] {
				return fmt.Errorf("bounds must increase")
			}
		}
	case RuleModulo:
		if len(c.Locality) != 1 || c.Columns[c.Locality[0]].Type == TypeVarchar {
			return fmt.Errorf("rule modulo needs one integer locality column")
		}
	}
	return nil
}
