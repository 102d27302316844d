// Package precompress writes, beside each compressible file of a built site, its brotli
// (quality 11) and gzip (level 9) encodings: FILE.br and FILE.gz, which `backfill serve` sends
// by the request's Accept-Encoding, as nginx (brotli_static, gzip_static) and Caddy
// (file_server { precompressed br gzip }) do. An encoding is written only when it is smaller
// than the file. Build time only: brotli never enters the wasm or bin/backfill.
package precompress

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Compressible reports whether a file of the site gets encodings: the wasm and text (scripts,
// styles, pages, JSON, SVG, plain text). Images and fonts are compressed already.
func Compressible(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".wasm", ".js", ".mjs", ".css", ".html", ".json", ".svg", ".txt":
		return true
	}
	return false
}

// File is one file's sizes: as it is, and as each encoding sent (its own size when that
// encoding was not written, since then the file itself is sent).
type File struct {
	Name               string // slash-separated, relative to the site
	Raw, Gzip, Brotli  int
	WroteGzip, WroteBr bool
}

// Dir encodes every compressible regular file under dir (but the names in skip, relative to
// dir, and existing .br and .gz files), writing at most workers at once. It returns each file's
// sizes, by name.
func Dir(dir string, skip []string, workers int) ([]File, error) {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		for _, s := range skip {
			if rel == s {
				return nil
			}
		}
		if Compressible(rel) {
			names = append(names, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]File, len(names))
	errs := make([]error, len(names))
	sem := make(chan struct{}, max(workers, 1))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i], errs[i] = encode(dir, name)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// encode writes one file's encodings.
func encode(dir, name string) (File, error) {
	p := filepath.Join(dir, filepath.FromSlash(name))
	raw, err := os.ReadFile(p)
	if err != nil {
		return File{}, err
	}
	f := File{Name: name, Raw: len(raw), Gzip: len(raw), Brotli: len(raw)}
	gz, err := Gzip(raw)
	if err != nil {
		return File{}, fmt.Errorf("gzip %s: %w", name, err)
	}
	br, err := Brotli(raw)
	if err != nil {
		return File{}, fmt.Errorf("brotli %s: %w", name, err)
	}
	for _, e := range []struct {
		ext   string
		b     []byte
		size  *int
		wrote *bool
	}{{".gz", gz, &f.Gzip, &f.WroteGzip}, {".br", br, &f.Brotli, &f.WroteBr}} {
		_ = os.Remove(p + e.ext) // one from an earlier build
		if len(e.b) >= len(raw) {
			continue
		}
		if err := os.WriteFile(p+e.ext, e.b, 0o644); err != nil {
			return File{}, err
		}
		*e.size, *e.wrote = len(e.b), true
	}
	return f, nil
}

// Gzip encodes b at the best compression (gzip -9).
func Gzip(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Brotli encodes b at quality 11 with a 16 MiB window (lgwin 24, brotli's largest standard
// window, which every browser decodes).
func Brotli(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	bw := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 11, LGWin: 24})
	if _, err := bw.Write(b); err != nil {
		return nil, err
	}
	if err := bw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
