//go:build js && wasm

package main

import (
	"bytes"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/wasm/api"
)

// builtinText answers a built-in scenario's file text, as written (comments included): the
// editor starts from the open scenario's source.
func builtinText(_ *bridge, name string) (string, error) {
	t, err := scenarios.BuiltinText(name)
	return string(t), err
}

// schema answers the scenario format's JSON Schema, as the file is.
func schema(*bridge, api.None) (api.RawJSON, error) {
	return bytes.TrimSpace(scenarios.Schema), nil
}
