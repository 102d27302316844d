package persist

import "math/bits"

// Bitset is a set of indices in a copy-on-write Vec of 64-bit words; Next skips a page of 8192
// absent indices of type I in one step. The zero value has no words: NewBitset makes one.
type Bitset[I Index] struct{ words *Vec[int, uint64] }

// NewBitset returns an empty set of indices below n.
func NewBitset[I Index](n int) Bitset[I] { return Bitset[I]{NewVec[int, uint64]((n + 63) / 64)} }

// Share returns a copy; from now on neither changes a word in place before copying it.
func (b Bitset[I]) Share() Bitset[I] { return Bitset[I]{b.words.Share()} }

// Has reports whether i is a member.
func (b Bitset[I]) Has(i I) bool { return b.words.At(int(i>>6))&(1<<(i&63)) != 0 }

// Put makes i a member (on) or not.
func (b Bitset[I]) Put(i I, on bool) {
	w := b.words.At(int(i >> 6))
	nw := w &^ (1 << (i & 63))
	if on {
		nw |= 1 << (i & 63)
	}
	if nw != w {
		b.words.Set(int(i>>6), nw)
	}
}

// Next returns the smallest member ≥ from, or -1.
func (b Bitset[I]) Next(from I) I {
	for w := int(from >> 6); w < b.words.Len(); {
		if !b.words.HasPage(w >> pageBits) {
			w = (w>>pageBits + 1) << pageBits
			continue
		}
		x := b.words.At(w)
		if w == int(from>>6) {
			x &= ^uint64(0) << (from & 63)
		}
		if x != 0 {
			return I(w<<6 + bits.TrailingZeros64(x))
		}
		w++
	}
	return -1
}
