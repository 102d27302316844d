// Package site serves the built explainer (dist/) over HTTP and assembles
// the offline single-file page.
//
// The server is deliberately small: GET and HEAD only, a fixed MIME table
// (so .wasm is application/wasm whatever the host's mime.types says),
// gzip for text and wasm when the client accepts it, Cache-Control:
// no-cache on everything, no directory listings, and file access through
// an os.Root so no request path can leave the served directory.
package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// contentTypes fixes the types the page depends on. Anything not listed
// falls back to the standard library's table, then to octet-stream.
var contentTypes = map[string]string{
	".html":  "text/html; charset=utf-8",
	".htm":   "text/html; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".json":  "application/json",
	".map":   "application/json",
	".wasm":  "application/wasm",
	".svg":   "image/svg+xml",
	".yaml":  "text/yaml; charset=utf-8",
	".yml":   "text/yaml; charset=utf-8",
	".txt":   "text/plain; charset=utf-8",
	".md":    "text/markdown; charset=utf-8",
	".png":   "image/png",
	".ico":   "image/x-icon",
	".woff2": "font/woff2",
}

// ContentType returns the Content-Type the server sends for a file name.
func ContentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// compressible reports whether responses of this type are gzipped.
func compressible(contentType string) bool {
	t, _, _ := strings.Cut(contentType, ";")
	switch {
	case strings.HasPrefix(t, "text/"):
		return true
	case t == "application/wasm", t == "application/json", t == "image/svg+xml":
		return true
	}
	return false
}

// Handler serves the files under dir.
type Handler struct {
	root *os.Root

	mu sync.Mutex
	gz map[string]gzEntry // by cleaned path; invalidated by size/mtime
}

type gzEntry struct {
	size    int64
	modTime time.Time
	data    []byte
}

// NewHandler opens dir (which must be a directory) for serving. Close the
// handler to release the directory.
func NewHandler(dir string) (*Handler, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("site: %s is not a directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("site: open %s: %w", dir, err)
	}
	return &Handler{root: root, gz: map[string]gzEntry{}}, nil
}

// Close releases the served directory.
func (h *Handler) Close() error { return h.root.Close() }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	urlPath := r.URL.Path
	if !strings.HasPrefix(urlPath, "/") {
		urlPath = "/" + urlPath
	}
	// Refuse anything that tries to climb, or that cleaning would change
	// in a way that hides a segment; os.Root is the second line of defence.
	if strings.Contains(urlPath, "\x00") || strings.Contains(urlPath, "\\") || hasDotDot(urlPath) {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}
	name := strings.TrimPrefix(path.Clean(urlPath), "/")
	if name == "" {
		name = "."
	}

	f, st, err := h.open(name)
	if err != nil {
		h.notFound(w, err)
		return
	}
	if st.IsDir() {
		f.Close()
		if !strings.HasSuffix(urlPath, "/") {
			// Redirect to the slash form so the page's relative URLs resolve
			// inside the directory; relative Location keeps sub-paths working.
			if idx, ist, err := h.open(path.Join(name, "index.html")); err == nil {
				idx.Close()
				if !ist.IsDir() {
					loc := path.Base(urlPath) + "/"
					if r.URL.RawQuery != "" {
						loc += "?" + r.URL.RawQuery
					}
					// Set by hand: http.Redirect would make it absolute.
					hdr.Set("Location", loc)
					w.WriteHeader(http.StatusMovedPermanently)
					return
				}
			}
			h.notFound(w, fs.ErrNotExist)
			return
		}
		name = path.Join(name, "index.html")
		f, st, err = h.open(name)
		if err != nil || st.IsDir() {
			if err == nil {
				f.Close()
			}
			h.notFound(w, fs.ErrNotExist) // no directory listings
			return
		}
	}
	defer f.Close()

	ctype := ContentType(name)
	hdr.Set("Content-Type", ctype)
	etag := strconv.FormatInt(st.Size(), 36) + "-" + strconv.FormatInt(st.ModTime().UnixNano(), 36)

	if compressible(ctype) {
		hdr.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			data, err := h.gzipped(name, f, st)
			if err != nil {
				http.Error(w, "read error", http.StatusInternalServerError)
				return
			}
			hdr.Set("Content-Encoding", "gzip")
			hdr.Set("ETag", `"`+etag+`-gz"`)
			// ServeContent leaves out Content-Length once an encoding is set;
			// the length lets a browser show download progress for the wasm.
			hdr.Set("Content-Length", strconv.Itoa(len(data)))
			// Ranges over an encoded body confuse more than they help.
			r.Header.Del("Range")
			http.ServeContent(w, r, name, st.ModTime(), bytes.NewReader(data))
			return
		}
	}
	hdr.Set("ETag", `"`+etag+`"`)
	http.ServeContent(w, r, name, st.ModTime(), f)
}

func (h *Handler) open(name string) (*os.File, fs.FileInfo, error) {
	f, err := h.root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

func (h *Handler) notFound(w http.ResponseWriter, err error) {
	if errors.Is(err, fs.ErrPermission) {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	http.Error(w, "not found", http.StatusNotFound)
}

// gzipped returns the gzip encoding of the file, cached until its size or
// modification time changes (the wasm is megabytes; compress it once).
func (h *Handler) gzipped(name string, f io.Reader, st fs.FileInfo) ([]byte, error) {
	h.mu.Lock()
	e, ok := h.gz[name]
	h.mu.Unlock()
	if ok && e.size == st.Size() && e.modTime.Equal(st.ModTime()) {
		return e.data, nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := io.Copy(zw, f); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.gz[name] = gzEntry{size: st.Size(), modTime: st.ModTime(), data: buf.Bytes()}
	h.mu.Unlock()
	return buf.Bytes(), nil
}

func hasDotDot(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

// acceptsGzip parses an Accept-Encoding header: gzip (or *) with a q-value
// other than zero.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if q > 0 {
			return true
		}
		if coding == "gzip" {
			return false // an explicit gzip;q=0 beats a wildcard
		}
	}
	return false
}

// logRequests wraps h with one log line per request.
func logRequests(h http.Handler, log io.Writer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		fmt.Fprintf(log, "%s %s %d %s\n", r.Method, r.URL.RequestURI(), rec.status, time.Since(start).Round(time.Microsecond))
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Serve serves dir on addr until the process ends, logging the URL and
// one line per request to log.
func Serve(dir, addr string, log io.Writer) error {
	return ServeContext(context.Background(), dir, addr, log)
}

// ServeContext is Serve that shuts down gracefully when ctx is done. It
// prints "serving DIR at http://HOST:PORT/" once listening, so with port 0
// a caller can read the chosen port from the log.
func ServeContext(ctx context.Context, dir, addr string, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	h, err := NewHandler(dir)
	if err != nil {
		return err
	}
	defer h.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("site: listen %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           logRequests(h, log),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(log, "serving %s at %s\n", dir, URL(ln.Addr()))
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		case <-done:
		}
	}()
	err = srv.Serve(ln)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// URL is the http URL of a listening address, with an unspecified host
// shown as 127.0.0.1 so it can be opened as printed.
func URL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
