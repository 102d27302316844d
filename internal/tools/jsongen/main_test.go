package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The checked-in wire/json_gen.go is what jsongen writes now: a field added to a type the wire
// package writes needs `go generate ./wire`, which this names.
func TestGeneratedWireIsUpToDate(t *testing.T) {
	want, err := generate()
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "wire", "json_gen.go"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "wire/json_gen.go is stale: run go generate ./wire")
}
