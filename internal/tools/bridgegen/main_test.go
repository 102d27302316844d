package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/wasm/api"
)

// The checked-in declarations are what the table declares: run
// `go run ./internal/tools/bridgegen -o web/boot/bridge.d.ts` after changing wasm/api.
func TestDeclarationsAreCurrent(t *testing.T) {
	want, err := api.Declaration()
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "web", "boot", "bridge.d.ts"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "web/boot/bridge.d.ts is stale: go run ./internal/tools/bridgegen -o web/boot/bridge.d.ts")
}
