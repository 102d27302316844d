package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

func ins(vals ...int64) engine.RowOp {
	r := make(engine.Row, len(vals))
	for i, v := range vals {
		r[i] = engine.Int(v)
	}
	return engine.RowOp{Op: engine.OpInsert, Row: r, Visible: true}
}

func bar(e int64) engine.Step {
	return engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: e, Checkpoint: true}}
}

func startBar(e int64, ids ...int64) engine.Step {
	s := bar(e)
	s.Barrier.StartBackfill = ids
	return s
}

func chunk(rows ...engine.RowOp) engine.Step {
	return engine.Step{Kind: engine.EventChunk, Chunk: rows}
}

func wm(col int, v int64) engine.Step {
	return engine.Step{Kind: engine.EventWatermark, Watermark: engine.Watermark{Column: col, Value: engine.Int(v)}}
}

func snap(n int) engine.Step { return engine.Step{Kind: engine.EventSnapshot, Count: n} }

func exampleConfig(title string, chunkSize int) *engine.Config {
	return &engine.Config{
		Title:      title,
		Columns:    []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "id", Type: engine.TypeBigint}},
		Locality:   []int{0},
		StreamKey:  []int{1},
		VnodeCount: 2,
		Owned:      []int{0, 1},
		Rule:       engine.RuleRanges,
		Bounds:     []int64{10},
		ChunkSize:  chunkSize,
		Fragment:   7,
		Actor:      1,
	}
}

func readValid(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "parse", "valid", name))
	require.NoError(t, err)
	return b
}

// validConfig is the Config of testdata/parse/valid/full.yaml.
func validConfig(t *testing.T) *engine.Config {
	sc, err := Parse("full.yaml", readValid(t, "full.yaml"))
	require.NoError(t, err)
	return sc.Config
}

func TestParseConformance(t *testing.T) {
	exB := startBar(2, 7)
	exB.Note = "state at backfill start v0 (1,100),(2,101),(3,102); v1 (11,200)"
	tests := []struct {
		file  string
		cfg   *engine.Config
		steps []engine.Step
		lines []int // line of each step
	}{
		{
			file: "example-a.yaml",
			cfg:  exampleConfig("protocol.md worked example A, the happy path", 256),
			steps: []engine.Step{
				bar(1), chunk(ins(1, 100), ins(11, 200), ins(2, 101)), wm(0, 5), bar(2), chunk(ins(12, 201)),
				startBar(3, 7), snap(2), wm(0, 6), chunk(ins(3, 102), ins(13, 202)), bar(4), snap(4), snap(1),
				chunk(ins(4, 103)), wm(0, 7), bar(5), wm(0, 8),
				chunk(engine.RowOp{Op: engine.OpDelete, Row: engine.Row{engine.Int(1), engine.Int(100)}, Visible: true}), bar(6),
			},
			lines: []int{7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24},
		},
		{
			file: "example-b.yaml",
			cfg:  exampleConfig("protocol.md worked example B, a builder fills mid-epoch (chunk_size 2)", 2),
			steps: []engine.Step{
				bar(1), chunk(ins(1, 100), ins(2, 101), ins(3, 102), ins(11, 200)), exB, snap(2), snap(1),
				chunk(ins(2, 50), ins(2, 150), ins(4, 103)), snap(1), bar(3), snap(2), bar(4),
			},
			lines: []int{7, 8, 9, 11, 12, 13, 14, 15, 16, 17},
		},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			sc, err := Parse(tc.file, readValid(t, tc.file))
			require.NoError(t, err)
			assert.Equal(t, tc.file, sc.File)
			assert.Equal(t, tc.cfg, sc.Config)
			assert.Equal(t, tc.steps, sc.Steps)
			require.Len(t, sc.Pos, len(tc.steps))
			for i, p := range sc.Pos {
				assert.Equal(t, Pos{tc.lines[i], 5}, p.Pos, "step %d", i+1)
				assert.Len(t, p.Rows, len(sc.Steps[i].Chunk))
			}
		})
	}
}

func TestParseConformanceFromShared(t *testing.T) {
	// CI runs with shared/ beside the clone; the copies in testdata must match the originals.
	for _, name := range []string{"example-a.yaml", "example-b.yaml"} {
		orig, err := os.ReadFile(filepath.Join("..", "..", "shared", "conformance", name))
		if err != nil {
			t.Skipf("shared conformance files not found: %v", err)
		}
		assert.Equal(t, string(orig), string(readValid(t, name)), "testdata copy of %s is stale", name)
	}
}

func TestParseFull(t *testing.T) {
	sc, err := Parse("full.yaml", readValid(t, "full.yaml"))
	require.NoError(t, err)
	cfg := sc.Config
	assert.Equal(t, "Every key of the format", cfg.Title)
	assert.Equal(t, "A recovery scenario with a **start** state and one of each step.\n", cfg.Summary)
	assert.Equal(t, []engine.Column{{Name: "a"}, {Name: "id"}, {Name: "v", Type: engine.TypeVarchar}}, cfg.Columns)
	assert.Equal(t, 3, cfg.VnodeCount)
	assert.Equal(t, []int{0, 1}, cfg.Owned)
	assert.Equal(t, []int64{10, 20}, cfg.Bounds)
	assert.Equal(t, int64(7), cfg.Fragment)
	assert.Equal(t, int64(3), cfg.Actor)
	x := engine.Str("x")
	assert.Equal(t, []engine.Row{{engine.Int(1), engine.Int(100), x}, {engine.Int(2), engine.Int(101), x}}, cfg.StartState)
	assert.Equal(t, []engine.ProgressRow{{Vnode: 0, Pos: engine.Row{engine.Int(2), engine.Int(101)}, Rows: 2}}, cfg.StartProgress)
	require.Len(t, sc.Steps, 11)
	assert.Equal(t, engine.Barrier{Epoch: 4, Checkpoint: true, Rescale: true}, sc.Steps[2].Barrier)
	assert.Equal(t, engine.Barrier{Epoch: 5}, sc.Steps[3].Barrier)
	assert.Equal(t, []engine.RowOp{
		{Op: engine.OpInsert, Row: engine.Row{engine.Int(1), engine.Int(100), x}, Visible: true},
		{Op: engine.OpUpdateDelete, Row: engine.Row{engine.Int(2), engine.Int(101), x}, Visible: true},
		{Op: engine.OpUpdateInsert, Row: engine.Row{engine.Int(2), engine.Int(101), engine.Str("y")}, Visible: true},
		{Op: engine.OpInsert, Row: engine.Row{engine.Int(3), engine.Int(999), engine.Str("q")}, Visible: false},
	}, sc.Steps[4].Chunk)
	assert.Equal(t, []Pos{{26, 13}, {26, 26}, {26, 40}, {26, 54}}, sc.Pos[4].Rows)
	assert.Equal(t, engine.Step{Kind: engine.EventError, Message: "upstream actor panicked"}, sc.Steps[8])
	assert.Equal(t, engine.Step{Kind: engine.EventRecover}, sc.Steps[9])
	assert.Equal(t, engine.Step{Kind: engine.EventRecover, Note: "Every step may carry a note, shown as narration at that step."}, sc.Steps[10])
}

func TestParseTypesAndQuoting(t *testing.T) {
	sc, err := Parse("types.json", readValid(t, "types.json"))
	require.NoError(t, err)
	cfg := sc.Config
	assert.Equal(t, []engine.Column{{Name: "k", Type: engine.TypeInt}, {Name: "id"}, {Name: "name", Type: engine.TypeVarchar}, {Name: "n"}}, cfg.Columns)
	assert.Equal(t, []engine.Row{{engine.Int(1), engine.Int(7), engine.Str("o'brien"), engine.Null()}}, cfg.StartState)
	rows := sc.Steps[1].Chunk
	assert.Equal(t, engine.Row{engine.Int(2), engine.Int(8), engine.Str("it's"), engine.Null()}, rows[0].Row)
	assert.Equal(t, engine.Row{engine.Int(-3), engine.Int(9), engine.Str("two words"), engine.Int(5)}, rows[1].Row)
	assert.Equal(t, engine.RowOp{Op: engine.OpDelete, Row: engine.Row{engine.Null(), engine.Int(10), engine.Null(), engine.Null()}}, rows[2])
	assert.Equal(t, engine.Str("true"), rows[3].Row[2])
	assert.Equal(t, engine.Str(""), rows[4].Row[2])
	assert.Equal(t, engine.Step{Kind: engine.EventWatermark, Watermark: engine.Watermark{Column: 2, Value: engine.Str("m")}, Note: "a note in JSON"}, sc.Steps[2])
	assert.False(t, sc.Steps[3].Barrier.Checkpoint)
}

func TestParseInference(t *testing.T) {
	sc, err := Parse("", []byte("title: t\ntable: {columns: [a, id, v, w], locality: [a], stream_key: [id]}\n"+
		"start: {state_table: [[1, 1, null, 'q']]}\nsteps:\n  - chunk: [\"+ 2 2 null x\"]\n  - watermark: {column: v, value: 3}\n"))
	require.NoError(t, err)
	assert.Equal(t, []engine.Column{{Name: "a"}, {Name: "id"}, {Name: "v"}, {Name: "w", Type: engine.TypeVarchar}}, sc.Config.Columns)

	sc, err = Parse("", []byte("title: t\ntable: {columns: [a, n], locality: [a], stream_key: [a]}\nsteps:\n  - chunk: [\"+ x null\"]\n"))
	require.NoError(t, err)
	assert.Equal(t, []engine.Column{{Name: "a", Type: engine.TypeVarchar}, {Name: "n", Type: engine.TypeBigint}}, sc.Config.Columns, "all-null is bigint")
}

func TestParseMinimal(t *testing.T) {
	sc, err := Parse("m.yaml", []byte("title: t\ntable: {columns: [a], locality: [a], stream_key: [a]}\nsteps: []\n"))
	require.NoError(t, err)
	assert.Equal(t, 256, sc.Config.VnodeCount)
	assert.Len(t, sc.Config.Owned, 256)
	assert.Equal(t, 255, sc.Config.Owned[255])
	assert.Equal(t, engine.RuleCRC32, sc.Config.Rule)
	assert.Equal(t, 256, sc.Config.ChunkSize)
	assert.Equal(t, int64(1), sc.Config.Fragment)
	assert.Equal(t, int64(1), sc.Config.Actor)
	assert.Empty(t, sc.Steps)
}

func TestParseValidFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "parse", "valid", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			text, err := os.ReadFile(f)
			require.NoError(t, err)
			sc, err := Parse(f, text)
			require.NoError(t, err)
			require.NoError(t, sc.Config.Validate())
			assertRoundTrip(t, sc)
		})
	}
}

func assertRoundTrip(t *testing.T, sc *Scenario) {
	t.Helper()
	out := FormatScenario(sc)
	back, err := Parse(sc.File, []byte(out))
	require.NoError(t, err, "FormatScenario output:\n%s", out)
	assert.Equal(t, sc.Config, back.Config, "FormatScenario output:\n%s", out)
	assert.Equal(t, sc.Steps, back.Steps, "FormatScenario output:\n%s", out)
	for _, s := range sc.Steps {
		line := FormatStep(sc.Config, s)
		assert.NotContains(t, line, "\n")
		got, err := ParseStep(sc.Config, line)
		require.NoError(t, err, line)
		assert.Equal(t, s, got, line)
	}
}

func TestFormatStep(t *testing.T) {
	cfg := &engine.Config{
		Columns:    []engine.Column{{Name: "a", Type: engine.TypeBigint}, {Name: "v", Type: engine.TypeVarchar}},
		Locality:   []int{0},
		StreamKey:  []int{1},
		VnodeCount: 4,
		Owned:      []int{0, 1, 2, 3},
		ChunkSize:  256,
	}
	row := func(op engine.Op, visible bool, a engine.Value, v engine.Value) engine.RowOp {
		return engine.RowOp{Op: op, Row: engine.Row{a, v}, Visible: visible}
	}
	s := engine.Str
	i := engine.Int
	tests := []struct {
		step engine.Step
		want string
	}{
		{bar(3), "barrier: 3"},
		{engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 4}}, "barrier: {epoch: 4, checkpoint: false}"},
		{startBar(5, 7, 8), "barrier: {epoch: 5, start_backfill: [7, 8]}"},
		{engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 5, StartBackfill: []int64{}}}, "barrier: {epoch: 5, start_backfill: [], checkpoint: false}"},
		{engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 6, Rescale: true, Checkpoint: true}}, "barrier: {epoch: 6, rescale: true}"},
		{engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 7, Mutation: engine.MutationPause, Checkpoint: true}}, "barrier: {epoch: 7, mutation: pause}"},
		{engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 8, Mutation: engine.MutationResume}}, "barrier: {epoch: 8, mutation: resume, checkpoint: false}"},
		{engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 9, Mutation: engine.MutationThrottle, Throttle: 1, Checkpoint: true}}, "barrier: {epoch: 9, mutation: {throttle: 1}}"},
		{engine.Step{Kind: engine.EventBarrier, Barrier: engine.Barrier{Epoch: 10, Mutation: engine.MutationThrottle, Throttle: 0, Checkpoint: true}}, "barrier: {epoch: 10, mutation: {throttle: 0}}"},
		{chunk(row(engine.OpInsert, true, i(1), s("x"))), `chunk: ["+ 1 x"]`},
		{chunk(row(engine.OpUpdateDelete, false, engine.Null(), s("it's")), row(engine.OpUpdateInsert, true, i(-5), s(""))), `chunk: ["(U- null 'it''s')", "U+ -5 ''"]`},
		{chunk(row(engine.OpDelete, true, i(1), s("true")), row(engine.OpInsert, true, i(2), s("null")), row(engine.OpInsert, true, i(3), s("42"))), `chunk: ["- 1 'true'", "+ 2 'null'", "+ 3 '42'"]`},
		{chunk(row(engine.OpInsert, true, i(1), s("a \"b\"\\c\n\t(x)")), row(engine.OpInsert, true, i(2), s("99999999999999999999"))), `chunk: ["+ 1 'a \"b\"\\c\n\t(x)'", "+ 2 '99999999999999999999'"]`},
		{chunk(row(engine.OpInsert, true, i(1), s("é\u2028\u0085"))), `chunk: ["+ 1 'é\u2028\u0085'"]`},
		{engine.Step{Kind: engine.EventWatermark, Watermark: engine.Watermark{Column: 1, Value: s("yes")}}, `watermark: {column: v, value: "yes"}`},
		{engine.Step{Kind: engine.EventWatermark, Watermark: engine.Watermark{Column: 0, Value: i(-9)}}, `watermark: {column: a, value: -9}`},
		{snap(3), "snapshot: 3"},
		{engine.Step{Kind: engine.EventEnd}, "end"},
		{engine.Step{Kind: engine.EventRecover}, "recover"},
		{engine.Step{Kind: engine.EventError, Message: "boom"}, "error: boom"},
		{engine.Step{Kind: engine.EventSnapshotError, Message: "storage read timed out"}, `snapshot_error: "storage read timed out"`},
		{engine.Step{Kind: engine.EventSnapshotError, Message: "x", Note: "n"}, `{snapshot_error: x, note: "n"}`},
		{engine.Step{Kind: engine.EventError, Message: "upstream: failed, #1"}, `error: "upstream: failed, #1"`},
		{engine.Step{Kind: engine.EventEnd, Note: "the end"}, `{end: null, note: "the end"}`},
		{engine.Step{Kind: engine.EventSnapshot, Count: 1, Note: "x"}, `{snapshot: 1, note: x}`},
		{engine.Step{Kind: engine.EventRecover, Note: "multi\nline"}, `{recover: null, note: "multi\nline"}`},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			got := FormatStep(cfg, tc.step)
			assert.Equal(t, tc.want, got)
			back, err := ParseStep(cfg, got)
			require.NoError(t, err)
			assert.Equal(t, tc.step, back)
		})
	}
}

func TestParseStep(t *testing.T) {
	cfg := validConfig(t)
	st, err := ParseStep(cfg, `chunk: ["+ 5 104 z"]`)
	require.NoError(t, err)
	assert.Equal(t, chunk(engine.RowOp{Op: engine.OpInsert, Row: engine.Row{engine.Int(5), engine.Int(104), engine.Str("z")}, Visible: true}), st)

	st, err = ParseStep(cfg, "barrier: {epoch: 9, start_backfill: [7]}")
	require.NoError(t, err)
	assert.Equal(t, startBar(9, 7), st)

	st, err = ParseStep(cfg, "barrier: 1") // no epoch history: any epoch ≥ 1
	require.NoError(t, err)
	assert.Equal(t, bar(1), st)

	for text, want := range map[string]engine.Step{
		"snapshot: 1":            snap(1),
		"end":                    {Kind: engine.EventEnd},
		"recover":                {Kind: engine.EventRecover},
		"error: boom":            {Kind: engine.EventError, Message: "boom"},
		"end:\nnote: bye":        {Kind: engine.EventEnd, Note: "bye"},
		"{snapshot: 2, note: n}": {Kind: engine.EventSnapshot, Count: 2, Note: "n"},
	} {
		st, err := ParseStep(cfg, text)
		require.NoError(t, err, text)
		assert.Equal(t, want, st, text)
	}

	bad := map[string]string{
		`chunk: ["+ 5 104"]`:               `1:10: row has 2 values; the table has 3 columns (a, id, v)`,
		`chunk: ["+ 25 104 z"]`:            `1:9: row (25,104,z) is on vnode 2, which actor 3 does not own (owned: 0, 1)`,
		`chunk: ["+ 5 104 7"]`:             `1:18: column v is varchar; 7 is an integer (write '7' in quotes for a string)`,
		"snapshot: 0":                      "1:11: snapshot delivers at least 1 item, found 0",
		"":                                 "1:1: empty step: expected one of barrier, chunk, watermark, snapshot, snapshot_error, end, error, recover",
		"barrier: [":                       "1:10: invalid YAML: did not find expected node content",
		"watermark: {column: v, value: 1}": "1:31: column v is varchar; 1 is an integer (write '1' in quotes for a string)",
		"barrier: {epoch: 2, rescale: true, x: 1}": `1:36: unknown key "x" in barrier; allowed keys: epoch, start_backfill, rescale, mutation, checkpoint`,
	}
	for text, want := range bad {
		_, err := ParseStep(cfg, text)
		require.Error(t, err, text)
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, "", e.File)
		assert.Equal(t, want, err.Error(), text)
	}
	_, err = ParseStep(&engine.Config{}, "end")
	assert.EqualError(t, err, "1:1: invalid configuration: table needs at least one column")
	_, err = ParseStep(nil, "end")
	assert.EqualError(t, err, "1:1: no configuration to read the step against")
}

func TestFormatScenarioEdgeCases(t *testing.T) {
	text := "title: \"#1: a 'title' with \\\"quotes\\\"\"\nsummary: \"line1\\nline2\"\n" +
		"table: {columns: [k, 'v:varchar', n:int], locality: [k, n], stream_key: [v]}\n" +
		"vnodes: {count: 8, owned: [7, 0, 3, 6, 1, 2, 5, 4]}\n" +
		"start:\n  state_table: [[5, \"yes\", 7], [5, 'a b', null]]\n" +
		"  progress: [{vnode: 3, pos: [5, null, 'a b'], finished: true, rows: 9}, {vnode: 0, pos: [null, null, null]}]\n" +
		"steps: []\n"
	sc, err := Parse("e.yaml", []byte(text))
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, sc.Config.Owned)
	assert.Equal(t, 0, sc.Config.StartProgress[0].Vnode, "progress is sorted by vnode")
	assertRoundTrip(t, sc)
	assert.True(t, strings.HasPrefix(FormatScenario(sc), "title: \"#1: a 'title' with \\\"quotes\\\"\"\n"))
}

// TestBuiltinsRoundTrip: every built-in scenario, written out by FormatScenario and read back,
// is the same scenario (every step kind the built-ins use, mutations and snapshot errors
// included).
func TestBuiltinsRoundTrip(t *testing.T) {
	for _, name := range BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			text, err := BuiltinText(name)
			require.NoError(t, err)
			sc, err := Parse(name+".yaml", text)
			require.NoError(t, err)
			assertRoundTrip(t, sc)
		})
	}
}
