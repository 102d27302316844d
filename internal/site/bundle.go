package site

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
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
	Workers []string          // the workers the bundles name, each bundled in place (BundleOptions.Workers)
	Sheets  []string          // the stylesheets the bundles name, added to the page at a dialog's first use (web/ui/sheet.js)
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
	// Workers: also bundle each module worker the page's bundles name (a string literal
	// "…NAME-worker.js", relative to the page, of a file in Dir, in any folder: new Worker(new
	// URL("web/scale/scale-worker.js", document.baseURI), …)) into one file of its own, written
	// over that file, so that the worker needs one request, the modules it imports need not be
	// served, and what it finds by import.meta.url ("../explainer.wasm") is where it was. Its
	// imports of External files and of WorkerExternal files stay imports, by their paths from the
	// worker's folder.
	Workers bool
	// Files a worker imports as they are (slash paths under Dir; e.g. web/wasm_exec.js, the page's
	// classic script, which keeps its licence header as a file of its own).
	WorkerExternal []string
}

// BundlePage bundles the module scripts of the built page with esbuild, and points the page's
// <script type="module" src> at the bundles: a browser then fetches one file for the page's whole
// static module graph (and a chunk or two of code it shares with what it loads later) instead of
// one request per module. A module imported with import() becomes a file of its own that loads on
// first use (a chunk, NAME-HASH.js after the module), and code shared between an entry and such
// chunks goes to shared chunks (chunk-HASH.js), so that every module still runs once. Everything
// goes to opt.Out, under the entry's name (web/boot/main.js → web/bundle/main.js); the modules
// themselves stay where they are (Prune removes those nothing loads). With opt.Workers, each
// module worker the bundles name is bundled too, in place (see BundleOptions.Workers).
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
	if err := buildError("bundling the page's modules", res.Errors); err != nil {
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
	var texts [][]byte
	for _, f := range res.OutputFiles {
		texts = append(texts, f.Contents)
	}
	for _, lit := range sheetRefs(b, base, texts) {
		if file, _ := localRef(base, lit); !slices.Contains(rep.Sheets, file) {
			rep.Sheets = append(rep.Sheets, file)
		}
	}
	sort.Strings(rep.Sheets)
	if opt.Workers {
		for _, w := range workerRefs(b, base, texts) {
			n, err := bundleWorker(b, w, opt)
			if err != nil {
				return nil, rep, err
			}
			rep.Workers = append(rep.Workers, w)
			rep.Bytes += n
		}
	}
	out, err := pointScripts(page, base, rep.Entries)
	return out, rep, err
}

// workerLiteral is a string literal naming a worker module: "…/NAME-worker.js" in any quotes, in
// any folder ("web/scale/scale-worker.js").
var workerLiteral = regexp.MustCompile("[\"'`]([A-Za-z0-9_./-]*-worker\\.js)[\"'`]")

// workerRefs lists the files under the site (slash paths, sorted) that a string literal in texts
// names as a worker, relative to the page's directory base; literals that name no file are left
// alone (they are not this site's workers).
func workerRefs(b *offlineBuilder, base string, texts [][]byte) []string {
	var out []string
	for _, r := range literalFiles(b, base, texts, workerLiteral) {
		out = append(out, r.file)
	}
	sort.Strings(out)
	return out
}

// literalRef is a string literal that names a file of the site: as written, and as a path.
type literalRef struct{ lit, file string }

// literalFiles lists the literals that re's first group finds in texts and that name a regular
// file under the site (relative to the page's directory base), once each per file, in the order
// first named.
func literalFiles(b *offlineBuilder, base string, texts [][]byte, re *regexp.Regexp) []literalRef {
	seen := map[string]bool{}
	var out []literalRef
	for _, t := range texts {
		for _, m := range re.FindAllSubmatch(t, -1) {
			lit := string(m[1])
			file, local := localRef(base, lit)
			if !local || seen[file] {
				continue
			}
			p, err := b.abs(file)
			if err != nil {
				continue
			}
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
				continue
			}
			seen[file] = true
			out = append(out, literalRef{lit, file})
		}
	}
	return out
}

// sheetLiteral is a string literal naming a stylesheet ("web/tools/editor.css"), in any quotes:
// a sheet that a module adds to the page at a dialog's first use (web/ui/sheet.js).
var sheetLiteral = regexp.MustCompile("[\"'`]([A-Za-z0-9_./-]+\\.css)[\"'`]")

// sheetRefs lists the stylesheets that a string literal in texts names (each as written, relative
// to the page's directory base, of a file under the site), once each, in the order first named;
// literals that name no file are left alone.
func sheetRefs(b *offlineBuilder, base string, texts [][]byte) []string {
	var out []string
	for _, r := range literalFiles(b, base, texts, sheetLiteral) {
		out = append(out, r.lit)
	}
	return out
}

// bundleWorker bundles the module worker at file (a slash path under the site) with everything it
// imports but opt.External and opt.WorkerExternal into one module, written over file; it returns
// the bytes written. A path the worker builds from import.meta.url still resolves to the same
// file, since the bundle is where the worker was.
func bundleWorker(b *offlineBuilder, file string, opt BundleOptions) (int, error) {
	p, err := b.abs(file)
	if err != nil {
		return 0, err
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:      []string{p},
		Bundle:           true,
		Write:            false,
		Format:           api.FormatESModule,
		Platform:         api.PlatformBrowser,
		Outfile:          p,
		AllowOverwrite:   true,
		AbsWorkingDir:    b.dir,
		Loader:           assetLoaders,
		Charset:          api.CharsetUTF8,
		MinifyWhitespace: opt.Minify,
		MinifySyntax:     opt.Minify,
		LegalComments:    api.LegalCommentsEndOfFile,
		Plugins:          []api.Plugin{externalFiles(b, append(append([]string{}, opt.External...), opt.WorkerExternal...), filepath.Dir(p))},
		LogLevel:         api.LogLevelSilent,
	})
	if err := buildError("bundling the worker "+file, res.Errors); err != nil {
		return 0, err
	}
	if len(res.OutputFiles) != 1 {
		return 0, fmt.Errorf("bundle: the worker %s made %d files, not one", file, len(res.OutputFiles))
	}
	out := res.OutputFiles[0]
	if err := os.WriteFile(p, out.Contents, 0o644); err != nil {
		return 0, fmt.Errorf("bundle: %w", err)
	}
	return len(out.Contents), nil
}

// PageFiles lists the local files the page names (slash paths under the site, sorted, once each):
// the src of its scripts and images, the href of its links (stylesheets, preloads, module preloads,
// icons), relative to the page's directory.
func PageFiles(page []byte, index string) []string {
	base := pathDir(index)
	seen := map[string]bool{}
	var out []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			sort.Strings(out)
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		var ref string
		switch tok.DataAtom {
		case atom.Script, atom.Img, atom.Iframe, atom.Source:
			ref, _ = attr(tok, "src")
		case atom.Link:
			ref, _ = attr(tok, "href")
		default:
			continue
		}
		if file, local := localRef(base, ref); local && !seen[file] {
			seen[file] = true
			out = append(out, file)
		}
	}
}

// Prune removes every file under the folder under (a slash path under dir) that keep does not name
// (slash paths under dir), then the folders it left empty, and returns what it removed (slash
// paths, sorted). A file named in keep that is missing is an error, and then nothing is removed.
func Prune(dir, under string, keep []string) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	b := &offlineBuilder{dir: abs}
	root, err := b.abs(under)
	if err != nil {
		return nil, err
	}
	kept := map[string]bool{}
	for _, k := range keep {
		p, err := b.abs(k)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("prune: %s is to be kept but is not a file in %s", k, dir)
		}
		kept[p] = true
	}
	var drop, dirs []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		} else if !kept[p] {
			drop = append(drop, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("prune: %w", err)
	}
	var removed []string
	for _, p := range drop {
		if err := os.Remove(p); err != nil {
			return removed, fmt.Errorf("prune: %w", err)
		}
		rel, _ := filepath.Rel(abs, p)
		removed = append(removed, filepath.ToSlash(rel))
	}
	for i := len(dirs) - 1; i >= 0; i-- { // deepest first
		if entries, err := os.ReadDir(dirs[i]); err == nil && len(entries) == 0 {
			os.Remove(dirs[i])
		}
	}
	sort.Strings(removed)
	return removed, nil
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
