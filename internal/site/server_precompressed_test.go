package site

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// precompressedTree is a site whose script has the build's .br and .gz beside it (stand-ins:
// the server sends them as they are, it never decodes them).
func precompressedTree(t *testing.T) string {
	dir := writeTree(t, map[string]string{
		"index.html":               "<!doctype html><title>x</title>",
		"web/app.js":               "export const app = 1;\n",
		"web/app.js.br":            "BROTLI-BYTES",
		"web/app.js.gz":            "GZIP-BYTES!",
		"web/only-gz.css":          "a{color:red}",
		"web/only-gz.css.gz":       "GZ-CSS",
		"web/explainer.wasm":       wasmBytes,
		"web/explainer.wasm.br":    "WASM-BR",
		"web/stale.js":             "new content",
		"web/stale.js.br":          "OLD-BR",
		"web/not-compressible.png": "\x89PNG",
	})
	// the variants are as new as their file (as the build writes them), but stale.js.br, left
	// from an older build
	now := time.Now()
	entries, err := os.ReadDir(filepath.Join(dir, "web"))
	require.NoError(t, err)
	for _, e := range entries {
		require.NoError(t, os.Chtimes(filepath.Join(dir, "web", e.Name()), now, now))
	}
	old := now.Add(-time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "web", "stale.js.br"), old, old))
	return dir
}

func rawBody(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return string(b)
}

func TestPrecompressedVariantsByAcceptEncoding(t *testing.T) {
	h, err := NewHandler(precompressedTree(t))
	require.NoError(t, err)
	defer h.Close()
	for _, tc := range []struct {
		target, accept, encoding, body string
	}{
		{"/web/app.js", "gzip, deflate, br, zstd", "br", "BROTLI-BYTES"},
		{"/web/app.js", "br", "br", "BROTLI-BYTES"},
		{"/web/app.js", "gzip;q=1, br;q=0.1", "br", "BROTLI-BYTES"}, // br preferred when accepted
		{"/web/app.js", "gzip", "gzip", "GZIP-BYTES!"},
		{"/web/app.js", "br;q=0, gzip", "gzip", "GZIP-BYTES!"},
		{"/web/app.js", "*", "br", "BROTLI-BYTES"},
		{"/web/app.js", "br;q=0, *", "gzip", "GZIP-BYTES!"},
		{"/web/app.js", "", "", "export const app = 1;\n"},
		{"/web/app.js", "identity", "", "export const app = 1;\n"},
		{"/web/app.js", "br;q=0, gzip;q=0", "", "export const app = 1;\n"},
		{"/web/only-gz.css", "br, gzip", "gzip", "GZ-CSS"},
		{"/web/explainer.wasm", "br, gzip", "br", "WASM-BR"},
		{"/web/stale.js", "br", "", "new content"}, // a variant older than its file is not sent
	} {
		res := get(t, h, http.MethodGet, tc.target, map[string]string{"Accept-Encoding": tc.accept})
		what := tc.target + " with Accept-Encoding: " + tc.accept
		assert.Equal(t, http.StatusOK, res.StatusCode, what)
		assert.Equal(t, tc.encoding, res.Header.Get("Content-Encoding"), what)
		assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"), what)
		assert.Equal(t, ContentType(tc.target), res.Header.Get("Content-Type"), what)
		b := rawBody(t, res)
		assert.Equal(t, tc.body, b, what)
		assert.Equal(t, strconv.Itoa(len(b)), res.Header.Get("Content-Length"), what)
	}
	res := get(t, h, http.MethodGet, "/web/not-compressible.png", map[string]string{"Accept-Encoding": "br, gzip"})
	assert.Empty(t, res.Header.Get("Content-Encoding"))
	assert.Empty(t, res.Header.Get("Vary"))

	res = get(t, h, http.MethodHead, "/web/app.js", map[string]string{"Accept-Encoding": "br"})
	assert.Equal(t, "br", res.Header.Get("Content-Encoding"))
	assert.Equal(t, "12", res.Header.Get("Content-Length"))
	assert.Empty(t, rawBody(t, res))
}

// Each encoding has its own ETag: a 304 answers only for the representation the client holds.
func TestPrecompressedETagsPerEncoding(t *testing.T) {
	h, err := NewHandler(precompressedTree(t))
	require.NoError(t, err)
	defer h.Close()
	tags := map[string]string{}
	for _, enc := range []string{"br", "gzip", "identity"} {
		res := get(t, h, http.MethodGet, "/web/app.js", map[string]string{"Accept-Encoding": enc})
		tags[enc] = res.Header.Get("ETag")
		require.NotEmpty(t, tags[enc], enc)
		res = get(t, h, http.MethodGet, "/web/app.js", map[string]string{"Accept-Encoding": enc, "If-None-Match": tags[enc]})
		assert.Equal(t, http.StatusNotModified, res.StatusCode, enc)
		assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"), enc)
	}
	assert.Len(t, map[string]bool{tags["br"]: true, tags["gzip"]: true, tags["identity"]: true}, 3, "three ETags: %v", tags)
	res := get(t, h, http.MethodGet, "/web/app.js", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": tags["br"]})
	assert.Equal(t, http.StatusOK, res.StatusCode, "the brotli ETag does not match the gzip body")
	assert.Equal(t, "GZIP-BYTES!", rawBody(t, res))
}

// A range of an encoded body is not offered: the whole variant is sent; without an encoding,
// ranges work on the file as before.
func TestPrecompressedIgnoresRange(t *testing.T) {
	h, err := NewHandler(precompressedTree(t))
	require.NoError(t, err)
	defer h.Close()
	res := get(t, h, http.MethodGet, "/web/app.js", map[string]string{"Accept-Encoding": "br", "Range": "bytes=0-3"})
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "BROTLI-BYTES", rawBody(t, res))
	assert.Empty(t, res.Header.Get("Accept-Ranges"))
	res = get(t, h, http.MethodGet, "/web/app.js", map[string]string{"Range": "bytes=0-5"})
	assert.Equal(t, http.StatusPartialContent, res.StatusCode)
	assert.Equal(t, "export", rawBody(t, res))
}

// A variant that is not a regular file (a FIFO named app.js.br) is never opened.
func TestPrecompressedVariantMustBeARegularFile(t *testing.T) {
	dir := precompressedTree(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "web", "app.js.br")))
	require.NoError(t, mkfifo(filepath.Join(dir, "web", "app.js.br")))
	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	res := get(t, h, http.MethodGet, "/web/app.js", map[string]string{"Accept-Encoding": "br, gzip"})
	assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
	assert.Equal(t, "GZIP-BYTES!", rawBody(t, res))
}
