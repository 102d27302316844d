package site

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A documentation page on another origin loads element.js as a module script, which the
// browser fetches in CORS mode: the files an embed loads carry Access-Control-Allow-Origin: *,
// and nothing else does (the page itself, the offline file, other files).
func TestCORSOnlyOnTheFilesAnEmbedLoads(t *testing.T) {
	h, err := NewHandler(writeTree(t, map[string]string{
		"index.html":                   "<!doctype html><title>x</title>",
		"explainer-offline.html":       "<!doctype html><title>offline</title>",
		"web/element.js":               "customElements.define('x-y', class extends HTMLElement {})",
		"web/explainer.wasm":           wasmBytes,
		"web/explainer.wasm.br":        "BR",
		"web/wasm_exec.js":             "// go",
		"web/bundle/main.js":           "import './chunk-ABCDEFGH.js'",
		"web/bundle/chunk-ABCDEFGH.js": "export {}",
		"web/style.css":                "body{}",
		"web/uPlot.min.css":            "u{}",
		"web/scale/scale-worker.js":    "onmessage = () => {}",
		"web/views/happy-path.json":    "{}",
		"web/uPlot.LICENSE.txt":        "MIT",
		"docs/index.html":              "docs",
		"notes.js":                     "// not under web/",
	}))
	require.NoError(t, err)
	defer h.Close()
	for _, tc := range []struct {
		target string
		cors   bool
	}{
		{"/web/element.js", true},
		{"/web/explainer.wasm", true},
		{"/web/wasm_exec.js", true},
		{"/web/bundle/main.js", true},
		{"/web/bundle/chunk-ABCDEFGH.js", true},
		{"/web/style.css", true},
		{"/web/uPlot.min.css", true},
		{"/web/scale/scale-worker.js", true},
		{"/web/views/happy-path.json", true},
		{"/", false},
		{"/index.html", false},
		{"/explainer-offline.html", false},
		{"/web/uPlot.LICENSE.txt", false},
		{"/docs/", false},
		{"/notes.js", false},
		{"/web/missing.js", false},
	} {
		for _, accept := range []string{"", "gzip", "br"} {
			res := get(t, h, http.MethodGet, tc.target, map[string]string{"Accept-Encoding": accept, "Origin": "http://docs.example"})
			want := ""
			if tc.cors {
				want = "*"
			}
			assert.Equal(t, want, res.Header.Get("Access-Control-Allow-Origin"), "%s (Accept-Encoding: %q)", tc.target, accept)
			if tc.cors {
				assert.Equal(t, http.StatusOK, res.StatusCode, tc.target)
				etag := res.Header.Get("ETag")
				res = get(t, h, http.MethodGet, tc.target, map[string]string{"Accept-Encoding": accept, "If-None-Match": etag})
				assert.Equal(t, http.StatusNotModified, res.StatusCode, tc.target)
				assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"), "%s: a 304 too", tc.target)
			}
		}
	}
}
