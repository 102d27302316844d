package engine

import (
	"math/bits"
	"slices"
	"sort"
)

// seqMax is the most items of a pseq leaf, and the most children of an inner node.
const seqMax = 64

// pseq is a persistent sequence (one vnode's rows, in order): a B-tree that knows how many items
// lie under each child, so that finding item i, or the first item past a key, takes a few
// dozen steps however long the sequence is. A pseq value may be copied freely: a change made
// with a tag copies the nodes on its path that the tag does not own, so every other copy keeps
// what it had. Changing a sequence of a million items after it was shared copies four nodes of
// at most 64 entries, never the items. The zero value is empty.
type pseq[E any] struct{ r *seqNode[E] }

type seqNode[E any] struct {
	owner *cowTag
	items []E           // a leaf's items
	kids  []*seqNode[E] // an inner node's children, none empty (nil for a leaf)
	sizes []int         // items under each child
	lasts []E           // the last item under each child but the last (see last)
	n     int           // items under this node
	sums  [2]digest     // the sums of the items' digests, one per kind of digest (see sumFrom)
	known [2]bool       // which sums are known
	// A leaf's array may hold more than its items: the room past them is lent to the first copy
	// that appends (see own), so that the first change after a checkpoint, usually an append,
	// does not copy the leaf's items. lent: this leaf's room was lent (a later copy copies the
	// items). shared: this leaf's first shared items are in an array it borrowed, where the leaf
	// it was copied from still reads them: they are copied before one of them changes in place
	// (appends go past them).
	lent   bool
	shared int
}

func (n *seqNode[E]) leaf() bool { return n.kids == nil }

// last returns the last item under n. An inner node does not keep its last child's last item
// (lasts[len-1] is not kept up to date), so that an append, which changes only that one at every
// level, writes no item above the leaf: the last item is found down the last children.
func (n *seqNode[E]) last() E {
	for !n.leaf() {
		n = n.kids[len(n.kids)-1]
	}
	return n.items[len(n.items)-1]
}

// keepLast sets lasts[c] from child c, unless c is the last child (see last).
func (n *seqNode[E]) keepLast(c int) {
	if c < len(n.kids)-1 {
		n.lasts[c] = n.kids[c].last()
	}
}

// len is the number of items.
func (s pseq[E]) len() int {
	if s.r == nil {
		return 0
	}
	return s.r.n
}

// last returns the last item (len > 0).
func (s pseq[E]) last() E { return s.r.last() }

// child returns the child of inner node n that holds item i, and i's index in it. With end,
// i may be n.n (a position after the last item), which is in the last child.
func (n *seqNode[E]) child(i int, end bool) (int, int) {
	for c, size := range n.sizes {
		if i < size || end && i == size && c == len(n.sizes)-1 {
			return c, i
		}
		i -= size
	}
	return len(n.sizes) - 1, i // not reached for valid i
}

// at returns item i (0 ≤ i < len).
func (s pseq[E]) at(i int) E {
	n := s.r
	for !n.leaf() {
		var c int
		c, i = n.child(i, false)
		n = n.kids[c]
	}
	return n.items[i]
}

// leafOf returns the items of the leaf that holds item i (0 ≤ i < len) and the index of the
// leaf's first item, for a reader that walks on through the leaf without descending again
// (read-only: a node another copy may change in place is copied first, so what a frozen
// version's leaf holds never changes).
func (s pseq[E]) leafOf(i int) ([]E, int) {
	n, base := s.r, 0
	for !n.leaf() {
		c, j := n.child(i, false)
		base += i - j
		n, i = n.kids[c], j
	}
	return n.items, base
}

// leaves calls f with the items i..j-1 (0 ≤ i ≤ j ≤ len), a leaf's run at a time, in order
// (read-only).
func (s pseq[E]) leaves(i, j int, f func([]E)) {
	for i < j {
		items, base := s.leafOf(i)
		k := min(len(items), j-base)
		f(items[i-base : k])
		i = base + k
	}
}

// search returns the index of the first item for which ge is true (ge must be false, then
// true, along the sequence), or len when there is none.
func (s pseq[E]) search(ge func(E) bool) int {
	n, base := s.r, 0
	if n == nil {
		return 0
	}
	for !n.leaf() {
		// the last child is taken when no other holds an item for which ge is true: its leaf
		// then answers with the index past its items when it holds none either
		c := sort.Search(len(n.kids)-1, func(c int) bool { return ge(n.lasts[c]) })
		for _, size := range n.sizes[:c] {
			base += size
		}
		n = n.kids[c]
	}
	return base + sort.Search(len(n.items), func(j int) bool { return ge(n.items[j]) })
}

// each calls f on the items from index i on, in order, until f returns false.
func (s pseq[E]) each(i int, f func(E) bool) {
	if s.r != nil && i < s.r.n {
		s.r.each(max(i, 0), f)
	}
}

func (n *seqNode[E]) each(i int, f func(E) bool) bool {
	if n.leaf() {
		for _, x := range n.items[i:] {
			if !f(x) {
				return false
			}
		}
		return true
	}
	c, i := n.child(i, false)
	for ; c < len(n.kids); c, i = c+1, 0 {
		if !n.kids[c].each(i, f) {
			return false
		}
	}
	return true
}

// slice returns a new slice of items i..j-1.
func (s pseq[E]) slice(i, j int) []E {
	out := make([]E, 0, max(0, j-i))
	s.each(i, func(x E) bool {
		if len(out) >= j-i {
			return false
		}
		out = append(out, x)
		return true
	})
	return out
}

// own returns n, or a copy of it that tag owns.
func (n *seqNode[E]) own(tag *cowTag) *seqNode[E] {
	if n.owner == tag {
		n.known = [2]bool{} // about to change in place
		return n
	}
	c := &seqNode[E]{owner: tag, n: n.n}
	if n.leaf() {
		if !n.lent && len(n.items) < cap(n.items) {
			// the array has room past n's items that no copy uses: c borrows it and appends there,
			// while n's items, which c shares, stay as they are
			n.lent = true
			c.items, c.shared = n.items, len(n.items)
			return c
		}
		// room to grow: appends after a copy (the first change after a checkpoint) go on in place
		c.items = append(make([]E, 0, min(seqMax, max(4, 2*len(n.items)))), n.items...)
	} else {
		c.kids = append(make([]*seqNode[E], 0, len(n.kids)+1), n.kids...)
		c.sizes = append(make([]int, 0, len(n.kids)+1), n.sizes...)
		c.lasts = append(make([]E, 0, len(n.kids)+1), n.lasts...)
	}
	return c
}

// writable prepares an owned leaf for a change in place of its items from index i on: items it
// shares with the leaf it was copied from are copied first.
func (n *seqNode[E]) writable(i int) {
	if i < n.shared {
		n.items = append(make([]E, 0, cap(n.items)), n.items...)
		n.shared = 0
	}
}

// insert returns the sequence with x inserted before item i (0 ≤ i ≤ len).
func (s pseq[E]) insert(tag *cowTag, i int, x E) pseq[E] {
	if s.r == nil {
		return pseq[E]{&seqNode[E]{owner: tag, items: []E{x}, n: 1}}
	}
	left, right := s.r.insert(tag, i, x)
	if right == nil {
		return pseq[E]{left}
	}
	return pseq[E]{&seqNode[E]{owner: tag, n: left.n + right.n,
		kids: []*seqNode[E]{left, right}, sizes: []int{left.n, right.n}, lasts: []E{left.last(), *new(E)}}}
}

// insert adds x before item i under n; when n overflows it is split and the right half is
// returned too.
func (n *seqNode[E]) insert(tag *cowTag, i int, x E) (*seqNode[E], *seqNode[E]) {
	if n.leaf() && i == seqMax && len(n.items) == seqMax {
		// appending to a full leaf: x starts a new one and this one stays as it is (full), so
		// rows that come in order fill their leaves instead of leaving them half empty
		return n, &seqNode[E]{owner: tag, items: append(make([]E, 0, 4), x), n: 1}
	}
	n = n.own(tag)
	n.n++
	if n.leaf() {
		n.writable(i)
		if len(n.items) == cap(n.items) {
			n.shared = 0 // (slices.Insert makes a new array)
		}
		n.items = slices.Insert(n.items, i, x)
		if len(n.items) <= seqMax {
			return n, nil
		}
		h := len(n.items) / 2
		right := &seqNode[E]{owner: tag, items: append(make([]E, 0, seqMax), n.items[h:]...), n: len(n.items) - h}
		n.items = n.items[:h:h]
		n.shared = min(n.shared, h)
		n.n = h
		return n, right
	}
	c, i := n.child(i, true)
	kid, split := n.kids[c].insert(tag, i, x)
	n.kids[c], n.sizes[c] = kid, kid.n
	if split != nil {
		n.kids = slices.Insert(n.kids, c+1, split)
		n.sizes = slices.Insert(n.sizes, c+1, split.n)
		var e E
		n.lasts = slices.Insert(n.lasts, c+1, e)
		n.keepLast(c + 1)
	}
	n.keepLast(c)
	if len(n.kids) <= seqMax {
		return n, nil
	}
	h := len(n.kids) / 2
	if split != nil && c+1 == len(n.kids)-1 {
		h = len(n.kids) - 1 // the new child is the last: it alone starts the right node (see above)
	}
	right := &seqNode[E]{owner: tag,
		kids:  append(make([]*seqNode[E], 0, seqMax), n.kids[h:]...),
		sizes: append(make([]int, 0, seqMax), n.sizes[h:]...),
		lasts: append(make([]E, 0, seqMax), n.lasts[h:]...)}
	for _, size := range right.sizes {
		right.n += size
	}
	n.kids, n.sizes, n.lasts = n.kids[:h:h], n.sizes[:h:h], n.lasts[:h:h]
	n.n -= right.n
	return n, right
}

// push returns the sequence with x appended (the insert at len that rows in order make): it
// walks down the last children only, and a full node gives x a new right sibling instead of
// splitting in half, so appended items fill their nodes.
func (s pseq[E]) push(tag *cowTag, x E) pseq[E] {
	if s.appendInPlace(tag, x) {
		return s
	}
	if s.r == nil {
		return pseq[E]{&seqNode[E]{owner: tag, items: append(make([]E, 0, 4), x), n: 1}}
	}
	left, right := s.r.push(tag, x)
	if right == nil {
		return pseq[E]{left}
	}
	return pseq[E]{&seqNode[E]{owner: tag, n: left.n + right.n,
		kids: []*seqNode[E]{left, right}, sizes: []int{left.n, right.n}, lasts: []E{left.last(), *new(E)}}}
}

// appendInPlace appends x where the sequence's path to its last leaf is tag's and the leaf has
// room in its array, and reports whether it did (the usual append: one walk down, no copy, no
// node made or stored again).
func (s pseq[E]) appendInPlace(tag *cowTag, x E) bool {
	leaf := s.room(tag)
	if leaf == nil {
		return false
	}
	leaf.items = append(leaf.items, x)
	s.grew(1)
	return true
}

// room returns the last leaf when the sequence's path to it is tag's and the leaf has room in
// its array for another item (and is short of seqMax), or nil. Its caller may append items
// there (past the items a borrowed array shares: see own), as many as the room it has, and
// must then tell grew how many it appended.
func (s pseq[E]) room(tag *cowTag) *seqNode[E] {
	n := s.r
	if n == nil || n.owner != tag {
		return nil
	}
	for !n.leaf() {
		if n = n.kids[len(n.kids)-1]; n.owner != tag {
			return nil
		}
	}
	if len(n.items) == cap(n.items) || len(n.items) >= seqMax {
		return nil
	}
	return n
}

// grew counts k items appended to the last leaf (see room) in every node down to it.
func (s pseq[E]) grew(k int) {
	n := s.r
	for ; !n.leaf(); n = n.kids[len(n.kids)-1] {
		n.n += k
		n.sizes[len(n.kids)-1] += k // (the last child: its last item is not kept)
		n.known = [2]bool{}
	}
	n.n += k
	n.known = [2]bool{}
}

// push appends x under n; when n is full, n is returned unchanged with a new right sibling that
// holds x.
func (n *seqNode[E]) push(tag *cowTag, x E) (*seqNode[E], *seqNode[E]) {
	if n.leaf() {
		if len(n.items) == seqMax {
			// the sequence is long already: the new leaf is made full size at once
			return n, &seqNode[E]{owner: tag, items: append(make([]E, 0, seqMax), x), n: 1}
		}
		n = n.own(tag)
		if len(n.items) == cap(n.items) {
			n.shared = 0 // (leafAppend makes a new array)
		}
		n.items = leafAppend(n.items, x)
		n.n++
		return n, nil
	}
	c := len(n.kids) - 1
	kid, split := n.kids[c].push(tag, x)
	if split != nil && len(n.kids) == seqMax {
		// kid is unchanged (x went to split): so is n, and split starts its right sibling
		return n, &seqNode[E]{owner: tag, n: split.n,
			kids: append(make([]*seqNode[E], 0, 4), split), sizes: append(make([]int, 0, 4), split.n), lasts: make([]E, 1, 4)}
	}
	n = n.own(tag)
	n.n++
	if split != nil { // kid is unchanged, and no longer the last child: x went to split
		var e E
		n.kids = append(n.kids, split)
		n.sizes = append(n.sizes, split.n)
		n.lasts = append(n.lasts, e)
		n.keepLast(c)
		return n, nil
	}
	if n.kids[c] != kid { // (a kid changed in place is stored already: no pointer write)
		n.kids[c] = kid
	}
	n.sizes[c] = kid.n // (the last child: its last item is not kept)
	return n, nil
}

// leafAppend appends x to a leaf's items (fewer than seqMax), growing a full array to four times
// its size but never past seqMax (4, 16, 64 items: a leaf that outgrows 16 is usually on its
// way to full), where append alone would double it, past seqMax too (48 items to room for 96).
func leafAppend[E any](items []E, x E) []E {
	if len(items) == cap(items) {
		items = append(make([]E, 0, min(seqMax, max(4, 4*cap(items)))), items...)
	}
	return append(items, x)
}

// set returns the sequence with item i replaced by x.
func (s pseq[E]) set(tag *cowTag, i int, x E) pseq[E] { return pseq[E]{s.r.set(tag, i, x)} }

func (n *seqNode[E]) set(tag *cowTag, i int, x E) *seqNode[E] {
	n = n.own(tag)
	if n.leaf() {
		n.writable(i)
		n.items[i] = x
		return n
	}
	c, i := n.child(i, false)
	n.kids[c] = n.kids[c].set(tag, i, x)
	n.keepLast(c)
	return n
}

// remove returns the sequence without item i. An emptied node is dropped, and a root with one
// child gives way to it, so the tree never holds empty nodes.
func (s pseq[E]) remove(tag *cowTag, i int) pseq[E] {
	r := s.r.remove(tag, i)
	for r != nil && !r.leaf() && len(r.kids) == 1 {
		r = r.kids[0]
	}
	return pseq[E]{r}
}

func (n *seqNode[E]) remove(tag *cowTag, i int) *seqNode[E] {
	if n.n == 1 {
		return nil
	}
	n = n.own(tag)
	n.n--
	if n.leaf() {
		n.writable(i)
		n.items = slices.Delete(n.items, i, i+1)
		return n
	}
	c, i := n.child(i, false)
	kid := n.kids[c].remove(tag, i)
	if kid == nil {
		n.kids = slices.Delete(n.kids, c, c+1)
		n.sizes = slices.Delete(n.sizes, c, c+1)
		n.lasts = slices.Delete(n.lasts, c, c+1)
		return n
	}
	n.kids[c], n.sizes[c] = kid, kid.n
	n.keepLast(c)
	return n
}

// seqCursor walks a pseq's first items in order, a leaf at a time.
type seqCursor[E any] struct {
	path []seqFrame[E] // the inner nodes above the current leaf, and which child is taken
	leaf []E
	j    int
	left int // items still to walk
}

type seqFrame[E any] struct {
	n *seqNode[E]
	c int
}

// newSeqCursor walks the first limit items of s.
func newSeqCursor[E any](s pseq[E], limit int) *seqCursor[E] {
	c := &seqCursor[E]{left: min(limit, s.len())}
	if c.left > 0 {
		c.descend(s.r)
	}
	return c
}

func (c *seqCursor[E]) descend(n *seqNode[E]) {
	for !n.leaf() {
		c.path = append(c.path, seqFrame[E]{n, 0})
		n = n.kids[0]
	}
	c.leaf, c.j = n.items, 0
}

// ok reports whether there is a current item.
func (c *seqCursor[E]) ok() bool { return c.left > 0 }

// cur is the current item.
func (c *seqCursor[E]) cur() E { return c.leaf[c.j] }

// next moves to the following item.
func (c *seqCursor[E]) next() {
	c.left--
	c.j++
	if c.j < len(c.leaf) || c.left == 0 {
		return
	}
	for len(c.path) > 0 {
		top := &c.path[len(c.path)-1]
		top.c++
		if top.c < len(top.n.kids) {
			c.descend(top.n.kids[top.c])
			return
		}
		c.path = c.path[:len(c.path)-1]
	}
}

// digest is a 128-bit hash. The digest of a sequence is the sum (mod 2^128) of its items'
// digests: it depends on what the sequence holds, not on the shape of its tree, and a node
// keeps the sum of what lies under it until it changes, so that the explorer can tell two
// states apart without reading every row of both (see appendStateKey). The sequences it sums
// are sorted by their items, so the order needs no part in it.
type digest struct{ lo, hi uint64 }

func (a digest) add(b digest) digest {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return digest{lo, hi}
}

func (a digest) sub(b digest) digest {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, c)
	return digest{lo, hi}
}

// digestRow hashes a row's values (and a count), as digestOf hashes bytes but a word at a time:
// equal rows have equal digests, and it allocates nothing.
func digestRow(r Row, count int) digest {
	a, b := uint64(0x6c62272e07bb0142), uint64(0x62b821756295c58d)
	word := func(w uint64) {
		a = fmix(a ^ w)
		b = fmix(b+w) ^ a
	}
	for _, v := range r {
		word(uint64(v.Kind) + 0x9e3779b97f4a7c15)
		switch v.Kind {
		case KindInt:
			word(uint64(v.I))
		case KindStr:
			word(uint64(len(v.S)))
			s := v.S
			for len(s) >= 8 {
				word(uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
					uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56)
				s = s[8:]
			}
			var w uint64
			for i := 0; i < len(s); i++ {
				w |= uint64(s[i]) << (8 * i)
			}
			word(w)
		}
	}
	word(uint64(int64(count)))
	return digest{fmix(a ^ fmix(b)), fmix(b + fmix(a))}
}

// digestOf hashes an item's canonical encoding: FNV-1a with 128 bits (no allocation, a few
// nanoseconds for a row, in the wasm too, where SHA-256 has no hardware help), then each half
// mixed with the other so that sums of digests carry no arithmetic pattern of the bytes.
func digestOf(b []byte) digest {
	// 128-bit FNV prime = 2^88 + 2^8 + 0x3b; offset basis 0x6c62272e07bb014262b821756295c58d
	const primeLo, primeShift = 0x13b, 24 // prime = 2^64·2^24 + 0x13b
	hi, lo := uint64(0x6c62272e07bb0142), uint64(0x62b821756295c58d)
	for _, c := range b {
		lo ^= uint64(c)
		// (hi·2^64 + lo) · (2^88 + 0x13b) mod 2^128
		h, l := bits.Mul64(lo, primeLo)
		h += hi*primeLo + lo<<primeShift
		hi, lo = h, l
	}
	return digest{fmix(lo ^ fmix(hi)), fmix(hi + fmix(lo))}
}

// fmix is MurmurHash3's 64-bit finalizer.
func fmix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// itemDigest is a kind of digest of items: slot says where nodes keep its sums (0 or 1; one
// kind per slot for a given item type), and sum sums the digests of a run of items (one call
// for a leaf's items, not one per item).
type itemDigest[E any] struct {
	slot int
	sum  func([]E) digest
}

// total returns the sum of the items' digests under n, computing what is not known yet.
func (n *seqNode[E]) total(item itemDigest[E]) digest {
	if !n.known[item.slot] {
		var d digest
		if n.leaf() {
			d = item.sum(n.items)
		} else {
			for _, c := range n.kids {
				d = d.add(c.total(item))
			}
		}
		n.sums[item.slot], n.known[item.slot] = d, true
	}
	return n.sums[item.slot]
}

// sumFrom returns the sum of the digests of the items from index i on.
func (s pseq[E]) sumFrom(i int, item itemDigest[E]) digest {
	if s.r == nil || i >= s.r.n {
		return digest{}
	}
	all := s.r.total(item)
	var before digest
	for n := s.r; i > 0; {
		if n.leaf() {
			before = before.add(item.sum(n.items[:i]))
			break
		}
		c, j := n.child(i, false)
		for _, k := range n.kids[:c] {
			before = before.add(k.total(item))
		}
		n, i = n.kids[c], j
	}
	return all.sub(before)
}
