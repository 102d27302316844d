//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// bigScenario is a backfill over 32768 vnodes (the format's most) with ten recoveries.
func bigScenario() string {
	var b strings.Builder
	b.WriteString("title: 32768 vnodes\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 32768}\nfragment: 7\nsteps:\n")
	b.WriteString("  - barrier: 1\n  - chunk: [\"+ 1 100\", \"+ 2 200\", \"+ 3 300\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n  - snapshot: 1\n  - barrier: 3\n")
	epoch := 4
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, "  - chunk: [\"+ %d %d\"]\n  - barrier: %d\n  - recover\n  - barrier: %d\n  - snapshot: 1\n", 10+i, 1000+i, epoch, epoch+1)
		epoch += 2
	}
	return b.String()
}

// The page's engine loads a 32768-vnode scenario with ten recoveries, goes to its end and back
// and steps, in the wasm (under Node), without running out of memory: one barrier over 16384
// vnodes used to exhaust it (describeProgress built a string by repeated +=).
func TestLargeVnodeCountInTheWasm(t *testing.T) {
	b := &bridge{}
	_, e := answer(t, b.call("load", mustJSON(t, bigScenario())))
	require.Empty(t, e)
	ok, e := answer(t, b.call("steps", ""))
	require.Empty(t, e)
	_, e = answer(t, b.call("goto", string(ok)))
	require.Empty(t, e, "to the end: every barrier and recovery, narrated")
	ok, e = answer(t, b.call("state", ""))
	require.Empty(t, e)
	require.Contains(t, string(ok), `"phase":"backfilling"`)
	_, e = answer(t, b.call("goto", "3"))
	require.Empty(t, e, "going back replays from a kept copy")
	for i := 0; i < 4; i++ {
		_, e = answer(t, b.call("step", ""))
		require.Empty(t, e)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	t.Logf("heap in use %d MB, obtained from the system %d MB", m.HeapInuse>>20, m.Sys>>20)
	require.Less(t, m.Sys, uint64(1<<30), "the wasm's memory must stay well under its 4 GB")
}

// The explorer answers within its budget in the wasm: the 2 KB scenario of a 200-row chunk and
// ten chunk/barrier pairs used to run the page's worker out of memory after 70 s ("undefined" is
// not valid JSON); it now stops at the state budget and says so.
func TestExplorerStopsWithinItsBudgetInTheWasm(t *testing.T) {
	var b strings.Builder
	b.WriteString("title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 1}\nsteps:\n  - barrier: 1\n  - chunk: [")
	for i := 0; i < 200; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"+ 0 %d\"", i)
	}
	b.WriteString("]\n  - barrier: 2\n  - barrier: {epoch: 3, start_backfill: [1]}\n")
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, "  - chunk: [\"+ 0 %d\"]\n  - barrier: %d\n", 100000+i, 4+i)
	}
	br := &bridge{}
	_, e := answer(t, br.call("load", mustJSON(t, b.String())))
	require.Empty(t, e)
	ok, e := answer(t, br.call("explore", "5000"))
	require.Empty(t, e)
	var x struct {
		States     int    `json:"states"`
		Capped     bool   `json:"capped"`
		Exhaustive bool   `json:"exhaustive"`
		Stopped    string `json:"stopped"`
	}
	require.NoError(t, json.Unmarshal(ok, &x))
	require.Equal(t, 5000, x.States)
	require.True(t, x.Capped)
	require.False(t, x.Exhaustive)
	require.Contains(t, x.Stopped, "stopped at the budget of 5000 states, not exhaustive")
}
