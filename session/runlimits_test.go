package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// growHdr is a one-vnode scenario, buffering after its first barrier.
const growHdr = "title: grow\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 1}\nsteps:\n  - barrier: 1\n"

// chunkStep is a chunk of n new rows starting at id.
func chunkStep(id, n int) string {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf(`"+ 0 %d"`, id+i)
	}
	return "chunk: [" + strings.Join(rows, ", ") + "]"
}

// reopen checks that what export() writes loads again and replays to the same trace.
func reopen(t *testing.T, s *Session) {
	t.Helper()
	ex := s.Export()
	back, err := Load("saved.yaml", []byte(ex.Scenario))
	require.NoError(t, err, "what export() writes must open again")
	require.NoError(t, back.Goto(s.Timeline().Pos()))
	assert.Equal(t, s.Trace(), back.Trace())
}

// apply() keeps a run within what a file may hold: it refuses, naming the limit, the step that
// would make the run more steps, more rows or more bytes than a scenario file may have, and
// what export() writes of any run it accepted opens again. (It used to accept anything: a run
// grew to 2,080,182 bytes and its save could not be opened.)
func TestApplyKeepsTheRunWithinTheLimits(t *testing.T) {
	tests := []struct {
		name  string
		set   func()
		step  func(i int) string
		limit string
	}{
		{"steps", func() { limits.steps = 20 }, func(i int) string { return fmt.Sprintf("barrier: %d", i+2) },
			"1:1: the run would have 21 steps; the limit is 20, so a saved run could not be opened again"},
		{"rows", func() { limits.rows = 50 }, func(i int) string { return chunkStep(10*i, 10) },
			"1:1: the run would hold 60 rows in all (chunk rows and start rows); the limit is 50, so a saved run could not be opened again"},
		{"bytes", func() { limits.bytes = 4096 }, func(i int) string { return chunkStep(20*i, 20) },
			"the limit is 4096 bytes (1 MiB), so a saved run could not be opened again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := limits
			defer func() { limits = old }()
			tt.set()
			s, err := Load("grow.yaml", []byte(growHdr))
			require.NoError(t, err)
			require.NoError(t, s.Step())
			var refused error
			for i := 0; i < 1000 && refused == nil; i++ {
				refused = s.Apply(tt.step(i))
				if refused == nil {
					reopen(t, s)
				}
			}
			require.Error(t, refused, "apply must refuse a step past the limit")
			assert.Contains(t, refused.Error(), tt.limit)
			reopen(t, s) // the refused step changed nothing
		})
	}
}

// With the real limits: chunks of 5,000 rows applied one after the other are refused once the
// run would pass 1 MiB, and the save of what was accepted opens again.
func TestApplyRefusesPastOneMebibyte(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: grows a run to 1 MiB; TestApplyKeepsTheRunWithinTheLimits checks the byte limit small")
	}
	s, err := Load("grow.yaml", []byte(growHdr))
	require.NoError(t, err)
	require.NoError(t, s.Step())
	var refused error
	applied := 0
	for i := 0; i < 100 && refused == nil; i++ {
		if refused = s.Apply(chunkStep(5000*i, 5000)); refused == nil {
			applied++
		}
	}
	require.Error(t, refused)
	assert.Regexp(t, `^1:1: the run would be \d+ bytes as a scenario file; the limit is 1048576 bytes \(1 MiB\)`, refused.Error())
	t.Logf("%d chunks applied: %s", applied, refused)
	reopen(t, s)
}

// A loaded scenario whose saved form would pass a limit is refused when it is loaded: a file in
// compact flow style (`steps: [end,recover,…]`) can be smaller than the file export() writes.
func TestLoadRefusesWhatCouldNotBeSaved(t *testing.T) {
	old := limits
	defer func() { limits = old }()
	limits.bytes = 600
	text := "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 1}\nsteps: [barrier: 1," + strings.TrimSuffix(strings.Repeat("recover,", 60), ",") + "]\n" // (a checkpoint first: a recovery before one drops the job)
	require.Less(t, len(text), 600)
	_, err := Load("flow.yaml", []byte(text))
	require.Error(t, err)
	assert.Regexp(t, `^flow.yaml:1:1: written out as the explainer saves scenarios, the run would be \d+ bytes as a scenario file; the limit is 600 bytes`, err.Error())
}

// The work a run may do is bounded: a short file that re-reads the same rows after each of
// many recoveries is refused at the step that would pass the limit, with its position.
func TestLoadRefusesTooMuchWork(t *testing.T) {
	old := limits
	defer func() { limits = old }()
	limits.work = 20_000
	var b strings.Builder
	b.WriteString("title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 1}\nstart: {state_table: [")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "[0,%d]", i)
	}
	b.WriteString("], progress: [{vnode: 0, pos: [0, -1]}]}\nsteps:\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "  - barrier: %d\n  - snapshot: 1001\n  - recover\n", i+1)
	}
	_, err := Load("work.yaml", []byte(b.String()))
	require.Error(t, err)
	assert.Regexp(t, `^work.yaml:\d+:5: step \d+: the run would do more than 20,000 units of work .*; the limit is 20,000$`, err.Error())
}
