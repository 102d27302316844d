package persist

import (
	"encoding/binary"
	"math/bits"
)

// Digest is a 128-bit hash. The digest of a sequence is the sum (mod 2^128) of its items'
// digests: it depends on what the sequence holds, not on the shape of its tree, and a node
// keeps the sum of what lies under it until it changes, so that the explorer can tell two
// states apart without reading every row of both (see the engine's appendStateKey). The
// sequences it sums are sorted by their items, so the order needs no part in it.
type Digest struct{ lo, hi uint64 }

// Add returns a + b (mod 2^128).
func (a Digest) Add(b Digest) Digest {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return Digest{lo, hi}
}

// Sub returns a - b (mod 2^128).
func (a Digest) Sub(b Digest) Digest {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, c)
	return Digest{lo, hi}
}

// Append appends the digest's 16 bytes to b: the low half, then the high half, each
// little-endian.
func (a Digest) Append(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, a.lo)
	return binary.LittleEndian.AppendUint64(b, a.hi)
}

// DigestOf hashes an item's canonical encoding: FNV-1a with 128 bits (no allocation, a few
// nanoseconds for a row, in the wasm too, where SHA-256 has no hardware help), then each half
// mixed with the other so that sums of digests carry no arithmetic pattern of the bytes.
func DigestOf(b []byte) Digest {
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
	return Digest{mix(lo ^ mix(hi)), mix(hi + mix(lo))}
}

// Hasher hashes a run of 64-bit words, as DigestOf hashes bytes but a word at a time: equal
// runs have equal digests, and it allocates nothing. The zero value is not ready: NewHasher.
type Hasher struct{ a, b uint64 }

// NewHasher returns a hasher that has hashed no word.
func NewHasher() Hasher { return Hasher{0x6c62272e07bb0142, 0x62b821756295c58d} }

// Word hashes w.
func (h *Hasher) Word(w uint64) {
	h.a = mix(h.a ^ w)
	h.b = mix(h.b+w) ^ h.a
}

// Sum returns the digest of the words hashed.
func (h *Hasher) Sum() Digest { return Digest{mix(h.a ^ mix(h.b)), mix(h.b + mix(h.a))} }

// mix is MurmurHash3's 64-bit finalizer.
func mix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// ItemDigest is a kind of digest of items: Slot says where nodes keep its sums (0 or 1; one
// kind per slot for a given item type), and Sum sums the digests of a run of items (one call
// for a leaf's items, not one per item).
type ItemDigest[E any] struct {
	Slot int
	Sum  func([]E) Digest
}
