//go:build js && wasm

package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStripFileName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"12:5: unknown key \"x\"", "12:5: unknown key \"x\""},
		{":12:5: unknown key", "12:5: unknown key"},
		{"scenario.yaml:12:5: unknown key", "12:5: unknown key"},
		{"scenarios/happy-path.yaml:3:1: bad", "3:1: bad"},
		{"text is larger than 1 MiB", "text is larger than 1 MiB"},
		{"a file:12:5: has a space in its name", "a file:12:5: has a space in its name"},
		{"x.yaml:12: no column", "x.yaml:12: no column"},
		{"x.yaml:a:5: not a line", "x.yaml:a:5: not a line"},
		{"", ""},
		{"12:5:", "12:5:"},
	} {
		assert.Equal(t, tc.want, stripFileName(tc.in), tc.in)
	}
	inner := errors.New(":3:7: expected an integer")
	err := lineColumnError{inner}
	assert.Equal(t, "3:7: expected an integer", err.Error())
	assert.ErrorIs(t, err, inner)
}
