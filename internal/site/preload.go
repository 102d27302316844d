package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// AddModulePreloads returns the built index.html with a <link rel="modulepreload"> for every
// module the page's module scripts import statically, at any depth, placed before the first
// module script. Without them a browser discovers the module graph one level at a time (it
// must fetch and parse a module to learn what it imports); with them it fetches the whole graph
// at once. Dynamic imports (import()) are left alone: they load on first use. The graph comes
// from esbuild's metafile, so it is exactly what the browser will resolve. Module scripts that
// are already preloaded, and the module scripts themselves, get no link.
func AddModulePreloads(dir string, page []byte, index string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	b := &offlineBuilder{dir: abs}
	base := pathDir(index)
	var entries []string      // slash paths under dir, in document order
	have := map[string]bool{} // modulepreloaded or a module script already
	insertAt := -1            // byte offset of the first module script
	z := html.NewTokenizer(bytes.NewReader(page))
	offset := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				break
			}
			return nil, fmt.Errorf("preload: parsing %s: %w", index, z.Err())
		}
		raw := z.Raw()
		start := offset
		offset += len(raw)
		tok := z.Token()
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		switch tok.DataAtom {
		case atom.Script:
			typ, _ := attr(tok, "type")
			src, _ := attr(tok, "src")
			file, local := localRef(base, src)
			if !strings.EqualFold(strings.TrimSpace(typ), "module") || !local {
				continue
			}
			if insertAt < 0 {
				insertAt = start
			}
			entries = append(entries, file)
			have[file] = true
		case atom.Link:
			rel, _ := attr(tok, "rel")
			href, _ := attr(tok, "href")
			if file, local := localRef(base, href); local && hasWord(rel, "modulepreload") {
				have[file] = true
			}
		}
	}
	if len(entries) == 0 {
		return page, nil
	}
	graph, err := b.staticImports(entries)
	if err != nil {
		return nil, err
	}
	var links strings.Builder
	for _, f := range graph {
		if have[f] {
			continue
		}
		href, err := filepath.Rel(filepath.FromSlash("/"+base), filepath.FromSlash("/"+f))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&links, "<link rel=\"modulepreload\" href=\"%s\">\n", html.EscapeString(filepath.ToSlash(href)))
	}
	out := make([]byte, 0, len(page)+links.Len())
	out = append(out, page[:insertAt]...)
	out = append(out, links.String()...)
	return append(out, page[insertAt:]...), nil
}

func pathDir(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return "."
}

// staticImports lists every module reachable from entries by static imports (entries first,
// then breadth first), as slash paths under the site directory.
func (b *offlineBuilder) staticImports(entries []string) ([]string, error) {
	var points []string
	for _, e := range entries {
		p, err := b.abs(e)
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
		Outdir:        filepath.Join(b.dir, ".preload-out"),
		AbsWorkingDir: b.dir,
		Loader:        assetLoaders,
		LogLevel:      api.LogLevelSilent,
	})
	if err := buildError("reading the page's module graph", res.Errors); err != nil {
		return nil, err
	}
	var meta struct {
		Inputs map[string]struct {
			Imports []struct {
				Path     string `json:"path"`
				Kind     string `json:"kind"`
				External bool   `json:"external"`
			} `json:"imports"`
		} `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return nil, fmt.Errorf("preload: esbuild's metafile: %w", err)
	}
	seen := map[string]bool{}
	var order, queue []string
	for _, e := range entries {
		if !seen[e] {
			seen[e] = true
			queue = append(queue, e)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		order = append(order, f)
		in, ok := meta.Inputs[f]
		if !ok {
			continue
		}
		var next []string
		for _, imp := range in.Imports {
			if imp.Kind != "import-statement" || imp.External || seen[imp.Path] {
				continue
			}
			seen[imp.Path] = true
			next = append(next, imp.Path)
		}
		sort.Strings(next)
		queue = append(queue, next...)
	}
	return order, nil
}
