package precompress

import (
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain runs the tests under -short with a 64 KiB brotli window (brotliWindow): the files
// here are a few KB, and each encoding at 24 zeroes 128 MB. Without -short they encode as the
// build does.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		brotliWindow = 16
	}
	os.Exit(m.Run())
}

func TestDirWritesBothEncodingsBesideEachCompressibleFile(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("export const step = (n) => n + 1;\n", 400)
	files := map[string]string{
		"index.html":             "<!doctype html>" + strings.Repeat("<p>backfill</p>", 200),
		"web/bundle/main.js":     big,
		"web/style.css":          strings.Repeat("a{color:red}\n", 100),
		"web/explainer.wasm":     "\x00asm\x01\x00\x00\x00" + strings.Repeat("\x00\x2a", 3000),
		"web/tiny.json":          "{}",
		"web/photo.png":          strings.Repeat("x", 5000),
		"explainer-offline.html": strings.Repeat("<p>offline</p>", 300),
		"web/old.js.br":          "left from an earlier build",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	got, err := Dir(dir, Options{Skip: []string{"explainer-offline.html"}, Workers: 2})
	require.NoError(t, err)
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"index.html", "web/bundle/main.js", "web/explainer.wasm", "web/style.css", "web/tiny.json"}, names)

	for _, f := range got {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if f.Name == "web/tiny.json" {
			assert.False(t, f.WroteGzip || f.WroteBr, "an encoding no smaller than the file is not written")
			assert.NoFileExists(t, p+".gz")
			assert.NoFileExists(t, p+".br")
			assert.Equal(t, File{Name: f.Name, Raw: 2, Gzip: 2, Brotli: 2}, f)
			continue
		}
		assert.True(t, f.WroteGzip && f.WroteBr, f.Name)
		gz, err := os.ReadFile(p + ".gz")
		require.NoError(t, err)
		br, err := os.ReadFile(p + ".br")
		require.NoError(t, err)
		assert.Equal(t, len(gz), f.Gzip, f.Name)
		assert.Equal(t, len(br), f.Brotli, f.Name)
		assert.Less(t, f.Brotli, f.Raw, f.Name)
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		require.NoError(t, err)
		plain, err := io.ReadAll(zr)
		require.NoError(t, err)
		assert.Equal(t, files[f.Name], string(plain), f.Name)
		plain, err = io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
		require.NoError(t, err)
		assert.Equal(t, files[f.Name], string(plain), f.Name)
	}
	for _, name := range []string{"web/photo.png", "explainer-offline.html"} {
		assert.NoFileExists(t, filepath.Join(dir, name+".br"), name)
		assert.NoFileExists(t, filepath.Join(dir, name+".gz"), name)
	}
	assert.FileExists(t, filepath.Join(dir, "web/old.js.br"), "a .br is not encoded again")
	assert.NoFileExists(t, filepath.Join(dir, "web/old.js.br.gz"))

	// a second run gives the same files
	again, err := Dir(dir, Options{Skip: []string{"explainer-offline.html"}, Workers: 1})
	require.NoError(t, err)
	assert.Equal(t, got, again)
}

func TestCompressible(t *testing.T) {
	for name, want := range map[string]bool{
		"a.wasm": true, "a.js": true, "a.mjs": true, "a.css": true, "a.html": true, "a.json": true,
		"a.svg": true, "a.txt": true, "A.JS": true, "a.png": false, "a.woff2": false, "a.br": false,
		"a.gz": false, "a.js.br": false, "Makefile": false,
	} {
		assert.Equal(t, want, Compressible(name), name)
	}
}

// brotli is for the build only: neither the wasm nor bin/backfill links it.
func TestBrotliStaysAtBuildTime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, tc := range []struct{ pkg, goos, goarch string }{{"../../../wasm", "js", "wasm"}, {"../../../cmd/backfill", "", ""}} {
		cmd := exec.Command("go", "list", "-deps", tc.pkg)
		if tc.goos != "" {
			cmd.Env = append(cmd.Environ(), "GOOS="+tc.goos, "GOARCH="+tc.goarch)
		}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Contains(t, string(out), "github.com/backfill-explainer/explainer/", tc.pkg)
		assert.NotContains(t, string(out), "andybalholm/brotli", "%s links brotli", tc.pkg)
	}
}

// With a cache, an unchanged file's encodings are copied from it (the cache's copy is what is
// written), a changed file's are made anew, and entries no file uses any more are removed.
func TestDirCache(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	js := filepath.Join(dir, "a.js")
	text := strings.Repeat("let a = 1;\n", 300)
	require.NoError(t, os.WriteFile(js, []byte(text), 0o644))
	_, err := Dir(dir, Options{Workers: 1, Cache: cache})
	require.NoError(t, err)
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	require.Len(t, entries, 2, "a .gz and a .br")

	// mark the cached brotli: a second run copies it rather than encoding again
	var brEntry string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".br") {
			brEntry = filepath.Join(cache, e.Name())
		}
	}
	require.NoError(t, os.WriteFile(brEntry, []byte("from the cache"), 0o644))
	_, err = Dir(dir, Options{Workers: 1, Cache: cache})
	require.NoError(t, err)
	b, err := os.ReadFile(js + ".br")
	require.NoError(t, err)
	assert.Equal(t, "from the cache", string(b))

	// a changed file is encoded anew, and the old entries go
	require.NoError(t, os.WriteFile(js, []byte(text+"// changed\n"), 0o644))
	_, err = Dir(dir, Options{Workers: 1, Cache: cache})
	require.NoError(t, err)
	b, err = os.ReadFile(js + ".br")
	require.NoError(t, err)
	plain, err := io.ReadAll(brotli.NewReader(bytes.NewReader(b)))
	require.NoError(t, err)
	assert.Equal(t, text+"// changed\n", string(plain))
	entries, err = os.ReadDir(cache)
	require.NoError(t, err)
	assert.Len(t, entries, 2)
	_, err = os.Stat(brEntry)
	assert.True(t, os.IsNotExist(err), "the old entry is removed")
}
