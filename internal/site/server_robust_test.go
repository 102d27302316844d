package site

import (
	"bufio"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/backfill-explainer/explainer/internal/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every response, whatever its status, carries the policy and nosniff.
func TestEveryResponseCarriesTheSecurityHeaders(t *testing.T) {
	h, err := NewHandler(testTree(t))
	require.NoError(t, err)
	defer h.Close()
	etag := get(t, h, http.MethodGet, "/web/explainer.css", nil).Header.Get("ETag")
	for _, tc := range []struct {
		method, target string
		hdr            map[string]string
		status         int
	}{
		{http.MethodGet, "/", nil, 200},
		{http.MethodGet, "/web/explainer.wasm", map[string]string{"Accept-Encoding": "gzip"}, 200},
		{http.MethodHead, "/web/explainer.js", nil, 200},
		{http.MethodGet, "/web/explainer.css", map[string]string{"If-None-Match": etag}, 304},
		{http.MethodGet, "/docs", nil, 301},
		{http.MethodGet, "/nope", nil, 404},
		{http.MethodPost, "/", nil, 405},
		{http.MethodGet, "RAW:/../x", nil, 400},
	} {
		res := get(t, h, tc.method, tc.target, tc.hdr)
		assert.Equal(t, tc.status, res.StatusCode, tc.target)
		assert.Equal(t, CSP, res.Header.Get("Content-Security-Policy"), tc.target)
		assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), tc.target)
	}
	assert.Equal(t, "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; worker-src 'self'; connect-src 'self'; frame-ancestors *", CSP)
}

// A page that declares its own policy (the offline file, whose inline scripts are allowed by
// hash) is sent with that policy, and frame-ancestors, instead of the site's.
func TestHTMLWithItsOwnPolicy(t *testing.T) {
	policy := "default-src 'none'; script-src 'sha256-abc=' 'wasm-unsafe-eval'; style-src 'sha256-def='"
	h, err := NewHandler(writeTree(t, map[string]string{
		"offline.html": `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="` + policy + `"><script>1</script>`,
	}))
	require.NoError(t, err)
	defer h.Close()
	res := get(t, h, http.MethodGet, "/offline.html", map[string]string{"Accept-Encoding": "gzip"})
	assert.Equal(t, policy+"; frame-ancestors *", res.Header.Get("Content-Security-Policy"))
}

func TestDotfilesAreNotServed(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"index.html": "x", ".env": "SECRET=1", ".git/config": "[core]", "web/.hidden.js": "secret", "web/ok.js": "ok",
	})
	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	for _, target := range []string{"/.env", "/.git/config", "/.git/", "/web/.hidden.js", "/web/%2ehidden.js"} {
		res := get(t, h, http.MethodGet, target, nil)
		assert.Equal(t, http.StatusNotFound, res.StatusCode, target)
		assert.NotContains(t, body(t, res), "SECRET", target)
	}
	assert.Equal(t, http.StatusOK, get(t, h, http.MethodGet, "/web/ok.js", nil).StatusCode)
}

// A file asked for as a directory is sent to the file (its relative URLs would otherwise
// resolve under /index.html/ and the page would load without its scripts and styles).
func TestFileWithATrailingSlashRedirects(t *testing.T) {
	h, err := NewHandler(testTree(t))
	require.NoError(t, err)
	defer h.Close()
	for _, tc := range []struct{ target, location string }{
		{"/index.html/", "../index.html"},
		{"/web/explainer.js/", "../explainer.js"},
		{"/index.html/?embed=1", "../index.html?embed=1"},
	} {
		res := get(t, h, http.MethodGet, tc.target, nil)
		assert.Equal(t, http.StatusMovedPermanently, res.StatusCode, tc.target)
		assert.Equal(t, tc.location, res.Header.Get("Location"), tc.target)
	}
	assert.Equal(t, http.StatusOK, get(t, h, http.MethodGet, "/docs/", nil).StatusCode, "a directory's index is still served")
}

// Many first requests for the wasm at once compress it once: they used to compress it each
// (200 at once took 42-48 s each and 830 MB).
func TestConcurrentFirstRequestsCompressOnce(t *testing.T) {
	big := make([]byte, 4<<20)
	_, _ = rand.Read(big[:1<<20]) // part incompressible, part zeros: a few MB of work
	dir := writeTree(t, map[string]string{"index.html": "x", "web/explainer.wasm": string(big)})
	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	const clients = 40
	var wg sync.WaitGroup
	sizes := make([]int, clients)
	n := testutil.Allocated(func() {
		for i := 0; i < clients; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				req := httptest.NewRequest(http.MethodGet, "http://example.test/web/explainer.wasm", nil)
				req.Header.Set("Accept-Encoding", "gzip")
				rec := &countingWriter{header: http.Header{}}
				h.ServeHTTP(rec, req)
				sizes[i] = rec.n
			}(i)
		}
		wg.Wait()
	})
	for _, s := range sizes {
		assert.Equal(t, sizes[0], s, "every client gets the same encoding")
	}
	t.Logf("%d concurrent first requests: %d bytes allocated", clients, n)
	assert.Greater(t, sizes[0], 0)
	assert.Less(t, n, uint64(32<<20), "the file must be compressed once, not once per request")
}

// countingWriter is a ResponseWriter that only counts the body's bytes.
type countingWriter struct {
	header http.Header
	n      int
}

func (c *countingWriter) Header() http.Header         { return c.header }
func (c *countingWriter) WriteHeader(int)             {}
func (c *countingWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// The server closes connections that idle, and clients that send their request too slowly.
func TestServerTimeouts(t *testing.T) {
	saved := timeouts
	defer func() { timeouts = saved }()
	timeouts.Idle, timeouts.ReadHeader, timeouts.Read = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	h, err := NewHandler(testTree(t))
	require.NoError(t, err)
	defer h.Close()
	srv := httptest.NewUnstartedServer(h)
	srv.Config = newServer(h)
	srv.Start()
	defer srv.Close()
	assert.Equal(t, 2*time.Minute, newServerWith(saved).WriteTimeout, "a write timeout is set")

	// closed waits for the server to close c: no window of its own, only the test's deadline
	// (go test -timeout), a second ahead of it so that the failure names the connection.
	closed := func(c net.Conn) bool {
		if d, ok := t.Deadline(); ok {
			_ = c.SetReadDeadline(d.Add(-time.Second))
		}
		_, err := io.Copy(io.Discard, c)
		return err == nil // EOF: the server closed it (a deadline would be an error)
	}
	// an idle keep-alive connection
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	assert.True(t, closed(c), "an idle connection must be closed")

	// a request whose header never ends
	c2, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer c2.Close()
	_, err = io.WriteString(c2, "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
	require.NoError(t, err)
	assert.True(t, closed(c2), "a slow request must be cut off")
	_ = strings.TrimSpace
}

func newServerWith(t struct{ ReadHeader, Read, Write, Idle time.Duration }) *http.Server {
	saved := timeouts
	defer func() { timeouts = saved }()
	timeouts = t
	return newServer(nil)
}
