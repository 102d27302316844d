// Package testutil holds what the tests of several packages share. Tests only.
package testutil

import "runtime"

// Allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc: the same on any
// machine, however loaded, so cost tests compare it and never time). TotalAlloc is cumulative,
// so no collection is needed before reading it (one per call made FuzzParseCost run a few inputs a
// second).
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
