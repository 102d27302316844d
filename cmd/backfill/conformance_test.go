package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// conformanceDir holds protocol.md's worked examples with the traces they must produce (a copy
// of shared/conformance; TestConformanceCopyIsCurrent checks the copy when shared/ is beside us).
const conformanceDir = "../../scenarios/testdata/conformance"

// contract is the part of a trace the conformance files fix.
type contract struct {
	Outputs []struct {
		Type   string `json:"type"`
		Epoch  *int64 `json:"epoch,omitempty"`
		Column string `json:"column,omitempty"`
		Value  any    `json:"value,omitempty"`
		Rows   []struct {
			Op      string `json:"op"`
			Values  []any  `json:"values"`
			Visible bool   `json:"visible"`
		} `json:"rows,omitempty"`
	} `json:"outputs"`
	Error *struct {
		Message string
		Panic   bool
		Step    int
	} `json:"error"`
	Phase         string  `json:"phase"`
	ProgressTable [][]any `json:"progress_table"`
	Downstream    [][]any `json:"downstream"`
}

func decodeContract(t *testing.T, b []byte) contract {
	t.Helper()
	var c contract
	require.NoError(t, json.Unmarshal(b, &c))
	// progress_table compares as a set, downstream as a sorted multiset
	for _, rows := range [][][]any{c.ProgressTable, c.Downstream} {
		sort.Slice(rows, func(i, j int) bool { return testutil.MustJSON(rows[i]) < testutil.MustJSON(rows[j]) })
	}
	return c
}

func TestConformanceThroughTheCommandLine(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(conformanceDir, "*.yaml"))
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"run", "--json", f}, &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			want, err := os.ReadFile(f[:len(f)-len(".yaml")] + ".expect.json")
			require.NoError(t, err)
			assert.Equal(t, decodeContract(t, want), decodeContract(t, stdout.Bytes()))
		})
	}
}

func TestConformanceCopyIsCurrent(t *testing.T) {
	shared := "../../../shared/conformance"
	files, _ := filepath.Glob(filepath.Join(shared, "*"))
	if len(files) == 0 {
		t.Skip("shared/ is not beside this checkout")
	}
	for _, f := range files {
		want, err := os.ReadFile(f)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(conformanceDir, filepath.Base(f)))
		require.NoError(t, err, "copy %s into scenarios/testdata/conformance", f)
		assert.Equal(t, string(want), string(got), "%s changed in shared/: copy it again", filepath.Base(f))
	}
}

func TestBuiltinWorkedExamplesEqualConformance(t *testing.T) {
	for name, file := range map[string]string{"happy-path": "example-a", "builder-fills-mid-epoch": "example-b"} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run([]string{"run", "--json", name}, &stdout, &stderr), stderr.String())
		want, err := os.ReadFile(filepath.Join(conformanceDir, file+".expect.json"))
		require.NoError(t, err)
		assert.Equal(t, decodeContract(t, want), decodeContract(t, stdout.Bytes()), name)
	}
}
