package explore

import (
	"encoding/json"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/wire/wiretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The explorer's JSON, checked as engine's JSON is (wire's tests).

func TestAppendJSONAsEncodingJSON(t *testing.T) {
	wiretest.CheckAsEncoder(t, "Exploration", (*Exploration).AppendJSON)
	wiretest.CheckAsEncoder(t, "Outcome", (*Outcome).AppendJSON)
}

// The explorer's outcome key (which orders the outcomes) is the bytes json.Marshal made.
func TestOutcomeKeyAsBefore(t *testing.T) {
	f := wiretest.Fill(12)
	for i := range 500 {
		var o Outcome
		f.Fill(&o)
		want, err := json.Marshal(struct {
			P string
			E *engine.Failure
			V bool
			S string
			D []wiretest.OldRow
			T [][]any
		}{o.Phase, o.Error, o.Violated, o.Invariant.Status, wiretest.OldRows(o.Downstream), wiretest.OldTuples(o.ProgressTable)})
		require.NoError(t, err)
		assert.Equal(t, string(want), string(outcomeKey(&o)), "#%d", i)
	}
}
