package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// BundleReport says what BundlePage wrote and removed (slash paths under the site).
type BundleReport struct {
	Entries []string // the page's module scripts, each now its bundle
	Chunks  []string // shared code and dynamically imported modules, one file each
	Removed []string // modules now inside a bundle or chunk that nothing else loads
	Kept    []string // modules inside a bundle that another script still loads (workers …)
}

// BundlePage bundles, in place, the module scripts of the built page index (a slash path under
// dir) with esbuild: a browser then fetches one file for the page's whole static module graph
// (and a chunk or two of code it shares with what it loads later) instead of one request per
// module. The page is left as it is: each module script's file becomes its bundle, under the
// same name. A module imported with import() stays a file of its own that loads on first use
// (a chunk, chunk-HASH.js beside the first entry), and code shared between the entries and those
// chunks goes to shared chunks, so that every module still runs once. The modules now inside a
// bundle or chunk are removed, except those another script of the site still loads: any other
// JavaScript file under dir (a worker, an embedding script, a classic script of the page) and
// what it imports.
//
// Run it before AddModulePreloads (which then preloads the chunks an entry imports statically)
// and after BuildOffline, which bundles the page's modules itself from their sources.
func BundlePage(dir, index string) (BundleReport, error) {
	var rep BundleReport
	abs, err := filepath.Abs(dir)
	if err != nil {
		return rep, err
	}
	b := &offlineBuilder{dir: abs}
	page, err := b.read(index)
	if err != nil {
		return rep, err
	}
	entries, classic, err := pageScripts(page, pathDir(index))
	if err != nil {
		return rep, err
	}
	if len(entries) == 0 {
		return rep, nil
	}
	var points []string
	for _, e := range entries {
		p, err := b.abs(e)
		if err != nil {
			return rep, err
		}
		points = append(points, p)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:   points,
		Bundle:        true,
		Splitting:     true,
		Write:         false,
		Metafile:      true,
		Format:        api.FormatESModule,
		Platform:      api.PlatformBrowser,
		Outdir:        abs,
		Outbase:       abs,
		AbsWorkingDir: abs,
		EntryNames:    "[dir]/[name]",
		ChunkNames:    path.Join(pathDir(entries[0]), "chunk-[hash]"),
		Loader:        assetLoaders,
		Charset:       api.CharsetUTF8,
		LogLevel:      api.LogLevelSilent,
	})
	if err := buildError("bundling the page's modules", res); err != nil {
		return rep, err
	}
	var meta struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return rep, fmt.Errorf("bundle: esbuild's metafile: %w", err)
	}
	bundled := map[string]bool{}
	for in := range meta.Inputs {
		bundled[filepath.ToSlash(in)] = true
	}
	written := map[string]bool{}
	isEntry := map[string]bool{}
	for _, e := range entries {
		isEntry[e] = true
	}
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(abs, f.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			return rep, fmt.Errorf("bundle: esbuild wrote %s outside %s", f.Path, abs)
		}
		rel = filepath.ToSlash(rel)
		written[rel] = true
		if isEntry[rel] {
			continue
		}
		if bundled[rel] {
			return rep, fmt.Errorf("bundle: the chunk %s would overwrite a module of the page", rel)
		}
		rep.Chunks = append(rep.Chunks, rel)
	}
	rep.Entries = entries

	// What other scripts load: every other JavaScript file of the site, the page's classic
	// scripts, and all they import.
	var others []string
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(abs, p)
		rel = filepath.ToSlash(rel)
		if (strings.HasSuffix(rel, ".js") || strings.HasSuffix(rel, ".mjs")) && !bundled[rel] && !written[rel] {
			others = append(others, rel)
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	others = append(others, classic...)
	needed, err := b.importClosure(others)
	if err != nil {
		return rep, err
	}
	for f := range bundled {
		if isEntry[f] || !strings.HasSuffix(f, ".js") && !strings.HasSuffix(f, ".mjs") {
			continue
		}
		if needed[f] {
			rep.Kept = append(rep.Kept, f)
		} else {
			rep.Removed = append(rep.Removed, f)
		}
	}
	sort.Strings(rep.Chunks)
	sort.Strings(rep.Removed)
	sort.Strings(rep.Kept)

	for _, f := range res.OutputFiles {
		if err := os.WriteFile(f.Path, f.Contents, 0o644); err != nil {
			return rep, fmt.Errorf("bundle: %w", err)
		}
	}
	for _, f := range rep.Removed {
		p, err := b.abs(f)
		if err != nil {
			return rep, err
		}
		if err := os.Remove(p); err != nil {
			return rep, fmt.Errorf("bundle: %w", err)
		}
	}
	return rep, nil
}

// pageScripts lists the page's local module scripts and local classic scripts (slash paths
// under the site), in document order.
func pageScripts(page []byte, base string) (modules, classic []string, err error) {
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				return modules, classic, nil
			}
			return nil, nil, fmt.Errorf("bundle: parsing the page: %w", z.Err())
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if tok.DataAtom != atom.Script {
			continue
		}
		src, _ := attr(tok, "src")
		file, local := localRef(base, src)
		if !local {
			continue
		}
		typ, _ := attr(tok, "type")
		if strings.EqualFold(strings.TrimSpace(typ), "module") {
			modules = append(modules, file)
		} else {
			classic = append(classic, file)
		}
	}
}

// importClosure is every file reachable from files by any import (static or dynamic), files
// included, as slash paths under the site.
func (b *offlineBuilder) importClosure(files []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(files) == 0 {
		return out, nil
	}
	var points []string
	for _, f := range files {
		p, err := b.abs(f)
		if err != nil {
			return nil, err
		}
		points = append(points, p)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:   points,
		Bundle:        true,
		Write:         false,
		Metafile:      true,
		Format:        api.FormatESModule,
		Platform:      api.PlatformBrowser,
		Outdir:        filepath.Join(b.dir, ".bundle-out"),
		AbsWorkingDir: b.dir,
		Loader:        assetLoaders,
		LogLevel:      api.LogLevelSilent,
	})
	if err := buildError("reading what the site's other scripts import", res); err != nil {
		return nil, err
	}
	var meta struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return nil, fmt.Errorf("bundle: esbuild's metafile: %w", err)
	}
	for in := range meta.Inputs {
		out[filepath.ToSlash(in)] = true
	}
	return out, nil
}
