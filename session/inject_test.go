package session

import (
	"testing"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFormatForm: every kind of step the inject form offers becomes the text FormatStep writes,
// which the parser reads back to the same step; bad values name their field.
func TestFormatForm(t *testing.T) {
	s, err := OpenBuiltin("happy-path")
	require.NoError(t, err)
	require.NoError(t, s.Goto(6))
	tests := []struct {
		name   string
		values map[string]any
		text   string
		err    string
	}{
		{"barrier", map[string]any{"kind": "barrier", "epoch": "9", "mutation": "none", "checkpoint": true}, "barrier: 9", ""},
		{"barrier as a number", map[string]any{"kind": "barrier", "epoch": 9.0}, "barrier: 9", ""},
		{"start signal", map[string]any{"kind": "barrier", "epoch": "9", "mutation": "start_backfill", "fragments": "7, 8", "checkpoint": true}, "barrier: {epoch: 9, start_backfill: [7, 8]}", ""},
		{"rescale", map[string]any{"kind": "barrier", "epoch": "9", "mutation": "rescale", "checkpoint": true}, "barrier: {epoch: 9, rescale: true}", ""},
		{"not a checkpoint", map[string]any{"kind": "barrier", "epoch": "9", "mutation": "none", "checkpoint": false}, "barrier: {epoch: 9, checkpoint: false}", ""},
		{"chunk", map[string]any{"kind": "chunk", "rows": "+ 5 104\n\n(- 6 105)\n"}, `chunk: ["+ 5 104", "(- 6 105)"]`, ""},
		{"watermark", map[string]any{"kind": "watermark", "column": "a", "value": "7"}, "watermark: {column: a, value: 7}", ""},
		{"snapshot", map[string]any{"kind": "snapshot", "count": "2"}, "snapshot: 2", ""},
		{"end", map[string]any{"kind": "end"}, "end", ""},
		{"error", map[string]any{"kind": "error", "message": "upstream: it's \"gone\""}, `error: "upstream: it's \"gone\""`, ""},
		{"snapshot error", map[string]any{"kind": "snapshot_error", "message": "timeout"}, "snapshot_error: timeout", ""},
		{"recover", map[string]any{"kind": "recover"}, "recover", ""},
		{"bad epoch", map[string]any{"kind": "barrier", "epoch": "nine"}, "", "epoch: write a whole number"},
		{"bad fragment", map[string]any{"kind": "barrier", "epoch": "9", "mutation": "start_backfill", "fragments": "7 x"}, "", `fragment ids: "x" is not a whole number`},
		{"no rows", map[string]any{"kind": "chunk", "rows": " \n"}, "", "rows: write at least one row, e.g. + 5 104"},
		{"a bad row", map[string]any{"kind": "chunk", "rows": "+ 5 104 7"}, "", "row has 3 values; the table has 2 columns (a, id)"},
		{"no watermark value", map[string]any{"kind": "watermark", "column": "a", "value": ""}, "", "value: write the watermark's value"},
		{"unknown kind", map[string]any{"kind": "teleport"}, "", `unknown kind of step "teleport"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, err := s.FormatForm(tc.values)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.text, text)
			st, err := scenarios.ParseStep(s.Scenario.Config, text)
			require.NoError(t, err)
			assert.Equal(t, text, scenarios.FormatStep(s.Scenario.Config, st))
		})
	}
}

// TestStepForms: a form for every kind of step the parser knows, with defaults for this step;
// the defaults of each form format to a step (a chunk and a watermark need a value first).
func TestStepForms(t *testing.T) {
	s, err := OpenBuiltin("happy-path")
	require.NoError(t, err)
	require.NoError(t, s.Goto(6))
	forms := s.StepForms()
	var kinds []string
	for _, f := range forms {
		kinds = append(kinds, f.Kind)
		values := map[string]any{"kind": f.Kind}
		for _, fl := range f.Fields {
			values[fl.Name] = fl.Default
		}
		if f.Kind == "chunk" || f.Kind == "watermark" {
			continue
		}
		_, err := s.FormatForm(values)
		assert.NoError(t, err, f.Kind)
	}
	assert.ElementsMatch(t, scenarios.EventKeys(), kinds, "a form for every kind of step")
	assert.Equal(t, int64(4), forms[0].Fields[0].Default, "the next epoch after e3")
}
