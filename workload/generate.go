package workload

import (
	"hash/crc32"
	"strconv"
	"unsafe"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/splitmix"
)

// genRow is one row of the upstream's content as the generator knows it: its number (which
// decides its key columns) and its version (which, with the number, decides the other columns;
// an update makes a new version).
type genRow struct{ n, ver uint32 }

// undoOp reverts one change to the generator's content (recovery rolls it back).
type undoOp struct {
	kind  changeKind
	idx   int32  // update, delete: the row's index; insert: how many rows were appended
	old   genRow // update: the row before; delete: the deleted row
	moved genRow // delete: the row moved into its place
}

type changeKind uint8

const (
	changeInsert changeKind = iota
	changeUpdate
	changeDelete
)

// generator makes the upstream's changes. It keeps the upstream's content (the live rows) so
// that every change is one the real upstream could send: an insert takes a number never used
// before, so its pk is new; an update or a delete takes a live row, written exactly as the
// upstream holds it. Its state at the last checkpoint can be restored (rollback), after which
// it generates the same changes again, as a real upstream replays from a checkpoint.
//
// Row numbers whose row would fall on a vnode this actor does not own are skipped (other
// actors hold those rows). A row's values are written into an arena of its vnode, so that
// the rows of one vnode lie together in memory, as the snapshot reads them.
type generator struct {
	cfg  *engine.Config
	mix  Mix
	key  []bool              // per column: part of the pk (its value is the row's number)
	vidx []engine.OwnedIndex // vnode → owned index, or -1
	seed uint64
	rnd  splitmix.Rand
	ops  []engine.RowOp      // the chunk being made (the engine does not keep a chunk's slice)
	vis  []engine.OwnedIndex // the owned index of each of its rows (see Engine.ApplyPlaced)
	tmp  engine.Row          // a row being made, before it goes into its arena
	last uint32              // the last row number used
	full bool                // the row numbers ran out (MaxRowNumber): CheckConfig makes it rare
	live []genRow            // the upstream's content, in no order
	undo []undoOp            // changes since the last checkpoint, oldest first

	arenas    [][]engine.Value // per owned vnode: room for its next rows
	arenaRows int              // rows per arena block
	slab      []engine.Value   // room for the next arena blocks (see newArena)
	slabLeft  int64            // values the run may still need beyond the slab (an upper bound)
	intsOnly  bool             // every column is an integer: the arenas hold no pointer (see newSlab)
	crcInts   bool             // crc32 placement of integer locality columns: vnode computes it from n

	ckRnd  splitmix.Rand
	ckLast uint32
}

func newGenerator(cfg *engine.Config, w *Workload) *generator {
	g := &generator{cfg: cfg, mix: w.Mix, key: make([]bool, len(cfg.Columns)), seed: uint64(w.Seed),
		live: make([]genRow, 0, min(w.maxRows(), int64(w.Rows)+1<<20)), tmp: make(engine.Row, len(cfg.Columns)),
		vidx: make([]engine.OwnedIndex, cfg.VnodeCount), arenas: make([][]engine.Value, len(cfg.Owned))}
	for _, c := range cfg.PK() {
		g.key[c] = true
	}
	for i := range g.vidx {
		g.vidx[i] = -1
	}
	for i, v := range cfg.Owned {
		g.vidx[v] = engine.OwnedIndex(i)
	}
	g.crcInts = cfg.Rule == engine.RuleCRC32
	for _, c := range cfg.Locality {
		if cfg.Columns[c].Type == engine.TypeVarchar {
			g.crcInts = false
		}
	}
	g.intsOnly = true
	for _, col := range cfg.Columns {
		if col.Type == engine.TypeVarchar {
			g.intsOnly = false
		}
	}
	// a vnode's last arena block wastes at most an eighth of its expected rows
	g.arenaRows = min(256, max(4, w.Rows/len(cfg.Owned)/8))
	g.slabLeft = (w.maxRows() + int64(len(cfg.Owned)*g.arenaRows)) * int64(len(cfg.Columns))
	g.rnd = splitmix.New(splitmix.Mix64(g.seed ^ 0x5ca1ab1e))
	g.checkpoint()
	return g
}

// row makes row r's values, in its vnode's arena, and notes its owned index in g.vis.
func (g *generator) row(r genRow) engine.Row {
	vi := g.vidx[g.vnode(r.n)]
	g.vis = append(g.vis, vi)
	a := g.arenas[vi]
	n := len(g.tmp)
	if len(a) < n {
		a = g.newArena(g.arenaRows * n)
	}
	row := engine.Row(a[:n:n])
	g.fill(r, row)
	g.arenas[vi] = a[n:]
	return row
}

// newArena returns room for k values, all zero: a block of a slab sized for the rows the run may
// make (at most slabMax values at a time), so that a run allocates a few large blocks rather
// than a small one per vnode every few dozen rows (under WebAssembly the heap grows half a
// megabyte at a time, and each growth is a costly step for the JavaScript engine).
func (g *generator) newArena(k int) []engine.Value {
	if len(g.slab) < k {
		n := int(min(max(g.slabLeft, int64(k)), slabMax))
		n = max(n, k)
		g.slab = g.newSlab(n)
		g.slabLeft -= int64(n)
	}
	a := g.slab[:k:k]
	g.slab = g.slab[k:]
	return a
}

// slabMax bounds a slab of row values (32 MB).
const slabMax = 1 << 20

// newSlab returns n zero values. When every column is an integer they are memory the garbage
// collector does not scan: a generated integer value is its kind and its number, and its string
// stays empty (a nil pointer) for the life of the row, since nothing writes into a row once it
// is made; so there is no pointer in it to find. Scanning them was two of a row's seven pointer
// slots, for nothing: under WebAssembly the collector marks on the run's own thread. A varchar
// column needs ordinary memory.
func (g *generator) newSlab(n int) []engine.Value {
	if !g.intsOnly {
		return make([]engine.Value, n)
	}
	words := make([]uint64, n*valueWords)
	return unsafe.Slice((*engine.Value)(unsafe.Pointer(unsafe.SliceData(words))), n)
}

// valueWords is a Value's size in 64-bit words (kind, number, and the string's pointer and
// length: 32 bytes, 8-aligned).
const valueWords = int(unsafe.Sizeof(engine.Value{}) / 8)

// vnode places row number n: its locality columns are key columns, functions of n alone.
func (g *generator) vnode(n uint32) int {
	if g.crcInts { // Config.Vnode's crc32 of the integer n in each locality column's width
		h := ^uint32(0)
		for _, c := range g.cfg.Locality {
			width := 8
			if g.cfg.Columns[c].Type == engine.TypeInt {
				width = 4
			}
			for i, x := 0, uint64(n); i < width; i, x = i+1, x>>8 { // its bytes, little-endian
				h = crcTable[byte(h)^byte(x)] ^ h>>8
			}
		}
		return int(^h % uint32(g.cfg.VnodeCount))
	}
	for _, c := range g.cfg.Locality {
		g.tmp[c] = keyValue(g.cfg.Columns[c].Type, n)
	}
	v, err := g.cfg.Vnode(g.tmp)
	if err != nil {
		return -1 // (never: key values are not null)
	}
	return v
}

// crcTable is CRC-32 (IEEE)'s table: vnode runs its byte-wise loop on the pre-inverted state
// (the checksum crc32.ChecksumIEEE computes), allocating nothing.
var crcTable = crc32.MakeTable(crc32.IEEE)

// owns reports whether row number n falls on a vnode this actor owns.
func (g *generator) owns(n uint32) bool {
	if len(g.cfg.Owned) == g.cfg.VnodeCount {
		return true
	}
	v := g.vnode(n)
	return v >= 0 && g.vidx[v] >= 0
}

// checkpoint makes the current state the one a rollback returns to.
func (g *generator) checkpoint() {
	g.ckRnd, g.ckLast = g.rnd, g.last
	g.undo = g.undo[:0]
}

// rollback returns to the last checkpoint.
func (g *generator) rollback() {
	for i := len(g.undo) - 1; i >= 0; i-- {
		u := g.undo[i]
		switch u.kind {
		case changeInsert:
			g.live = g.live[:len(g.live)-int(u.idx)]
		case changeUpdate:
			g.live[u.idx] = u.old
		case changeDelete:
			g.live = append(g.live, u.moved)
			g.live[u.idx] = u.old
		}
	}
	g.rnd, g.last = g.ckRnd, g.ckLast
	g.undo = g.undo[:0]
}

// keyWidth is the digits of a varchar key ("k00000042"): row numbers stay below 10^8
// (MaxRows plus MaxChanges), so string order is number order.
const keyWidth = 8

// fill writes row r's values into vals, which is new memory (all zero).
func (g *generator) fill(r genRow, vals []engine.Value) {
	// vals is new (zero) memory: an integer is written as its kind and number alone, leaving
	// the string empty, so that no pointer is written (a pointer write costs a write barrier
	// while the collector marks)
	for c, col := range g.cfg.Columns {
		if g.key[c] {
			if col.Type == engine.TypeVarchar {
				vals[c] = keyValue(col.Type, r.n)
			} else {
				vals[c].Kind, vals[c].I = engine.KindInt, int64(r.n)
			}
			continue
		}
		h := splitmix.Mix64(g.seed ^ splitmix.Mix64(uint64(r.n)<<32|uint64(r.ver)) ^ uint64(c))
		switch col.Type {
		case engine.TypeVarchar:
			vals[c] = engine.Str("v" + strconv.FormatUint(h%10000, 10))
		case engine.TypeInt:
			vals[c].Kind, vals[c].I = engine.KindInt, int64(h%1000)
		default:
			vals[c].Kind, vals[c].I = engine.KindInt, int64(h%1_000_000)
		}
	}
}

// keyValue is a key column's value for row number n: n itself, or for varchar "k" and n in
// keyWidth digits. Key values grow with n, so within a vnode a new row sorts after every older
// one (like an auto-increment id).
func keyValue(t engine.ColumnType, n uint32) engine.Value {
	if t != engine.TypeVarchar {
		return engine.Int(int64(n))
	}
	var b [1 + keyWidth]byte
	b[0] = 'k'
	d := strconv.AppendUint(b[1:1], uint64(n), 10)
	pad := keyWidth - len(d)
	copy(b[1+pad:], d)
	for i := 1; i <= pad; i++ {
		b[i] = '0'
	}
	return engine.Str(string(b[:]))
}

// chunkBuilder accumulates a chunk's rows.
type chunkBuilder struct {
	g    *generator
	rows []engine.RowOp
}

func (g *generator) newChunk(maxRows int) chunkBuilder {
	if cap(g.ops) < maxRows {
		g.ops = make([]engine.RowOp, 0, maxRows)
	}
	g.vis = g.vis[:0]
	return chunkBuilder{g: g, rows: g.ops[:0]}
}

func (b *chunkBuilder) add(op engine.Op, r genRow) {
	b.rows = append(b.rows, engine.RowOp{Op: op, Row: b.g.row(r), Visible: true})
}

// inserts makes a chunk of k inserts of new rows.
func (g *generator) inserts(k int) []engine.RowOp {
	b := g.newChunk(k)
	for i := 0; i < k; i++ {
		b.add(engine.OpInsert, g.insert())
	}
	return b.rows
}

func (g *generator) insert() genRow {
	g.last++
	for !g.owns(g.last) && g.last < MaxRowNumber {
		g.last++
	}
	if g.last >= MaxRowNumber {
		g.full = true
	}
	r := genRow{n: g.last}
	if n := len(g.undo); n > 0 && g.undo[n-1].kind == changeInsert {
		g.undo[n-1].idx++ // consecutive inserts undo in one
	} else {
		g.undo = append(g.undo, undoOp{kind: changeInsert, idx: 1})
	}
	g.live = append(g.live, r)
	return r
}

// changes makes a chunk of k changes drawn by the mix's weights (an update is a U-/U+ pair).
// Updates and deletes need a live row; with none, only inserts can be drawn, and if the mix
// has no inserts the chunk ends early (it may be empty: nil).
func (g *generator) changes(k int) []engine.RowOp {
	b := g.newChunk(2 * k)
	for i := 0; i < k; i++ {
		upd, del := g.mix.Update, g.mix.Delete
		if len(g.live) == 0 {
			upd, del = 0, 0
		}
		total := g.mix.Insert + upd + del
		if total == 0 {
			break
		}
		x := int(g.rnd.Intn(uint64(total)))
		switch {
		case x < g.mix.Insert:
			b.add(engine.OpInsert, g.insert())
		case x < g.mix.Insert+upd:
			idx := int32(g.rnd.Intn(uint64(len(g.live))))
			old := g.live[idx]
			nw := genRow{n: old.n, ver: old.ver + 1}
			g.undo = append(g.undo, undoOp{kind: changeUpdate, idx: idx, old: old})
			g.live[idx] = nw
			b.add(engine.OpUpdateDelete, old)
			b.add(engine.OpUpdateInsert, nw)
		default:
			idx := int32(g.rnd.Intn(uint64(len(g.live))))
			old := g.live[idx]
			last := len(g.live) - 1
			moved := g.live[last]
			g.undo = append(g.undo, undoOp{kind: changeDelete, idx: idx, old: old, moved: moved})
			g.live[idx] = moved
			g.live = g.live[:last]
			b.add(engine.OpDelete, old)
		}
	}
	if len(b.rows) == 0 {
		return nil
	}
	return b.rows
}
