package persist

import (
	"slices"
	"sort"
)

// SeqMax is the most items of a Seq's leaf, and the most children of an inner node.
const SeqMax = 64

// Seq is a persistent sequence (one vnode's rows, in order): a B-tree that knows how many items
// lie under each child, so that finding item i, or the first item past a key, takes a few
// dozen steps however long the sequence is. A Seq value may be copied freely: a change made
// with a tag copies the nodes on its path that the tag does not own, so every other copy keeps
// what it had. Changing a sequence of a million items after it was shared copies four nodes of
// at most 64 entries, never the items. The zero value is empty.
type Seq[E any] struct{ r *seqNode[E] }

type seqNode[E any] struct {
	owner *Tag
	items []E           // a leaf's items
	kids  []*seqNode[E] // an inner node's children, none empty (nil for a leaf)
	sizes []int         // items under each child
	lasts []E           // the last item under each child but the last (see last)
	n     int           // items under this node
	sums  [2]Digest     // the sums of the items' digests, one per kind of digest (see SumFrom)
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

// Len is the number of items.
func (s Seq[E]) Len() int {
	if s.r == nil {
		return 0
	}
	return s.r.n
}

// Last returns the last item (Len > 0).
func (s Seq[E]) Last() E { return s.r.last() }

// Same reports whether s and t are one version: the same root node, so the same items (two
// different versions may still hold equal items).
func (s Seq[E]) Same(t Seq[E]) bool { return s.r == t.r }

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

// At returns item i (0 ≤ i < Len).
func (s Seq[E]) At(i int) E {
	n := s.r
	for !n.leaf() {
		var c int
		c, i = n.child(i, false)
		n = n.kids[c]
	}
	return n.items[i]
}

// LeafOf returns the items of the leaf that holds item i (0 ≤ i < Len) and the index of the
// leaf's first item, for a reader that walks on through the leaf without descending again
// (read-only: a node another copy may change in place is copied first, so what a frozen
// version's leaf holds never changes).
func (s Seq[E]) LeafOf(i int) ([]E, int) {
	n, base := s.r, 0
	for !n.leaf() {
		c, j := n.child(i, false)
		base += i - j
		n, i = n.kids[c], j
	}
	return n.items, base
}

// Leaves calls f with the items i..j-1 (0 ≤ i ≤ j ≤ Len), a leaf's run at a time, in order
// (read-only).
func (s Seq[E]) Leaves(i, j int, f func([]E)) {
	for i < j {
		items, base := s.LeafOf(i)
		k := min(len(items), j-base)
		f(items[i-base : k])
		i = base + k
	}
}

// Search returns the index of the first item for which ge is true (ge must be false, then
// true, along the sequence), or Len when there is none.
func (s Seq[E]) Search(ge func(E) bool) int {
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

// Each calls f on the items from index i on, in order, until f returns false.
func (s Seq[E]) Each(i int, f func(E) bool) {
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

// Slice returns a new slice of items i..j-1.
func (s Seq[E]) Slice(i, j int) []E {
	out := make([]E, 0, max(0, j-i))
	s.Each(i, func(x E) bool {
		if len(out) >= j-i {
			return false
		}
		out = append(out, x)
		return true
	})
	return out
}

// own returns n, or a copy of it that tag owns.
func (n *seqNode[E]) own(tag *Tag) *seqNode[E] {
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
		c.items = append(make([]E, 0, min(SeqMax, max(4, 2*len(n.items)))), n.items...)
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

// Insert returns the sequence with x inserted before item i (0 ≤ i ≤ Len), changing in
// place only the nodes tag owns.
func (s Seq[E]) Insert(tag *Tag, i int, x E) Seq[E] {
	if s.r == nil {
		return Seq[E]{&seqNode[E]{owner: tag, items: []E{x}, n: 1}}
	}
	left, right := s.r.insert(tag, i, x)
	if right == nil {
		return Seq[E]{left}
	}
	return Seq[E]{&seqNode[E]{owner: tag, n: left.n + right.n,
		kids: []*seqNode[E]{left, right}, sizes: []int{left.n, right.n}, lasts: []E{left.last(), *new(E)}}}
}

// insert adds x before item i under n; when n overflows it is split and the right half is
// returned too.
func (n *seqNode[E]) insert(tag *Tag, i int, x E) (*seqNode[E], *seqNode[E]) {
	if n.leaf() && i == SeqMax && len(n.items) == SeqMax {
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
		if len(n.items) <= SeqMax {
			return n, nil
		}
		h := len(n.items) / 2
		right := &seqNode[E]{owner: tag, items: append(make([]E, 0, SeqMax), n.items[h:]...), n: len(n.items) - h}
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
	if len(n.kids) <= SeqMax {
		return n, nil
	}
	h := len(n.kids) / 2
	if split != nil && c+1 == len(n.kids)-1 {
		h = len(n.kids) - 1 // the new child is the last: it alone starts the right node (see above)
	}
	right := &seqNode[E]{owner: tag,
		kids:  append(make([]*seqNode[E], 0, SeqMax), n.kids[h:]...),
		sizes: append(make([]int, 0, SeqMax), n.sizes[h:]...),
		lasts: append(make([]E, 0, SeqMax), n.lasts[h:]...)}
	for _, size := range right.sizes {
		right.n += size
	}
	n.kids, n.sizes, n.lasts = n.kids[:h:h], n.sizes[:h:h], n.lasts[:h:h]
	n.n -= right.n
	return n, right
}

// Push returns the sequence with x appended (the insert at Len that rows in order make): it
// walks down the last children only, and a full node gives x a new right sibling instead of
// splitting in half, so appended items fill their nodes.
func (s Seq[E]) Push(tag *Tag, x E) Seq[E] {
	if s.appendInPlace(tag, x) {
		return s
	}
	if s.r == nil {
		return Seq[E]{&seqNode[E]{owner: tag, items: append(make([]E, 0, 4), x), n: 1}}
	}
	left, right := s.r.push(tag, x)
	if right == nil {
		return Seq[E]{left}
	}
	return Seq[E]{&seqNode[E]{owner: tag, n: left.n + right.n,
		kids: []*seqNode[E]{left, right}, sizes: []int{left.n, right.n}, lasts: []E{left.last(), *new(E)}}}
}

// appendInPlace appends x where the sequence's path to its last leaf is tag's and the leaf has
// room in its array, and reports whether it did (the usual append: one walk down, no copy, no
// node made or stored again).
func (s Seq[E]) appendInPlace(tag *Tag, x E) bool {
	t, ok := s.Tail(tag)
	if ok {
		t.Append(x)
	}
	return ok
}

// Tail is where items may be appended in place: the last leaf of a sequence whose path to it
// is one tag's, with room in its array (see Seq.Tail).
type Tail[E any] struct {
	s    Seq[E]
	leaf *seqNode[E]
}

// Tail returns the sequence's tail when its path to the last leaf is tag's and that leaf has
// room in its array for another item (and is short of SeqMax); ok is false otherwise (Push
// then). Appending there makes no node and copies nothing: the usual append after the first
// change since a copy.
func (s Seq[E]) Tail(tag *Tag) (t Tail[E], ok bool) {
	n := s.r
	if n == nil || n.owner != tag {
		return t, false
	}
	for !n.leaf() {
		if n = n.kids[len(n.kids)-1]; n.owner != tag {
			return t, false
		}
	}
	if len(n.items) == cap(n.items) || len(n.items) >= SeqMax {
		return t, false
	}
	return Tail[E]{s, n}, true
}

// Last is the sequence's last item (the last leaf always holds one: the tree holds no empty
// node).
func (t Tail[E]) Last() E { return t.leaf.items[len(t.leaf.items)-1] }

// Room is how many items Append may take: at least one.
func (t Tail[E]) Room() int { return min(cap(t.leaf.items), SeqMax) - len(t.leaf.items) }

// Append appends xs (no more than Room) to the last leaf, past the items a borrowed array
// shares (see own), and counts them in every node down to it. Like any change under a tag, it
// changes the tag's nodes in place: the sequence keeps its root (see Same).
func (t Tail[E]) Append(xs ...E) {
	t.leaf.items = append(t.leaf.items, xs...)
	k := len(xs)
	n := t.s.r
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
func (n *seqNode[E]) push(tag *Tag, x E) (*seqNode[E], *seqNode[E]) {
	if n.leaf() {
		if len(n.items) == SeqMax {
			// the sequence is long already: the new leaf is made full size at once
			return n, &seqNode[E]{owner: tag, items: append(make([]E, 0, SeqMax), x), n: 1}
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
	if split != nil && len(n.kids) == SeqMax {
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

// leafAppend appends x to a leaf's items (fewer than SeqMax), growing a full array to four times
// its size but never past SeqMax (4, 16, 64 items: a leaf that outgrows 16 is usually on its
// way to full), where append alone would double it, past SeqMax too (48 items to room for 96).
func leafAppend[E any](items []E, x E) []E {
	if len(items) == cap(items) {
		items = append(make([]E, 0, min(SeqMax, max(4, 4*cap(items)))), items...)
	}
	return append(items, x)
}

// Set returns the sequence with item i replaced by x.
func (s Seq[E]) Set(tag *Tag, i int, x E) Seq[E] { return Seq[E]{s.r.set(tag, i, x)} }

func (n *seqNode[E]) set(tag *Tag, i int, x E) *seqNode[E] {
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

// Remove returns the sequence without item i. An emptied node is dropped, and a root with one
// child gives way to it, so the tree never holds empty nodes.
func (s Seq[E]) Remove(tag *Tag, i int) Seq[E] {
	r := s.r.remove(tag, i)
	for r != nil && !r.leaf() && len(r.kids) == 1 {
		r = r.kids[0]
	}
	return Seq[E]{r}
}

func (n *seqNode[E]) remove(tag *Tag, i int) *seqNode[E] {
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

// Cursor walks a Seq's first items in order, a leaf at a time.
type Cursor[E any] struct {
	path []frame[E] // the inner nodes above the current leaf, and which child is taken
	leaf []E
	j    int
	left int // items still to walk
}

type frame[E any] struct {
	n *seqNode[E]
	c int
}

// NewCursor walks the first limit items of s.
func NewCursor[E any](s Seq[E], limit int) *Cursor[E] {
	c := &Cursor[E]{left: min(limit, s.Len())}
	if c.left > 0 {
		c.descend(s.r)
	}
	return c
}

func (c *Cursor[E]) descend(n *seqNode[E]) {
	for !n.leaf() {
		c.path = append(c.path, frame[E]{n, 0})
		n = n.kids[0]
	}
	c.leaf, c.j = n.items, 0
}

// Ok reports whether there is a current item.
func (c *Cursor[E]) Ok() bool { return c.left > 0 }

// Cur is the current item.
func (c *Cursor[E]) Cur() E { return c.leaf[c.j] }

// Next moves to the following item.
func (c *Cursor[E]) Next() {
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

// total returns the sum of the items' digests under n, computing what is not known yet.
func (n *seqNode[E]) total(item ItemDigest[E]) Digest {
	if !n.known[item.Slot] {
		var d Digest
		if n.leaf() {
			d = item.Sum(n.items)
		} else {
			for _, c := range n.kids {
				d = d.Add(c.total(item))
			}
		}
		n.sums[item.Slot], n.known[item.Slot] = d, true
	}
	return n.sums[item.Slot]
}

// SumFrom returns the sum of the digests of the items from index i on.
func (s Seq[E]) SumFrom(i int, item ItemDigest[E]) Digest {
	if s.r == nil || i >= s.r.n {
		return Digest{}
	}
	all := s.r.total(item)
	var before Digest
	for n := s.r; i > 0; {
		if n.leaf() {
			before = before.Add(item.Sum(n.items[:i]))
			break
		}
		c, j := n.child(i, false)
		for _, k := range n.kids[:c] {
			before = before.Add(k.total(item))
		}
		n, i = n.kids[c], j
	}
	return all.Sub(before)
}
