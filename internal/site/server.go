// Package site serves the built explainer (dist/) over HTTP and assembles
// the offline single-file page.
//
// The server is deliberately small: GET and HEAD only, a fixed MIME table
// (so .wasm is application/wasm whatever the host's mime.types says),
// the build's precompressed variants (FILE.br, then FILE.gz, beside the file)
// when the client accepts them, else gzip for text and wasm made here (each
// file compressed once, however many ask for it at the same time), an ETag
// from the content of what is sent, Cache-Control: no-cache (a browser asks again and gets 304 Not
// Modified while the file is the same) but for the bundle's content-hashed
// chunks, which are immutable (a new build names them anew), the
// Content-Security-Policy and
// X-Content-Type-Options headers on every response,
// Access-Control-Allow-Origin: * on the files an embed on another origin
// loads (EmbedAsset), no directory listings, no dotfiles, only regular files
// (a FIFO, a device or a socket is refused before it is opened), file access
// through an os.Root so no request path can leave the served directory, and
// timeouts for reading, writing and idle connections.
package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"regexp"
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

// CSP is the Content-Security-Policy the server sends: everything from the site itself, the
// wasm compiled by WebAssembly.instantiate ('wasm-unsafe-eval', not 'unsafe-eval'), no inline
// script or style, images also as data: URLs, and any page may frame it (documentation
// embeds the explainer). An HTML file that declares its own policy in a
// <meta http-equiv="Content-Security-Policy"> (the offline file: its inline scripts by hash)
// is sent with that policy instead, so that the header does not forbid what the page needs.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; worker-src 'self'; connect-src 'self'; frame-ancestors *"

// maxCompressed bounds the files the server gzips (and keeps compressed in memory).
const maxCompressed = 64 << 20

// Handler serves the files under dir.
type Handler struct {
	root *os.Root

	mu    sync.Mutex
	cache map[string]*fileEntry // by cleaned path; replaced when the file's size or mtime changes
}

// fileEntry is what the server derives from one version of a file, once: its ETag (from its
// content), its gzip encoding, and the policy an HTML file declares. Requests that arrive
// while it is being made wait for it (once).
type fileEntry struct {
	size    int64
	modTime time.Time
	once    sync.Once
	etag    string // quoted, from the content
	gz      []byte // nil when not compressed
	csp     string // the policy an HTML file declares, or ""
	err     error
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
	return &Handler{root: root, cache: map[string]*fileEntry{}}, nil
}

// Close releases the served directory.
func (h *Handler) Close() error { return h.root.Close() }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", CSP)
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
	if hasDotfile(name) {
		h.notFound(w, fs.ErrNotExist) // .git, .env, editors' files: never served
		return
	}

	f, st, err := h.open(name)
	if err != nil {
		h.notFound(w, err)
		return
	}
	dirIndex := false // serving a directory's index.html
	if st.IsDir() {
		f.Close()
		if !strings.HasSuffix(urlPath, "/") {
			// Redirect to the slash form so the page's relative URLs resolve
			// inside the directory; relative Location keeps sub-paths working.
			if idx, ist, err := h.open(path.Join(name, "index.html")); err == nil {
				idx.Close()
				if !ist.IsDir() {
					loc := relativeURL(path.Base(urlPath) + "/")
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
		dirIndex = true
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
	if strings.HasSuffix(urlPath, "/") && !dirIndex {
		// a file asked for as a directory (/index.html/): its relative URLs would resolve
		// under a directory that is not there, so send the browser to the file
		loc := relativeURL("../" + path.Base(name))
		if r.URL.RawQuery != "" {
			loc += "?" + r.URL.RawQuery
		}
		hdr.Set("Location", loc)
		w.WriteHeader(http.StatusMovedPermanently)
		return
	}

	ctype := ContentType(name)
	hdr.Set("Content-Type", ctype)
	if Immutable(name) {
		hdr.Set("Cache-Control", "public, max-age=31536000, immutable")
	}
	if EmbedAsset(name) {
		hdr.Set("Access-Control-Allow-Origin", "*")
	}
	ent := h.entry(name, f, st, compressible(ctype))
	if ent.err != nil {
		http.Error(w, "read error", http.StatusInternalServerError)
		return
	}
	if ent.csp != "" {
		hdr.Set("Content-Security-Policy", ent.csp)
	}
	if compressible(ctype) {
		hdr.Add("Vary", "Accept-Encoding")
		accept := r.Header.Get("Accept-Encoding")
		for _, v := range variants {
			if acceptsCoding(accept, v.coding) && h.serveVariant(w, r, name, st, v) {
				return
			}
		}
		if ent.gz != nil && acceptsCoding(accept, "gzip") {
			serveEncoded(w, r, name, "gzip", strings.TrimSuffix(ent.etag, `"`)+`-gz"`, st.ModTime(), int64(len(ent.gz)), bytes.NewReader(ent.gz))
			return
		}
	}
	hdr.Set("ETag", ent.etag)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		http.Error(w, "read error", http.StatusInternalServerError)
		return
	}
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// variants are the precompressed files the build writes beside a file (FILE.br, FILE.gz), in
// the order the server prefers them.
var variants = []struct{ coding, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// serveVariant sends the file's precompressed variant for one coding, if there is one: a
// regular file at least as new as the file (one left from an older build is not sent). Its
// ETag is its own content's.
func (h *Handler) serveVariant(w http.ResponseWriter, r *http.Request, name string, st fs.FileInfo, v struct{ coding, ext string }) bool {
	f, vst, err := h.open(name + v.ext)
	if err != nil {
		return false
	}
	defer f.Close()
	if vst.IsDir() || vst.ModTime().Before(st.ModTime()) {
		return false
	}
	ent := h.entry(name+v.ext, f, vst, false)
	if ent.err != nil {
		return false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	serveEncoded(w, r, name, v.coding, ent.etag, vst.ModTime(), vst.Size(), f)
	return true
}

// serveEncoded sends an encoded body (or 304 when the client holds it) with its length, and
// no ranges: a range of an encoded body confuses more than it helps.
func serveEncoded(w http.ResponseWriter, r *http.Request, name, coding, etag string, mod time.Time, size int64, body io.ReadSeeker) {
	hdr := w.Header()
	hdr.Set("Content-Encoding", coding)
	hdr.Set("ETag", etag)
	// ServeContent leaves out Content-Length once an encoding is set; the length lets a
	// browser show download progress for the wasm.
	hdr.Set("Content-Length", strconv.FormatInt(size, 10))
	r.Header.Del("Range")
	r.Header.Del("If-Range")
	http.ServeContent(noRanges{w}, r, name, mod, body)
}

// noRanges takes back the Accept-Ranges that ServeContent offers.
type noRanges struct{ http.ResponseWriter }

func (n noRanges) WriteHeader(code int) {
	n.Header().Del("Accept-Ranges")
	n.ResponseWriter.WriteHeader(code)
}

// EmbedAsset reports whether a file is one that a page on another origin loads to embed the
// explainer, and so is sent with Access-Control-Allow-Origin: *: the public static files under
// web/ that are scripts, stylesheets, the wasm or data (element.js, which a documentation page
// loads as a module script, fetched in CORS mode; wasm_exec.js, the wasm, the bundle and its
// chunks, the workers, the stylesheets, stored JSON). The pages (index.html, the offline file)
// and everything else are not.
func EmbedAsset(name string) bool {
	if !strings.HasPrefix(name, "web/") {
		return false
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".js", ".mjs", ".css", ".wasm", ".json":
		return true
	}
	return false
}

// relativeURL writes a relative path as a URL reference: percent-encoded ("q?x/" is
// "q%3Fx/"), and with "./" before a first segment that holds a colon (which would read as a
// scheme).
func relativeURL(p string) string { return (&url.URL{Path: p}).String() }

// Immutable reports whether a file of the site is named by its content: a chunk the build's
// bundler wrote as NAME-HASH.js into a bundle/ directory (esbuild's 8-character hash), which a
// new build with different content writes under another name. Such a file can be cached for
// good; everything else (index.html, the wasm, the bundle's entry) is revalidated.
func Immutable(name string) bool {
	dir, file := path.Split(name)
	if path.Base(dir) != "bundle" || !strings.HasSuffix(file, ".js") {
		return false
	}
	stem := strings.TrimSuffix(file, ".js")
	i := strings.LastIndexByte(stem, '-')
	if i < 1 || len(stem)-i-1 != 8 {
		return false
	}
	for _, c := range stem[i+1:] {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// errNotRegular refuses a FIFO, a device or a socket (as not found).
var errNotRegular = fmt.Errorf("not a regular file: %w", fs.ErrNotExist)

// open opens a regular file or a directory. Anything else is refused before it is opened
// (opening a FIFO for reading waits for a writer, pinning a thread and a descriptor; reading
// a device may never end), and the open does not wait (openFlags: O_NONBLOCK) in case one was
// put in the file's place meanwhile, which the second check then refuses.
func (h *Handler) open(name string) (*os.File, fs.FileInfo, error) {
	st, err := h.root.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return nil, nil, errNotRegular
	}
	f, err := h.root.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err = f.Stat()
	if err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		err = errNotRegular
	}
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

// entry returns what the server derives from this version of the file, making it once: the
// first request for a version reads and compresses the file, and the requests that arrive
// meanwhile wait for it instead of compressing it again.
func (h *Handler) entry(name string, f io.Reader, st fs.FileInfo, compress bool) *fileEntry {
	h.mu.Lock()
	e, ok := h.cache[name]
	if !ok || e.size != st.Size() || !e.modTime.Equal(st.ModTime()) {
		e = &fileEntry{size: st.Size(), modTime: st.ModTime()}
		h.cache[name] = e
	}
	h.mu.Unlock()
	e.once.Do(func() { e.err = e.make(name, f, compress) })
	return e
}

// make reads the file once: its ETag is a hash of what it holds; a compressible file of at most
// maxCompressed bytes is gzipped (at the best compression: it is done once per version).
func (e *fileEntry) make(name string, f io.Reader, compress bool) error {
	hash := sha256.New()
	var gz bytes.Buffer
	var zw *gzip.Writer
	var w io.Writer = hash
	compress = compress && e.size <= maxCompressed
	if compress {
		zw, _ = gzip.NewWriterLevel(&gz, gzip.BestCompression)
		w = io.MultiWriter(hash, zw)
	}
	var head bytes.Buffer // the start of an HTML file, for its declared policy
	if strings.HasSuffix(strings.ToLower(name), ".html") {
		w = io.MultiWriter(w, &limitedBuffer{b: &head, n: 64 << 10})
	}
	if _, err := io.Copy(w, f); err != nil {
		return err
	}
	e.etag = `"` + hex.EncodeToString(hash.Sum(nil)[:12]) + `"`
	if compress {
		if err := zw.Close(); err != nil {
			return err
		}
		e.gz = gz.Bytes()
	}
	e.csp = declaredCSP(head.Bytes())
	return nil
}

// limitedBuffer keeps the first n bytes written to it.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

var metaCSP = regexp.MustCompile(`(?is)<meta\s+http-equiv\s*=\s*["']?content-security-policy["']?\s+content\s*=\s*"([^"]*)"`)

// declaredCSP returns the policy an HTML page declares in a meta tag, with frame-ancestors
// (which only a header can carry) added, or "".
func declaredCSP(head []byte) string {
	m := metaCSP.FindSubmatch(head)
	if m == nil {
		return ""
	}
	policy := strings.TrimSpace(html.UnescapeString(string(m[1])))
	if !strings.Contains(policy, "frame-ancestors") {
		policy = strings.TrimSuffix(policy, ";") + "; frame-ancestors *"
	}
	return policy
}

// hasDotfile reports whether a cleaned path names a file or directory whose name begins with
// a dot.
func hasDotfile(name string) bool {
	for _, seg := range strings.Split(name, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." {
			return true
		}
	}
	return false
}

func hasDotDot(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

// acceptsCoding parses an Accept-Encoding header: the coding (or *) with a q-value other than
// zero; an explicit q=0 for the coding beats a wildcard.
func acceptsCoding(header, want string) bool {
	wildcard := false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != want && coding != "*" {
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
		if coding == want {
			return q > 0
		}
		wildcard = q > 0
	}
	return wildcard
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
	srv := newServer(logRequests(h, log))
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

// Timeouts of the server: a request's header must arrive within ReadHeader and all of it
// within Read (requests are GET and HEAD: there is no body to wait for), a response may take
// Write (the wasm is a few megabytes, even on a slow link), and a keep-alive connection that
// sends nothing for Idle is closed. Tests shorten them.
var timeouts = struct{ ReadHeader, Read, Write, Idle time.Duration }{10 * time.Second, 30 * time.Second, 2 * time.Minute, 30 * time.Second}

// newServer makes the HTTP server with the timeouts and a 16 KB bound on request headers.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: timeouts.ReadHeader,
		ReadTimeout:       timeouts.Read,
		WriteTimeout:      timeouts.Write,
		IdleTimeout:       timeouts.Idle,
		MaxHeaderBytes:    16 << 10,
	}
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
