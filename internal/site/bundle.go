package site

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// BundleReport says what BundlePage wrote (slash paths under the site).
type BundleReport struct {
	Entries map[string]string // each module script of the page → its bundle
	Chunks  []string          // shared code and dynamically imported modules, one file each
	Bytes   int               // the size of all it wrote
}

// BundleOptions says what to bundle and where.
type BundleOptions struct {
	Dir    string // the built site
	Index  string // the page, a slash path under Dir (default "index.html")
	Out    string // where the bundles go, a slash path under Dir (default "web/bundle")
	Minify bool   // minify the bundles (whitespace and syntax; names are kept, for stack traces)
	// Files the bundles import as they are (slash paths under Dir, e.g. a vendored library that
	// is already minified): they stay files of their own, imported by a path relative to Out.
	External []string
}

// BundlePage bundles the module scripts of the built page with esbuild, and points the page's
// <script type="module" src> at the bundles: a browser then fetches one file for the page's whole
// static module graph (and a chunk or two of code it shares with what it loads later) instead of
// one request per module. A module imported with import() becomes a file of its own that loads on
// first use (a chunk, NAME-HASH.js after the module), and code shared between an entry and such
// chunks goes to shared chunks (chunk-HASH.js), so that every module still runs once. Everything
// goes to opt.Out, under the entry's name (web/main.js → web/bundle/main.js); the modules
// themselves stay where they are (a worker, the embedding element or a test may load them).
//
// It returns the page rewritten; the caller writes it. Run AddModulePreloads on that page next
// (it then preloads the shared chunks the bundles import statically), and BuildOffline on the
// page as it was: it bundles the page's modules itself, into the one file.
func BundlePage(opt BundleOptions) ([]byte, BundleReport, error) {
	var rep BundleReport
	if opt.Index == "" {
		opt.Index = "index.html"
	}
	if opt.Out == "" {
		opt.Out = "web/bundle"
	}
	abs, err := filepath.Abs(opt.Dir)
	if err != nil {
		return nil, rep, err
	}
	b := &offlineBuilder{dir: abs}
	page, err := b.read(opt.Index)
	if err != nil {
		return nil, rep, err
	}
	base := pathDir(opt.Index)
	entries := pageModules(page, base)
	if len(entries) == 0 {
		return page, rep, nil
	}
	outDir, err := b.abs(opt.Out)
	if err != nil {
		return nil, rep, err
	}
	var points []string
	for _, e := range entries {
		p, err := b.abs(e)
		if err != nil {
			return nil, rep, err
		}
		points = append(points, p)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:      points,
		Bundle:           true,
		Splitting:        true,
		Write:            false,
		Format:           api.FormatESModule,
		Platform:         api.PlatformBrowser,
		Outdir:           outDir,
		AbsWorkingDir:    abs,
		EntryNames:       "[name]",
		ChunkNames:       "[name]-[hash]",
		Loader:           assetLoaders,
		Charset:          api.CharsetUTF8,
		MinifyWhitespace: opt.Minify,
		MinifySyntax:     opt.Minify,
		LegalComments:    api.LegalCommentsEndOfFile,
		Plugins:          []api.Plugin{externalFiles(b, opt.External, outDir)},
		LogLevel:         api.LogLevelSilent,
	})
	if err := buildError("bundling the page's modules", res); err != nil {
		return nil, rep, err
	}
	rep.Entries = map[string]string{}
	outputs := map[string]bool{}
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(abs, f.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, rep, fmt.Errorf("bundle: esbuild wrote %s outside %s", f.Path, abs)
		}
		outputs[filepath.ToSlash(rel)] = true
	}
	for _, e := range entries {
		out := path.Join(opt.Out, strings.TrimSuffix(path.Base(e), path.Ext(e))+".js")
		if !outputs[out] {
			return nil, rep, fmt.Errorf("bundle: no bundle for %s (two entries with one name?)", e)
		}
		rep.Entries[e] = out
		delete(outputs, out)
	}
	for f := range outputs {
		rep.Chunks = append(rep.Chunks, f)
	}
	sort.Strings(rep.Chunks)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, rep, fmt.Errorf("bundle: %w", err)
	}
	for _, f := range res.OutputFiles {
		if err := os.WriteFile(f.Path, f.Contents, 0o644); err != nil {
			return nil, rep, fmt.Errorf("bundle: %w", err)
		}
		rep.Bytes += len(f.Contents)
	}
	out, err := pointScripts(page, base, rep.Entries)
	return out, rep, err
}

// pageModules lists the page's local module scripts (slash paths under the site), in document
// order.
func pageModules(page []byte, base string) []string {
	var modules []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return modules
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if tok.DataAtom != atom.Script {
			continue
		}
		typ, _ := attr(tok, "type")
		src, _ := attr(tok, "src")
		if file, local := localRef(base, src); local && strings.EqualFold(strings.TrimSpace(typ), "module") {
			modules = append(modules, file)
		}
	}
}

// pointScripts returns the page with each module script's src that bundles names pointed at its
// bundle (a path relative to the page); nothing else changes, byte for byte.
func pointScripts(page []byte, base string, bundles map[string]string) ([]byte, error) {
	var out bytes.Buffer
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				return out.Bytes(), nil
			}
			return nil, fmt.Errorf("bundle: parsing the page: %w", z.Err())
		}
		raw := z.Raw()
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			out.Write(raw)
			continue
		}
		tok := z.Token()
		src, _ := attr(tok, "src")
		typ, _ := attr(tok, "type")
		file, local := localRef(base, src)
		to, ok := bundles[file]
		if tok.DataAtom != atom.Script || !local || !ok || !strings.EqualFold(strings.TrimSpace(typ), "module") {
			out.Write(raw)
			continue
		}
		rel, err := filepath.Rel(filepath.FromSlash("/"+base), filepath.FromSlash("/"+to))
		if err != nil {
			return nil, err
		}
		out.WriteString(openTagWith(tok, "src", filepath.ToSlash(rel)))
	}
}

// externalFiles keeps the files external (slash paths under the site) out of the bundles: an
// import that resolves to one of them stays an import, of its path relative to outDir.
func externalFiles(b *offlineBuilder, external []string, outDir string) api.Plugin {
	keep := map[string]bool{}
	for _, f := range external {
		if p, err := b.abs(f); err == nil {
			keep[p] = true
		}
	}
	return api.Plugin{
		Name: "backfill-external",
		Setup: func(pb api.PluginBuild) {
			pb.OnResolve(api.OnResolveOptions{Filter: `^\.\.?/`},
				func(a api.OnResolveArgs) (api.OnResolveResult, error) {
					p := filepath.Join(a.ResolveDir, filepath.FromSlash(a.Path))
					if !keep[p] {
						return api.OnResolveResult{}, nil // esbuild resolves it
					}
					rel, err := filepath.Rel(outDir, p)
					if err != nil {
						return api.OnResolveResult{}, err
					}
					rel = filepath.ToSlash(rel)
					if !strings.HasPrefix(rel, ".") {
						rel = "./" + rel
					}
					return api.OnResolveResult{Path: rel, External: true}, nil
				})
		},
	}
}
