//go:build js && wasm

package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// code_lit comes in every view (and the code map: TestEveryViewIsWhole).
func TestCodeLit(t *testing.T) {
	{
		b := &bridge{}
		_, e := answer(t, b.call("open", `"happy-path"`))
		require.Nil(t, e)
		ok, e := answer(t, b.call("step", ""))
		require.Nil(t, e)
		var v struct {
			CodeLit json.RawMessage `json:"code_lit"`
		}
		require.NoError(t, json.Unmarshal(ok, &v))
		assert.Equal(t, `["first-barrier","load","need-buffering","buf-order"]`, string(v.CodeLit))
	}
}
