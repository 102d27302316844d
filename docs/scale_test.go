package docs

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/wire"
)

// prefixOf reports whether shown (an example with its lists cut short) is a prefix of real:
// every key it shows has the real value, and every list it shows starts as the real one.
func prefixOf(t *testing.T, path string, shown, real any) {
	switch s := shown.(type) {
	case map[string]any:
		r, ok := real.(map[string]any)
		require.True(t, ok, "%s: the example shows an object", path)
		for k, v := range s {
			require.Contains(t, r, k, "%s.%s", path, k)
			prefixOf(t, path+"."+k, v, r[k])
		}
	case []any:
		r, ok := real.([]any)
		require.True(t, ok, "%s: the example shows a list", path)
		require.LessOrEqual(t, len(s), len(r), path)
		for i := range s {
			prefixOf(t, path, s[i], r[i])
		}
	default:
		assert.Equal(t, real, shown, path)
	}
}

// TestScaleSummaryExampleIsReal: the workload example of scenario-format.md runs, and the
// summary shown beside it is its summary: the same keys in the same order, the same values,
// each list the start of the real one.
func TestScaleSummaryExampleIsReal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the document's workload at scale")
	}
	doc := readDoc(t, "docs/scenario-format.md")
	var wl, summary string
	for _, b := range blocks(doc) {
		if b.lang == "yaml" && scenarios.IsWorkload([]byte(b.text)) && strings.Contains(b.text, "title:") {
			wl = b.text
		}
		if b.lang == "jsonc" && strings.Contains(b.text, `"series"`) {
			summary = b.text
		}
	}
	require.NotEmpty(t, wl, "scenario-format.md shows a workload")
	require.NotEmpty(t, summary, "scenario-format.md shows a scale summary")
	s, err := scenarios.Scale("example.yaml", []byte(wl), nil)
	require.NoError(t, err)
	out, err := wire.ScaleSummaryJSON(s)
	require.NoError(t, err)
	var real any
	require.NoError(t, json.Unmarshal(out, &real))

	// the example cuts lists short with "…"
	cut := strings.NewReplacer(", …", "", "…", "").Replace(summary)
	var shown any
	require.NoError(t, json.Unmarshal([]byte(cut), &shown), "the summary example is JSON once its … are removed:\n%s", cut)
	prefixOf(t, "summary", shown, real)

	// and it shows every key, in the order the command line writes them
	var order yaml.Node // (a YAML decoder keeps the keys' order; JSON is YAML)
	require.NoError(t, yaml.Unmarshal([]byte(cut), &order))
	var realOrder yaml.Node
	require.NoError(t, yaml.Unmarshal(out, &realOrder))
	keys := func(n *yaml.Node) []string {
		var k []string
		m := n.Content[0]
		for i := 0; i < len(m.Content); i += 2 {
			k = append(k, m.Content[i].Value)
		}
		return k
	}
	assert.Equal(t, keys(&realOrder), keys(&order))
}
