package site

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/internal/testutil"
)

func TestServeCommandFlags(t *testing.T) {
	dir := testTree(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown flag", []string{"--port", "1"}, 2, "flag provided but not defined: -port"},
		{"stray argument", []string{"--dir", dir, "extra"}, 2, `unexpected argument "extra"`},
		{"help", []string{"-h"}, 0, "usage: backfill serve"},
		{"missing dir", []string{"--dir", dir + "/missing", "--addr", "127.0.0.1:0"}, 1, "backfill serve: site:"},
		{"bad addr", []string{"--dir", dir, "--addr", "127.0.0.1:notaport"}, 1, "listen"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := ServeCommand(context.Background(), tc.args, &stdout, &stderr)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, stderr.String(), tc.stderr)
		})
	}
}

func TestServeCommandServesUntilCancelled(t *testing.T) {
	dir := testTree(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stdout syncBuffer
	var stderr bytes.Buffer
	codec := make(chan int, 1)
	go func() { codec <- ServeCommand(ctx, []string{"--dir", dir, "--addr", "127.0.0.1:0"}, &stdout, &stderr) }()

	var url string
	testutil.WaitFor(t, "serve's address on stdout", func() bool {
		line, _, _ := strings.Cut(stdout.String(), "\n")
		var ok bool
		_, url, ok = strings.Cut(line, " at ")
		return ok
	})
	res, err := http.Get(url)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, "<!doctype html><title>x</title>", string(b))

	cancel()
	select {
	case code := <-codec:
		assert.Equal(t, 0, code)
	case <-testutil.Deadline(t):
		t.Fatal("serve did not stop")
	}
	assert.Empty(t, stderr.String())
}
