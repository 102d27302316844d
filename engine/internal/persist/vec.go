package engine

import (
	"iter"
	"slices"
)

// cowTag marks what one copy of a copy-on-write structure may change in place (see pvec and
// pseq): a page or node whose owner is the copy's tag is its own; anything else is shared and is
// copied before a change. Giving a copy a new tag freezes everything it could reach.
type cowTag struct{ _ byte } // not zero-sized, so that every new tag is a distinct pointer

const (
	pageBits = 7 // a page holds 128 elements
	pageSize = 1 << pageBits
	dirBits  = 4 // a directory holds 16 pages
	dirSize  = 1 << dirBits
)

// pvec is a vector of n values (one per owned vnode) kept in pages of pageSize, themselves in
// directories of dirSize pages. A copy (share) copies one pointer per directory — 16 for 32768
// vnodes — and the copies share each directory and page until one of them writes to it. An
// absent page holds zero values: a new vector costs one pointer per directory, and present
// visits only the pages that were written.
type pvec[T any] struct {
	n    int
	dirs []*vdir[T]
	tag  *cowTag
}

type vdir[T any] struct {
	owner *cowTag
	pages [dirSize]*vpage[T]
}

type vpage[T any] struct {
	owner *cowTag
	vals  []T
}

func newPvec[T any](n int) *pvec[T] {
	return &pvec[T]{n: n, dirs: make([]*vdir[T], (n+pageSize*dirSize-1)>>(pageBits+dirBits)), tag: new(cowTag)}
}

// len is the number of elements.
func (v *pvec[T]) len() int { return v.n }

// page returns page pi, or nil.
func (v *pvec[T]) page(pi int) *vpage[T] {
	if d := v.dirs[pi>>dirBits]; d != nil {
		return d.pages[pi&(dirSize-1)]
	}
	return nil
}

// at returns element i (the zero value when its page was never written).
func (v *pvec[T]) at(i int) T {
	if p := v.page(i >> pageBits); p != nil {
		return p.vals[i&(pageSize-1)]
	}
	var zero T
	return zero
}

// ref returns a pointer through which element i may be changed, copying its directory and page
// first when they are shared (or creating them when absent).
func (v *pvec[T]) ref(i int) *T {
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

// set changes element i.
func (v *pvec[T]) set(i int, x T) { *v.ref(i) = x }

// freeze makes everything v can reach read-only for v: later changes copy first. It is what
// lets a caller keep an element's value (or what it points to) while v changes on.
func (v *pvec[T]) freeze() { v.tag = new(cowTag) }

// share returns a copy. From now on neither changes a directory, a page (or what a tag guards
// below it) in place before copying it.
func (v *pvec[T]) share() *pvec[T] {
	v.freeze()
	return &pvec[T]{n: v.n, dirs: slices.Clone(v.dirs), tag: new(cowTag)}
}

// pages is the number of pages.
func (v *pvec[T]) pages() int { return (v.n + pageSize - 1) >> pageBits }

// hasPage reports whether page pi (elements pi*pageSize …) was ever written.
func (v *pvec[T]) hasPage(pi int) bool { return v.page(pi) != nil }

// present yields every element of the pages that were written, in index order (elements of
// absent pages are zero and are skipped).
func (v *pvec[T]) present() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
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
					if !yield(base+j, x) {
						return
					}
				}
			}
		}
	}
}
