// Package splitmix is the project's pseudo-random generator: SplitMix64 (Steele, Lea, Flood
// 2014), our own so that a seed gives the same sequence on every machine and every Go version.
// The workload generator draws from it, and so do the engine's randomized tests.
package splitmix

import "math/bits"

// Rand is a SplitMix64 generator; its zero value is the seed 0.
type Rand struct{ s uint64 }

// New returns a generator at seed.
func New(seed uint64) Rand { return Rand{s: seed} }

// Next returns the next 64 random bits.
func (r *Rand) Next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return Mix64(r.s)
}

// Mix64 is SplitMix64's finalizer: a bijection that scatters nearby inputs.
func Mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a uniform integer in 0..n-1 (n ≥ 1), by Lemire's multiply-and-reject.
func (r *Rand) Intn(n uint64) uint64 {
	hi, lo := bits.Mul64(r.Next(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Next(), n)
		}
	}
	return hi
}
