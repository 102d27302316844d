package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The checked-in files are what the table declares: run `go run ./internal/tools/bridgegen`
// after changing wasm/api.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for path, make := range files {
		want, err := make()
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(path)))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s is stale: go run ./internal/tools/bridgegen", path)
	}
}
