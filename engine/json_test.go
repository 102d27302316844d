package engine_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/wire/wiretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The JSON of a value, a row and an output (engine/json.go) is what it was with encoding/json.

func TestValueRowOutputAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		v := wiretest.RandomValue(r)
		want, err := wiretest.OldValue(v).MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, string(want), string(v.AppendJSON(nil)))
		row := wiretest.RandomRow(r)
		want, err = wiretest.OldRow(row).MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, string(want), string(row.AppendJSON(nil)))
	}
	f := wiretest.Fill(9)
	for range 2000 {
		var o engine.Output
		f.Fill(&o)
		o.Type %= 5 // every kind, and one past them (written as a recovery, as before)
		want, err := wiretest.OldOutput(o)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(o.AppendJSON(nil)), "%+v", o)
		got, err := json.Marshal(o)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "MarshalJSON, for the command line")
	}
}
