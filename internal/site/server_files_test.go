package site

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A FIFO under the served directory is refused before it is opened: opening one for reading
// waits for a writer, and each request used to pin an OS thread and a descriptor for good
// (10,500 requests: 6,670 threads, 13,337 descriptors, then no client answered).
func TestFIFOsAndSocketsAreNotServed(t *testing.T) {
	dir := testTree(t)
	fifo := filepath.Join(dir, "web", "pipe.js")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	sock, err := net.Listen("unix", filepath.Join(dir, "web", "sock.js"))
	require.NoError(t, err)
	defer sock.Close()

	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	// were a request to open the FIFO, it waits for a writer: release it before the server's
	// Close waits for the request (O_RDWR does not wait)
	defer func() {
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	}()
	client := &http.Client{Timeout: 10 * time.Second} // a failure detector, not a speed check

	threads := pprof.Lookup("threadcreate").Count()
	var wg sync.WaitGroup
	codes := make([]int, 200)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			target := "/web/pipe.js"
			if i%10 == 0 {
				target = "/web/sock.js"
			}
			res, err := client.Get(srv.URL + target)
			if err != nil {
				codes[i] = -1
				return
			}
			res.Body.Close()
			codes[i] = res.StatusCode
		}()
	}
	wg.Wait()
	for i, c := range codes {
		assert.Contains(t, []int{http.StatusNotFound, http.StatusForbidden}, c, "request %d", i)
	}
	// (each request that opened the FIFO pinned a thread: 180 here)
	assert.Less(t, pprof.Lookup("threadcreate").Count()-threads, 100, "threads made for 200 refused requests")

	res, err := client.Get(srv.URL + "/web/explainer.css")
	require.NoError(t, err)
	defer res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "a regular file still answers")
}

// A redirect's Location is a URL: the name in it is percent-encoded (a directory named "q?x"
// was sent to "q?x/", which asks for "q" with a query).
func TestRedirectLocationIsPercentEncoded(t *testing.T) {
	h, err := NewHandler(writeTree(t, map[string]string{
		"q?x/index.html":   "q",
		"a b/index.html":   "ab",
		"50%/index.html":   "pct",
		"c:d/index.html":   "colon",
		"h#1/index.html":   "hash",
		"web/f?g.html":     "file",
		"web/sp ace.html":  "file",
		"plain/index.html": "plain",
	}))
	require.NoError(t, err)
	defer h.Close()
	for _, tc := range []struct{ target, location string }{
		{"/q%3Fx", "q%3Fx/"},
		{"/q%3Fx?embed=1", "q%3Fx/?embed=1"},
		{"/a%20b", "a%20b/"},
		{"/50%25", "50%25/"},
		{"/c:d", "./c:d/"},
		{"/h%231", "h%231/"},
		{"/plain", "plain/"},
		{"/web/f%3Fg.html/", "../f%3Fg.html"},
		{"/web/sp%20ace.html/", "../sp%20ace.html"},
	} {
		res := get(t, h, http.MethodGet, tc.target, nil)
		assert.Equal(t, http.StatusMovedPermanently, res.StatusCode, tc.target)
		assert.Equal(t, tc.location, res.Header.Get("Location"), tc.target)
	}
}

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }

// A device under the served directory is refused too (reading /dev/zero's like never ends: the
// server stayed at ~30 % CPU). The test makes a null device, where the machine allows mknod.
func TestDevicesAreNotServed(t *testing.T) {
	dir := testTree(t)
	dev := filepath.Join(dir, "web", "dev.js")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o644, 1<<8|3); err != nil { // char 1:3, /dev/null
		t.Skipf("mknod: %v", err)
	}
	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	res := get(t, h, http.MethodGet, "/web/dev.js", nil)
	assert.Contains(t, []int{http.StatusNotFound, http.StatusForbidden}, res.StatusCode)
}

// A character device under the served directory (here one like /dev/zero, made where the test
// may: it is skipped otherwise) is refused like a FIFO: reading one may never end (issue 34
// HIGH 5: a char device left the server at ~30 % CPU for good). A request answers at once, and
// the directory's regular files still do.
func TestCharacterDevicesAreNotServed(t *testing.T) {
	dir := testTree(t)
	dev := filepath.Join(dir, "web", "zero.js")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o644, 1<<8|5); err != nil { // major 1, minor 5: zero
		t.Skipf("cannot make a device here: %v", err)
	}
	h, err := NewHandler(dir)
	require.NoError(t, err)
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Timeout: 10 * time.Second} // a failure detector: the device never ends
	for _, target := range []string{"/web/zero.js", "/web/zero.js?x=1"} {
		res, err := client.Get(srv.URL + target)
		require.NoError(t, err, target)
		res.Body.Close()
		assert.Contains(t, []int{http.StatusNotFound, http.StatusForbidden}, res.StatusCode, target)
	}
	res, err := client.Get(srv.URL + "/web/explainer.css")
	require.NoError(t, err)
	defer res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "a regular file still answers")
}
