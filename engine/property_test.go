package engine_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/backfill-explainer/explainer/timeline"
	"github.com/backfill-explainer/explainer/view"
)

// chooser is a source of choices: a seeded rand in the property test, the fuzzer's bytes in
// the fuzz target.
type chooser interface{ Intn(n int) int }

// byteChooser draws choices from a byte string (zeros once exhausted).
type byteChooser struct {
	b []byte
	i int
}

func (c *byteChooser) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	v := 0
	for k := 0; k < 2; k++ {
		v <<= 8
		if c.i < len(c.b) {
			v |= int(c.b[c.i])
			c.i++
		}
	}
	return v % n
}

// randomConfig makes a small actor: 1-4 vnodes by ranges or modulo, a random owned subset.
func randomConfig(r chooser) *engine.Config {
	count := 1 + r.Intn(4)
	cfg := &engine.Config{
		Title:      "random",
		Columns:    []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}},
		Locality:   []int{0},
		StreamKey:  []int{1},
		VnodeCount: count,
		ChunkSize:  1 + r.Intn(4),
		Fragment:   7,
		Actor:      1,
	}
	if r.Intn(2) == 0 {
		cfg.Rule = engine.RuleModulo
	} else {
		cfg.Rule = engine.RuleRanges
		for i := 1; i < count; i++ {
			cfg.Bounds = append(cfg.Bounds, int64(10*i))
		}
	}
	for v := 0; v < count; v++ {
		if r.Intn(3) > 0 {
			cfg.Owned = append(cfg.Owned, v)
		}
	}
	if len(cfg.Owned) == 0 {
		cfg.Owned = []int{r.Intn(count)}
	}
	return cfg
}

// keyIn returns a locality key that lands on vnode v.
func keyIn(cfg *engine.Config, v int, r chooser) int64 {
	if cfg.Rule == engine.RuleModulo {
		return int64(v + cfg.VnodeCount*r.Intn(4))
	}
	return int64(10*v + r.Intn(10))
}

// randomStep proposes a step; the engine may refuse it (then another is proposed).
func randomStep(cfg *engine.Config, r chooser, epoch *int64, rows *[]engine.Row, phase engine.Phase) engine.Step {
	if phase == engine.PhaseFailed || phase == engine.PhaseEnded {
		return engine.Step{Kind: engine.EventRecover}
	}
	switch k := r.Intn(100); {
	case k < 20:
		*epoch += int64(1 + r.Intn(2))
		b := engine.Barrier{Epoch: *epoch, Checkpoint: r.Intn(6) > 0}
		switch r.Intn(12) {
		case 0, 1, 2, 3:
			b.StartBackfill = []int64{7}
		case 4:
			b.StartBackfill = []int64{8}
		case 5:
			if r.Intn(3) == 0 {
				b.Rescale = true
			}
		}
		return engine.Step{Kind: engine.EventBarrier, Barrier: b}
	case k < 45:
		var chunk []engine.RowOp
		for n := 1 + r.Intn(4); n > 0; n-- {
			if len(*rows) > 0 && r.Intn(3) == 0 {
				old := (*rows)[r.Intn(len(*rows))]
				if r.Intn(2) == 0 {
					chunk = append(chunk, engine.RowOp{Op: engine.OpDelete, Row: old, Visible: true})
				} else {
					vis := r.Intn(5) > 0
					chunk = append(chunk, engine.RowOp{Op: engine.OpUpdateDelete, Row: old, Visible: vis},
						engine.RowOp{Op: engine.OpUpdateInsert, Row: old, Visible: vis})
				}
				continue
			}
			v := cfg.Owned[r.Intn(len(cfg.Owned))]
			row := engine.Row{engine.Int(keyIn(cfg, v, r)), engine.Int(int64(100 + r.Intn(1000)))}
			*rows = append(*rows, row)
			chunk = append(chunk, engine.RowOp{Op: engine.OpInsert, Row: row, Visible: r.Intn(6) > 0})
		}
		return engine.Step{Kind: engine.EventChunk, Chunk: chunk}
	case k < 50:
		return engine.Step{Kind: engine.EventWatermark, Watermark: engine.Watermark{Column: 0, Value: engine.Int(int64(r.Intn(50)))}}
	case k < 88:
		return engine.Step{Kind: engine.EventSnapshot, Count: 1 + r.Intn(3)}
	case k < 91:
		return engine.Step{Kind: engine.EventEnd}
	case k < 94:
		return engine.Step{Kind: engine.EventError, Message: "upstream actor panicked"}
	}
	return engine.Step{Kind: engine.EventRecover}
}

var documented = []string{
	engine.ErrUpstreamEnded, engine.ErrStreamClosed, engine.ErrRescale,
	engine.PanicFirstMessage + ": ", engine.PanicNotCheckpoint, "upstream actor panicked",
}

// runRandom drives one random scenario and checks the engine's promises after every step.
// It returns the applied script.
func runRandom(t testing.TB, r chooser, steps int) (*engine.Config, []engine.Step) {
	cfg := randomConfig(r)
	e, err := engine.New(cfg)
	require.NoError(t, err)
	var epoch int64
	var rows []engine.Row
	var script []engine.Step
	for len(script) < steps {
		if e.Phase() == engine.PhaseDropped {
			break // the recovery dropped the job: nothing can follow
		}
		s := randomStep(cfg, r, &epoch, &rows, e.Phase())
		if err := e.Apply(s); err != nil {
			var ie *engine.InputError
			require.True(t, errors.As(err, &ie), "a refusal is an *InputError: %v", err)
			if s.Kind == engine.EventBarrier {
				epoch++ // keep epochs moving
			}
			continue
		}
		script = append(script, s)
		if f := e.Failure(); f != nil {
			ok := false
			for _, d := range documented {
				if f.Message == d || (strings.HasSuffix(d, ": ") && strings.HasPrefix(f.Message, d)) {
					ok = true
				}
			}
			require.True(t, ok, "undocumented failure %q", f.Message)
		}
		if inv := e.Invariant(); inv.Status == "violated" {
			t.Fatalf("step %d: %s\nscript: %s", len(script), inv.Text, describe(cfg, script))
		}
		if len(script)%16 == 0 {
			_, err := json.Marshal(view.Of(e))
			require.NoError(t, err)
		}
	}
	return cfg, script
}

func describe(cfg *engine.Config, script []engine.Step) string {
	parts := make([]string, len(script))
	for i, s := range script {
		parts[i] = fmt.Sprintf("%d:%s", i+1, s.Describe(cfg.Columns))
	}
	return fmt.Sprintf("vnodes %d owned %v rule %s chunk %d | %s", cfg.VnodeCount, cfg.Owned, cfg.Rule, cfg.ChunkSize, strings.Join(parts, " | "))
}

// TestPropertyRandomScenarios: thousands of random valid scenarios never panic, refuse invalid
// steps with an InputError, fail only with documented errors, and keep the invariant.
func TestPropertyRandomScenarios(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 100 // -short: a thirtieth of the random scenarios
	}
	for seed := 0; seed < n; seed++ {
		runRandom(t, rand.New(rand.NewSource(int64(seed))), 80)
	}
}

// TestTimelineAgreesWithAFreshRun: going to any step (back, forward, far) gives exactly the
// state a fresh run to that step gives.
func TestTimelineAgreesWithAFreshRun(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8 // -short: a fifth of the random scenarios
	}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewSource(int64(1000 + seed)))
		cfg, script := runRandom(t, r, 300)
		base, err := engine.New(cfg)
		require.NoError(t, err)
		tl := timeline.New(base, script, func(s engine.Step) string { return s.Describe(cfg.Columns) })
		if seed%2 == 0 {
			require.NoError(t, tl.Prepare()) // quiet kept copies: goto must still narrate
		}
		for k := 0; k < 12; k++ {
			n := r.Intn(len(script) + 1)
			if k < 2 {
				n = min(len(script), 64*(k+1)) // exactly at a kept copy
			}
			require.NoError(t, tl.Goto(n))
			fresh, _ := engine.New(cfg)
			for _, s := range script[:n] {
				require.NoError(t, fresh.Apply(s))
			}
			require.Equal(t, testutil.MustJSON(fresh.Trace()), testutil.MustJSON(tl.Engine().Trace()), "goto %d", n)
			require.Equal(t, fresh.Explanations(), tl.Engine().Explanations(), "goto %d", n)
		}
	}
}

// FuzzEvents drives the engine with fuzzer-chosen scenarios: it must never panic and must
// keep its promises (see runRandom).
func FuzzEvents(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"))
	f.Add([]byte(strings.Repeat("backfill", 40)))
	f.Fuzz(func(t *testing.T, data []byte) {
		runRandom(t, &byteChooser{b: data}, 60)
	})
}

// TestQuietRunAgreesWithNarrated: without narration the engine takes a snapshot step's rows a
// run at a time (snapshotItems); it must reach exactly what the narrated run, item by item,
// reaches, after every step of random scenarios with larger snapshot steps and chunk sizes.
func TestQuietRunAgreesWithNarrated(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 10 // -short: a thirtieth of the random scenarios
	}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewSource(int64(5000 + seed)))
		cfg, script := runRandom(t, r, 120)
		for i := range script {
			if script[i].Kind == engine.EventSnapshot {
				script[i].Count = 1 + r.Intn(12)
			}
		}
		loud, err := engine.New(cfg)
		require.NoError(t, err)
		quiet, err := engine.New(cfg)
		require.NoError(t, err)
		quiet.SetNarration(false)
		for k, s := range script {
			errL, errQ := loud.Apply(s), quiet.Apply(s)
			require.Equal(t, errL == nil, errQ == nil, "seed %d step %d", seed, k)
			require.Equal(t, testutil.MustJSON(loud.Trace()), testutil.MustJSON(quiet.Trace()), "seed %d step %d", seed, k)
			require.Equal(t, loud.Invariant(), quiet.Invariant(), "seed %d step %d", seed, k)
		}
	}
}
