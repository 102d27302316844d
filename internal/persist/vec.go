package persist

import (
	"iter"
	"slices"
)

const (
	pageBits = 7 // a page holds 128 elements
	pageSize = 1 << pageBits
	dirBits  = 4 // a directory holds 16 pages
	dirSize  = 1 << dirBits
)

// Index is the type of a Vec's indices (the engine's owned index).
type Index interface{ ~int | ~int32 }

// Vec is a vector of n values (one per owned vnode) indexed by I, kept in pages of 128,
// themselves in directories of 16 pages. A copy (Share) copies one pointer per directory — 16 for 32768
// vnodes — and the copies share each directory and page until one of them writes to it. An
// absent page holds zero values: a new vector costs one pointer per directory, and Present
// visits only the pages that were written.
type Vec[I Index, T any] struct {
	n    int
	dirs []*vdir[T]
	tag  *Tag
}

type vdir[T any] struct {
	owner *Tag
	pages [dirSize]*vpage[T]
}

type vpage[T any] struct {
	owner *Tag
	vals  []T
}

// NewVec returns a vector of n zero values.
func NewVec[I Index, T any](n int) *Vec[I, T] {
	return &Vec[I, T]{n: n, dirs: make([]*vdir[T], (n+pageSize*dirSize-1)>>(pageBits+dirBits)), tag: new(Tag)}
}

// Len is the number of elements.
func (v *Vec[I, T]) Len() int { return v.n }

// Tag is the tag of this copy: the Seq values stored in it are changed under it (a node that
// Tag owns was made since the vector was last shared, and is changed in place).
func (v *Vec[I, T]) Tag() *Tag { return v.tag }

// page returns page pi, or nil.
func (v *Vec[I, T]) page(pi int) *vpage[T] {
	if d := v.dirs[pi>>dirBits]; d != nil {
		return d.pages[pi&(dirSize-1)]
	}
	return nil
}

// At returns element i (the zero value when its page was never written).
func (v *Vec[I, T]) At(idx I) T {
	i := int(idx)
	if p := v.page(i >> pageBits); p != nil {
		return p.vals[i&(pageSize-1)]
	}
	var zero T
	return zero
}

// Ref returns a pointer through which element i may be changed, copying its directory and page
// first when they are shared (or creating them when absent).
func (v *Vec[I, T]) Ref(idx I) *T {
	i := int(idx)
	pi := i >> pageBits
	d := v.dirs[pi>>dirBits]
	switch {
	case d == nil:
		d = &vdir[T]{owner: v.tag}
		v.dirs[pi>>dirBits] = d
	case d.owner != v.tag:
		c := *d
		c.owner = v.tag
		d = &c
		v.dirs[pi>>dirBits] = d
	}
	p := d.pages[pi&(dirSize-1)]
	switch {
	case p == nil:
		p = &vpage[T]{owner: v.tag, vals: make([]T, min(pageSize, v.n-pi<<pageBits))}
		d.pages[pi&(dirSize-1)] = p
	case p.owner != v.tag:
		p = &vpage[T]{owner: v.tag, vals: slices.Clone(p.vals)}
		d.pages[pi&(dirSize-1)] = p
	}
	return &p.vals[i&(pageSize-1)]
}

// Set changes element i.
func (v *Vec[I, T]) Set(i I, x T) { *v.Ref(i) = x }

// Freeze makes everything v can reach read-only for v: later changes copy first. It is what
// lets a caller keep an element's value (or what it points to) while v changes on.
func (v *Vec[I, T]) Freeze() { v.tag = new(Tag) }

// Share returns a copy. From now on neither changes a directory, a page (or what a tag guards
// below it) in place before copying it.
func (v *Vec[I, T]) Share() *Vec[I, T] {
	v.Freeze()
	return &Vec[I, T]{n: v.n, dirs: slices.Clone(v.dirs), tag: new(Tag)}
}

// Pages is the number of pages.
func (v *Vec[I, T]) Pages() int { return (v.n + pageSize - 1) >> pageBits }

// PageRange returns the indices of page pi's elements: lo ≤ i < hi.
func (v *Vec[I, T]) PageRange(pi int) (lo, hi I) {
	return I(pi << pageBits), I(min(v.n, (pi+1)<<pageBits))
}

// HasPage reports whether page pi (elements pi*128 …) was ever written.
func (v *Vec[I, T]) HasPage(pi int) bool { return v.page(pi) != nil }

// Present yields every element of the pages that were written, in index order (elements of
// absent pages are zero and are skipped).
func (v *Vec[I, T]) Present() iter.Seq2[I, T] {
	return func(yield func(I, T) bool) {
		for di, d := range v.dirs {
			if d == nil {
				continue
			}
			for pj, p := range d.pages {
				if p == nil {
					continue
				}
				base := (di<<dirBits + pj) << pageBits
				for j, x := range p.vals {
					if !yield(I(base+j), x) {
						return
					}
				}
			}
		}
	}
}

// Changes calls f for every index whose element may differ between a and b (two copies of one
// Vec, or nil for one that does not exist): pages they share are skipped.
func Changes[I Index, T any](a, b *Vec[I, T], f func(i I)) {
	switch {
	case a == nil && b == nil:
		return
	case a == nil || b == nil || a.n != b.n:
		n := 0
		if a != nil {
			n = a.n
		}
		if b != nil {
			n = max(n, b.n)
		}
		for i := 0; i < n; i++ {
			f(I(i))
		}
		return
	}
	for pi := 0; pi < a.Pages(); pi++ {
		if a.page(pi) == b.page(pi) {
			continue // the same page (or absent in both): nothing in it changed
		}
		lo, hi := a.PageRange(pi)
		for i := lo; i < hi; i++ {
			f(i)
		}
	}
}
