package scenarios

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/stretchr/testify/require"
)

// Cost tests compare bytes allocated (runtime.MemStats.TotalAlloc: the same on any machine,
// however loaded), never time.

// oneLine is a scenario whose only chunk holds n rows on one line.
func oneLine(n int) []byte {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf(`"+ 0 %d"`, i)
	}
	return []byte("title: one line\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 1}\nsteps:\n  - barrier: 1\n  - chunk: [" + strings.Join(rows, ", ") + "]\n")
}

// parseCostBound is what Parse may allocate for a text of n bytes: a constant, a few hundred
// bytes per byte of text (YAML tokens and nodes, values, positions), and, for a syntax error,
// what locateProblem's searches decode: prefixes of the text a logarithmic number of times
// (lines, then characters), at most probeBudget bytes in all, at a few hundred bytes per byte
// (one decoding of a 743-byte flow list with stray quotes allocates 118 KB). Never more with
// longer lines.
func parseCostBound(n int) uint64 {
	probed := min(uint64(n)*uint64(2*bits.Len(uint(n))+2), probeBudget)
	return 256<<10 + 1024*uint64(n) + 256*probed
}

// Positions inside row strings cost what the row holds, not what its line holds: each value's
// position used to convert the whole line to runes (20,000 rows on one line took 4.4 s, a
// 1 MiB one-line file 220 s).
func TestRowPositionsAreLinearInTheLine(t *testing.T) {
	small, large := oneLine(2000), oneLine(8000)
	a := testutil.Allocated(func() { _, err := Parse("s.yaml", small); require.NoError(t, err) })
	b := testutil.Allocated(func() { _, err := Parse("l.yaml", large); require.NoError(t, err) })
	t.Logf("%d bytes: %d allocated; %d bytes: %d allocated (ratio %.2f; linear about 4, quadratic 16)", len(small), a, len(large), b, float64(b)/float64(a))
	require.Less(t, float64(b)/float64(a), 6.0)
	require.Less(t, b, parseCostBound(len(large)))
}

// FuzzParseCost: whatever the text, Parse allocates at most a constant plus a bounded amount
// per byte of it. The corpus (testdata/fuzz/FuzzParseCost) keeps long one-line inputs.
func FuzzParseCost(f *testing.F) {
	f.Add(oneLine(100))
	f.Add([]byte("{title: t, table: {columns: [a, id], locality: [a], stream_key: [id]}, vnodes: {count: 1}, steps: [{barrier: 1}, {chunk: ['+ 0 1', '+ 0 2']}]}"))
	for _, c := range errorCases {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		n := testutil.Allocated(func() { _, _ = Parse("fuzz.yaml", text) })
		if bound := parseCostBound(len(text)); n > bound {
			t.Fatalf("Parse of %d bytes allocated %d bytes (bound %d)", len(text), n, bound)
		}
	})
}
