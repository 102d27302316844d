// Package precompress writes, beside each compressible file of a built site, its brotli
// (quality 11) and gzip (level 9) encodings: FILE.br and FILE.gz, which `backfill serve` sends
// by the request's Accept-Encoding, as nginx (brotli_static, gzip_static) and Caddy
// (file_server { precompressed br gzip }) do. An encoding is written only when it is smaller
// than the file. Build time only: brotli never enters the wasm or bin/backfill.
package precompress

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
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

// Options of Dir.
type Options struct {
	Skip    []string // names relative to the directory, left as they are
	Workers int      // files encoded at once
	// Cache, if set, is a directory that keeps each encoding by its input's SHA-256: a build
	// whose wasm did not change copies its .br instead of encoding it again (brotli at quality
	// 11 takes ~25 s of CPU for the wasm). Entries this run did not use are removed.
	Cache string
}

// Dir encodes every compressible regular file under dir (but opt.Skip, and existing .br and
// .gz files). It returns each file's sizes, by name.
func Dir(dir string, opt Options) ([]File, error) {
	skip, workers := opt.Skip, opt.Workers
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
			out[i], errs[i] = encode(dir, name, opt.Cache)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if opt.Cache != "" {
		used := map[string]bool{}
		for _, name := range names {
			raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
			if err != nil {
				return nil, err
			}
			key := cacheKey(raw)
			used[key+".gz"], used[key+".br"] = true, true
		}
		entries, _ := os.ReadDir(opt.Cache)
		for _, e := range entries {
			if !used[e.Name()] {
				_ = os.Remove(filepath.Join(opt.Cache, e.Name()))
			}
		}
	}
	return out, nil
}

// cacheKey names an input's encodings in the cache: its SHA-256 and the settings.
func cacheKey(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]) + "-gz9-br11w24"
}

// cached returns the encoding of raw kept in the cache, or makes it with enc and keeps it.
func cached(cache string, raw []byte, ext string, enc func([]byte) ([]byte, error)) ([]byte, error) {
	if cache == "" {
		return enc(raw)
	}
	p := filepath.Join(cache, cacheKey(raw)+ext)
	if b, err := os.ReadFile(p); err == nil {
		return b, nil
	}
	b, err := enc(raw)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(cache, ".tmp-*")
	if err != nil {
		return nil, err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr == nil && cerr == nil {
		werr = os.Rename(tmp.Name(), p)
	}
	if werr != nil || cerr != nil {
		_ = os.Remove(tmp.Name())
	}
	return b, nil
}

// encode writes one file's encodings.
func encode(dir, name, cache string) (File, error) {
	p := filepath.Join(dir, filepath.FromSlash(name))
	raw, err := os.ReadFile(p)
	if err != nil {
		return File{}, err
	}
	f := File{Name: name, Raw: len(raw), Gzip: len(raw), Brotli: len(raw)}
	gz, err := cached(cache, raw, ".gz", Gzip)
	if err != nil {
		return File{}, fmt.Errorf("gzip %s: %w", name, err)
	}
	br, err := cached(cache, raw, ".br", Brotli)
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

// brotliWindow is the window Brotli encodes with (lgwin). The tests set a 64 KiB one (16) under
// -short: at quality 11 the encoder zeroes 8 bytes per byte of window for every file, 128 MB at
// 24, which was most of this package's test time; their files are a few KB.
var brotliWindow = 24

// Brotli encodes b at quality 11 with a 16 MiB window (lgwin 24, brotli's largest standard
// window, which every browser decodes).
func Brotli(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	bw := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 11, LGWin: brotliWindow})
	if _, err := bw.Write(b); err != nil {
		return nil, err
	}
	if err := bw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
