package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/internal/testutil"
)

// writeTree creates files (path → content) under a new temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return dir
}

var wasmBytes = string(append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte{0x2a}, 4096)...))

func testTree(t *testing.T) string {
	return writeTree(t, map[string]string{
		"index.html":          "<!doctype html><title>x</title>",
		"web/explainer.js":    "export const x = 1;\n" + strings.Repeat("// pad\n", 200),
		"web/explainer.css":   "body{color:red}",
		"web/explainer.wasm":  wasmBytes,
		"web/mod.mjs":         "export {}",
		"web/data.json":       `{"a":1}`,
		"web/icon.svg":        "<svg xmlns='http://www.w3.org/2000/svg'/>",
		"web/s.yaml":          "title: x\n",
		"web/blob.bin":        "\x01\x02",
		"web/photo.png":       "\x89PNG",
		"docs/index.html":     "<p>docs</p>",
		"nolisting/a.txt":     "a",
		"deep/er/index.html":  "deep",
		"weird name/file.css": "a{}",
	})
}

func get(t *testing.T, h http.Handler, method, target string, header map[string]string) *http.Response {
	t.Helper()
	var req *http.Request
	if raw, ok := strings.CutPrefix(target, "RAW:"); ok { // a path httptest would refuse or clean
		req = httptest.NewRequest(method, "http://example.test/", nil)
		req.URL.Path = raw
	} else {
		req = httptest.NewRequest(method, "http://example.test"+target, nil)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	var r io.Reader = res.Body
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(res.Body)
		require.NoError(t, err)
		r = zr
	}
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(b)
}

func TestHandlerServesFiles(t *testing.T) {
	h, err := NewHandler(testTree(t))
	require.NoError(t, err)
	defer h.Close()

	tests := []struct {
		name     string
		target   string
		gzip     bool
		status   int
		ctype    string
		encoding string
		body     string // when non-empty, the decoded body must equal it
	}{
		{"root serves index.html", "/", false, 200, "text/html; charset=utf-8", "", "<!doctype html><title>x</title>"},
		{"index.html directly", "/index.html", true, 200, "text/html; charset=utf-8", "gzip", "<!doctype html><title>x</title>"},
		{"wasm type, gzipped", "/web/explainer.wasm", true, 200, "application/wasm", "gzip", wasmBytes},
		{"wasm without gzip", "/web/explainer.wasm", false, 200, "application/wasm", "", wasmBytes},
		{"js", "/web/explainer.js", true, 200, "text/javascript; charset=utf-8", "gzip", ""},
		{"mjs", "/web/mod.mjs", false, 200, "text/javascript; charset=utf-8", "", "export {}"},
		{"css", "/web/explainer.css", true, 200, "text/css; charset=utf-8", "gzip", "body{color:red}"},
		{"json", "/web/data.json", true, 200, "application/json", "gzip", `{"a":1}`},
		{"svg", "/web/icon.svg", true, 200, "image/svg+xml", "gzip", ""},
		{"yaml", "/web/s.yaml", true, 200, "text/yaml; charset=utf-8", "gzip", "title: x\n"},
		{"png is not gzipped", "/web/photo.png", true, 200, "image/png", "", "\x89PNG"},
		{"unknown extension is octet-stream, not gzipped", "/web/blob.bin", true, 200, "application/octet-stream", "", "\x01\x02"},
		{"sub-directory index", "/docs/", false, 200, "text/html; charset=utf-8", "", "<p>docs</p>"},
		{"escaped space in name", "/weird%20name/file.css", false, 200, "text/css; charset=utf-8", "", "a{}"},
		{"missing file", "/nope.js", false, 404, "", "", ""},
		{"no directory listing", "/nolisting/", false, 404, "", "", ""},
		{"no listing without slash either", "/nolisting", false, 404, "", "", ""},
		{"dot-dot is refused", "RAW:/../../etc/passwd", false, 400, "", "", ""},
		{"dot-dot inside is refused", "RAW:/web/../../etc/passwd", false, 400, "", "", ""},
		{"encoded dot-dot is refused", "/web/%2e%2e/%2e%2e/etc/passwd", false, 400, "", "", ""},
		{"backslash is refused", "RAW:/web\\..\\..\\etc\\passwd", false, 400, "", "", ""},
		{"NUL is refused", "RAW:/index.html\x00.js", false, 400, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.gzip {
				hdr["Accept-Encoding"] = "gzip, deflate, br"
			}
			res := get(t, h, http.MethodGet, tc.target, hdr)
			assert.Equal(t, tc.status, res.StatusCode)
			assert.Equal(t, "no-cache", res.Header.Get("Cache-Control"), "every response, errors too")
			if tc.ctype != "" {
				assert.Equal(t, tc.ctype, res.Header.Get("Content-Type"))
			}
			assert.Equal(t, tc.encoding, res.Header.Get("Content-Encoding"))
			b := body(t, res)
			if tc.body != "" {
				assert.Equal(t, tc.body, b)
			}
			if tc.status == http.StatusNotFound {
				assert.NotContains(t, b, "a.txt", "must not list the directory")
			}
		})
	}
}

func TestHandlerRedirectsDirectoryToSlashRelatively(t *testing.T) {
	h, err := NewHandler(testTree(t))
	require.NoError(t, err)
	defer h.Close()
	for _, tc := range []struct{ target, location string }{
		{"/docs", "docs/"},
		{"/deep/er", "er/"},
		{"/deep/er?embed=1", "er/?embed=1"},
	} {
		res := get(t, h, http.MethodGet, tc.target, nil)
		assert.Equal(t, http.StatusMovedPermanently, res.StatusCode, tc.target)
		assert.Equal(t, tc.location, res.Header.Get("Location"), tc.target)
	}
}

func TestHandlerMethodsAndHead(t *testing.T) {
	h, err := NewHandler(testTree(t))
	require.NoError(t, err)
	defer h.Close()

	res := get(t, h, http.MethodPost, "/index.html", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	assert.Equal(t, "GET, HEAD", res.Header.Get("Allow"))

	res = get(t, h, http.MethodHead, "/web/explainer.wasm", nil)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"))
	assert.Equal(t, "4104", res.Header.Get("Content-Length"))
	assert.Empty(t, body(t, res))

	res = get(t, h, http.MethodGet, "/web/explainer.wasm", map[string]string{"Accept-Encoding": "gzip"})
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(len(raw)), res.Header.Get("Content-Length"), "the gzipped length")
	assert.Less(t, len(raw), 4104)
}

func TestHandlerGzipNegotiation(t *testing.T) {
	h, err := NewHandler(testTree(t))
	require.NoError(t, err)
	defer h.Close()
	for _, tc := range []struct {
		accept string
		gz     bool
	}{
		{"", false},
		{"gzip", true},
		{"GZIP", true},
		{"br, gzip;q=0.5", true},
		{"gzip;q=0", false},
		{"gzip; q=0.0, identity", false},
		{"*", true},
		{"gzip;q=0, *", false},
		{"identity", false},
		{"deflate", false},
	} {
		res := get(t, h, http.MethodGet, "/web/explainer.js", map[string]string{"Accept-Encoding": tc.accept})
		assert.Equal(t, tc.gz, res.Header.Get("Content-Encoding") == "gzip", "Accept-Encoding: %q", tc.accept)
		assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"))
		assert.True(t, strings.HasPrefix(body(t, res), "export const x = 1;"), "Accept-Encoding: %q", tc.accept)
	}
}

func TestHandlerConditionalAndCacheInvalidation(t *testing.T) {
	dir := testTree(t)
	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	gz := map[string]string{"Accept-Encoding": "gzip"}

	res := get(t, h, http.MethodGet, "/web/explainer.css", gz)
	etag := res.Header.Get("ETag")
	require.NotEmpty(t, etag)
	res = get(t, h, http.MethodGet, "/web/explainer.css", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
	assert.Equal(t, http.StatusNotModified, res.StatusCode)

	// A rebuild must be picked up at once, compressed cache or not.
	p := filepath.Join(dir, "web", "explainer.css")
	require.NoError(t, os.WriteFile(p, []byte("body{color:blue;margin:0}"), 0o644))
	later := time.Now().Add(2 * time.Second)
	require.NoError(t, os.Chtimes(p, later, later))
	res = get(t, h, http.MethodGet, "/web/explainer.css", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "body{color:blue;margin:0}", body(t, res))
	assert.NotEqual(t, etag, res.Header.Get("ETag"))
}

func TestHandlerDoesNotFollowSymlinksOut(t *testing.T) {
	outside := writeTree(t, map[string]string{"secret.txt": "secret"})
	dir := testTree(t)
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "web", "leak.txt")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "leakdir")))
	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	for _, target := range []string{"/web/leak.txt", "/leakdir/secret.txt"} {
		res := get(t, h, http.MethodGet, target, nil)
		assert.NotEqual(t, http.StatusOK, res.StatusCode, target)
		assert.NotContains(t, body(t, res), "secret", target)
	}
}

func TestNewHandlerRejectsNonDirectory(t *testing.T) {
	dir := testTree(t)
	_, err := NewHandler(filepath.Join(dir, "index.html"))
	assert.ErrorContains(t, err, "not a directory")
	_, err = NewHandler(filepath.Join(dir, "missing"))
	assert.Error(t, err)
}

func TestContentTypeFallsBack(t *testing.T) {
	assert.Equal(t, "application/wasm", ContentType("X.WASM"))
	assert.Equal(t, "application/octet-stream", ContentType("noext"))
	assert.Equal(t, "text/yaml; charset=utf-8", ContentType("a.yml"))
}

// syncBuffer is a log writer the server goroutine and the test can share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServeContextListensLogsAndShutsDown(t *testing.T) {
	dir := testTree(t)
	var log syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- ServeContext(ctx, dir, "127.0.0.1:0", &log) }()

	var url string
	testutil.WaitFor(t, "the server's address in its log", func() bool {
		line, _, _ := strings.Cut(log.String(), "\n")
		if _, u, ok := strings.Cut(line, " at "); ok {
			url = u
			return true
		}
		return false
	})
	require.True(t, strings.HasPrefix(url, "http://127.0.0.1:"), url)

	res, err := http.Get(url + "web/explainer.wasm")
	require.NoError(t, err)
	assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"))
	assert.True(t, res.Uncompressed, "Go's client asks for gzip and decodes it")
	b, err := io.ReadAll(res.Body) // the transport decodes transparently
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, wasmBytes, string(b))

	cancel()
	select {
	case err := <-errc:
		assert.NoError(t, err)
	case <-testutil.Deadline(t):
		t.Fatal("server did not shut down")
	}
	assert.Contains(t, log.String(), "GET /web/explainer.wasm 200")
}

func TestServeReportsListenErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	err = Serve(testTree(t), ln.Addr().String(), io.Discard)
	assert.ErrorContains(t, err, "listen")
	err = Serve(filepath.Join(t.TempDir(), "missing"), "127.0.0.1:0", io.Discard)
	assert.Error(t, err)
}

func TestURL(t *testing.T) {
	assert.Equal(t, "http://127.0.0.1:80/", URL(&net.TCPAddr{IP: net.IPv4zero, Port: 80}))
	assert.Equal(t, "http://[::1]:8080/", URL(&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}))
}

// The bundle's content-hashed chunks may be cached for good; everything else, the bundle's
// entry, the wasm and a 404 under bundle/ included, is revalidated every time.
func TestHashedChunksAreImmutable(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"index.html":                   "<!doctype html><title>x</title>",
		"web/bundle/main.js":           "export {}",
		"web/bundle/chunk-FJD4INZQ.js": "export {}",
		"web/bundle/help-G27T3B7E.js":  "export {}",
		"web/bundle/help-g27t3b7e.js":  "export {}",
		"web/bundle/help-G27T3B7.js":   "export {}",
		"web/help-G27T3B7E.js":         "export {}",
		"web/explainer.wasm":           wasmBytes,
	})
	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	const forGood = "public, max-age=31536000, immutable"
	for target, want := range map[string]string{
		"/web/bundle/chunk-FJD4INZQ.js": forGood,
		"/web/bundle/help-G27T3B7E.js":  forGood,
		"/web/bundle/main.js":           "no-cache",
		"/web/bundle/help-g27t3b7e.js":  "no-cache", // not esbuild's hash alphabet
		"/web/bundle/help-G27T3B7.js":   "no-cache", // 7 characters
		"/web/help-G27T3B7E.js":         "no-cache", // not in a bundle directory
		"/web/bundle/gone-ABCDEFGH.js":  "no-cache", // not found
		"/web/explainer.wasm":           "no-cache",
		"/":                             "no-cache",
	} {
		res := get(t, h, http.MethodGet, target, map[string]string{"Accept-Encoding": "gzip"})
		assert.Equal(t, want, res.Header.Get("Cache-Control"), target)
		if want == forGood {
			assert.Equal(t, http.StatusOK, res.StatusCode, target)
			assert.NotEmpty(t, res.Header.Get("ETag"), target)
		}
	}
}
