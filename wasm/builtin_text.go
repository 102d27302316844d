//go:build js && wasm

package main

import (
	"bytes"

	"github.com/backfill-explainer/explainer/scenarios"
)

// builtinText answers a built-in scenario's file text, as written (comments included): the
// editor starts from the open scenario's source.
func builtinText(_ *bridge, name string) (result, error) {
	t, err := scenarios.BuiltinText(name)
	if err != nil {
		return nil, err
	}
	return stringResult(string(t)), nil
}

// schema answers the scenario format's JSON Schema, as the file is.
func schema(*bridge) (result, error) {
	return func(b []byte) []byte { return append(b, bytes.TrimSpace(scenarios.Schema)...) }, nil
}
