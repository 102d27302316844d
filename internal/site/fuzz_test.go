package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzHandlerPath: whatever the request path, the handler neither panics
// nor serves a byte from outside its directory (a sibling file holds a
// secret, and a symlink inside points at it).
func FuzzHandlerPath(f *testing.F) {
	for _, seed := range []string{"/", "/index.html", "/../secret.txt", "/web/../../secret.txt", "/%2e%2e/secret.txt",
		"/web/", "/web", "//secret.txt", "/./web/./a.js", "/link/secret.txt", "/web/a.js\x00", `/..\secret.txt`} {
		f.Add(seed)
	}
	parent := f.TempDir()
	dir := filepath.Join(parent, "site")
	if err := os.MkdirAll(filepath.Join(dir, "web"), 0o755); err != nil {
		f.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			f.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(parent, "secret.txt"), []byte("TOP-SECRET"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>index</p>"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "web", "a.js"), []byte("export {}"), 0o644))
	must(os.Symlink(parent, filepath.Join(dir, "link")))
	h, err := NewHandler(dir)
	must(err)
	f.Cleanup(func() { h.Close() })

	f.Fuzz(func(t *testing.T, p string) {
		req := httptest.NewRequest(http.MethodGet, "http://example.test/", nil)
		req.URL.Path = p
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if strings.Contains(body(t, rec.Result()), "TOP-SECRET") {
			t.Fatalf("path %q served a file outside the directory", p)
		}
		switch rec.Code {
		case 200, 301, 304, 400, 403, 404:
		default:
			t.Fatalf("path %q: status %d", p, rec.Code)
		}
	})
}
