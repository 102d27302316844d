package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// OfflineOptions says where the built site's parts are, relative to Dir.
type OfflineOptions struct {
	Dir      string // the built site: index.html, web/… (dist/)
	Index    string // default "index.html"
	Wasm     string // default "web/explainer.wasm"
	WasmExec string // default "web/wasm_exec.js"
}

// WasmGlobal is the global the offline page's explainer.js reads the
// module from when fetching it is impossible (file://): the wasm, gzipped,
// base64-encoded (decode with atob, then DecompressionStream("gzip")).
const WasmGlobal = "__backfillWasmBase64"

// BuildOffline assembles one HTML file that works from file://. From the
// built index.html it:
//   - inlines every local stylesheet as <style>, bundled by esbuild so
//     @import and url() of local files (as data: URLs) come along;
//   - bundles every module script (src= or inline), in document order, into
//     one <script type="module">, by esbuild, so imports between modules,
//     name clashes and live bindings keep their meaning;
//   - inlines every local classic script;
//   - adds, at the end of <body>, each stylesheet the bundled modules name in a string literal
//     (a dialog's sheet, web/ui/sheet.js) and the page does not link, bundled as those are, as
//     <style media="not all" data-sheet="PATH">: off until the dialog's first use switches it on
//     (nothing can be fetched from file://, and the policy allows only the file's own styles);
//   - turns other local <link href> (icons) into data: URLs and drops
//     modulepreload / preload links, which would only fail from file://;
//   - puts, in <head> after <meta charset> and before any script, link or
//     style, the wasm as globalThis.__backfillWasmBase64 and wasm_exec.js
//     (so globalThis.Go exists before any script runs), adding
//     <meta charset="utf-8"> when the page has none;
//   - puts before them a Content-Security-Policy meta tag that allows exactly
//     the file's inline scripts and styles, by their SHA-256 (see OfflineCSP).
//
// External URLs (http:, https:, //, data:) are left as they are.
func BuildOffline(opt OfflineOptions) ([]byte, error) {
	if opt.Index == "" {
		opt.Index = "index.html"
	}
	if opt.Wasm == "" {
		opt.Wasm = "web/explainer.wasm"
	}
	if opt.WasmExec == "" {
		opt.WasmExec = "web/wasm_exec.js"
	}
	dir, err := filepath.Abs(opt.Dir)
	if err != nil {
		return nil, err
	}
	b := &offlineBuilder{dir: dir}
	indexHTML, err := b.read(opt.Index)
	if err != nil {
		return nil, err
	}
	wasm, err := b.read(opt.Wasm)
	if err != nil {
		return nil, err
	}
	wasmExec, err := b.read(opt.WasmExec)
	if err != nil {
		return nil, err
	}
	head, err := offlineHead(wasm, wasmExec)
	if err != nil {
		return nil, err
	}
	if head, err = withStoredViews(b, head); err != nil {
		return nil, err
	}
	return b.rewrite(indexHTML, head, path.Dir(opt.Index), strings.TrimPrefix(path.Clean("/"+opt.WasmExec), "/"))
}

type offlineBuilder struct {
	dir string // absolute
}

// read reads a slash path relative to the site directory; it must stay
// inside it.
func (b *offlineBuilder) read(rel string) ([]byte, error) {
	p, err := b.abs(rel)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("offline: %w", err)
	}
	return data, nil
}

// abs maps a slash path of the site to the file system. Cleaning it as an
// absolute path first means no ".." can climb out of the site directory.
func (b *offlineBuilder) abs(rel string) (string, error) {
	clean := path.Clean("/" + rel)
	if clean == "/" {
		return "", fmt.Errorf("offline: %q names no file", rel)
	}
	return filepath.Join(b.dir, filepath.FromSlash(clean)), nil
}

func offlineHead(wasm, wasmExec []byte) (string, error) {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(wasm); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.WriteString("\n<script>globalThis." + WasmGlobal + "=\"")
	sb.WriteString(base64.StdEncoding.EncodeToString(gz.Bytes()))
	sb.WriteString("\";</script>\n<script>\n")
	js, err := minifyClassic("wasm_exec.js", wasmExec)
	if err != nil {
		return "", err
	}
	sb.WriteString(leadingComment(wasmExec)) // Go's copyright and licence notice, kept as written
	sb.WriteString(escapeScript(js))
	sb.WriteString("\n</script>\n")
	return sb.String(), nil
}

// leadingComment is the block of // lines a script starts with (wasm_exec.js: its copyright and
// licence notice), which minifying drops.
func leadingComment(js []byte) string {
	var sb strings.Builder
	for _, line := range strings.SplitAfter(string(js), "\n") {
		if !strings.HasPrefix(line, "//") {
			break
		}
		sb.WriteString(line)
	}
	return sb.String()
}

// localRef turns a src/href into a slash path under the site directory,
// relative to the page's directory base; ok is false for external URLs.
func localRef(base, ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.HasPrefix(ref, "#") {
		return "", false
	}
	u, err := url.Parse(ref)
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(ref, "//") {
		return "", false
	}
	p := u.Path
	if strings.HasPrefix(p, "/") {
		return strings.TrimPrefix(path.Clean(p), "/"), true
	}
	return strings.TrimPrefix(path.Clean(path.Join("/", base, p)), "/"), true
}

func declaresCharset(t html.Token) bool {
	if _, ok := attr(t, "charset"); ok {
		return true
	}
	equiv, _ := attr(t, "http-equiv")
	return strings.EqualFold(equiv, "content-type")
}

func attr(t html.Token, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

func hasWord(list, word string) bool {
	for _, w := range strings.Fields(strings.ToLower(list)) {
		if w == word {
			return true
		}
	}
	return false
}

// moduleEntry is one module script of the page: a file, or inline text.
type moduleEntry struct {
	file   string // slash path under the site, or ""
	inline string
}

func (b *offlineBuilder) rewrite(page []byte, head, base, wasmExec string) ([]byte, error) {
	const placeholder = "\x00BACKFILL_MODULES\x00"
	head = cspPlaceholder + head
	var out bytes.Buffer
	var modules []moduleEntry
	linked := map[string]bool{} // the page's own stylesheets, inlined where they are
	headDone, sawCharset := false, false
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				break
			}
			return nil, fmt.Errorf("offline: parsing index.html: %w", z.Err())
		}
		raw := append([]byte(nil), z.Raw()...)
		tok := z.Token()
		if !headDone {
			isTag := tt == html.StartTagToken || tt == html.SelfClosingTagToken
			if isTag && tok.DataAtom == atom.Meta && declaresCharset(tok) {
				sawCharset = true
			}
			// The wasm and Go go in before the first thing that could use
			// them, but after <meta charset>: a browser looks for the
			// charset in the first 1024 bytes only.
			prelude := tok.DataAtom == atom.Html || tok.DataAtom == atom.Head ||
				tok.DataAtom == atom.Meta || tok.DataAtom == atom.Title || tok.DataAtom == atom.Base
			if (isTag && !prelude) || (tt == html.EndTagToken && tok.DataAtom != atom.Title) {
				if !sawCharset {
					out.WriteString("<meta charset=\"utf-8\">")
				}
				out.WriteString(head)
				headDone = true
			}
		}
		switch {
		case tt == html.StartTagToken && tok.DataAtom == atom.Script:
			typ, _ := attr(tok, "type")
			src, hasSrc := attr(tok, "src")
			text, err := scriptText(z)
			if err != nil {
				return nil, err
			}
			isModule := strings.EqualFold(strings.TrimSpace(typ), "module")
			file, local := localRef(base, src)
			switch {
			case isModule && hasSrc && local:
				modules = append(modules, moduleEntry{file: file})
			case isModule && !hasSrc:
				modules = append(modules, moduleEntry{inline: text})
			case hasSrc && local && file == wasmExec:
				continue // already inlined, first in <head>
			case hasSrc && local:
				data, err := b.read(file)
				if err != nil {
					return nil, err
				}
				js, err := minifyClassic(file, data)
				if err != nil {
					return nil, err
				}
				out.WriteString(openTagWithout(tok, "src", "defer", "async"))
				out.WriteString(escapeScript(js))
				out.WriteString("</script>")
				continue
			default: // an external or inline classic script (or data block): as it was
				out.Write(raw)
				out.WriteString(text)
				out.WriteString("</script>")
				continue
			}
			if len(modules) == 1 {
				out.WriteString(placeholder)
			}
		case (tt == html.StartTagToken || tt == html.SelfClosingTagToken) && tok.DataAtom == atom.Link:
			rel, _ := attr(tok, "rel")
			href, _ := attr(tok, "href")
			file, local := localRef(base, href)
			switch {
			case !local:
				out.Write(raw)
			case hasWord(rel, "stylesheet"):
				linked[file] = true
				css, err := b.bundleCSS(file)
				if err != nil {
					return nil, err
				}
				out.WriteString("<style>\n")
				out.WriteString(escapeStyle(css))
				out.WriteString("</style>")
			case hasWord(rel, "modulepreload"), hasWord(rel, "preload"), hasWord(rel, "prefetch"):
				// bundled or inlined: nothing to fetch
			default:
				data, err := b.read(file)
				if err != nil {
					return nil, err
				}
				uri := "data:" + strings.ReplaceAll(ContentType(file), " ", "") + ";base64," + base64.StdEncoding.EncodeToString(data)
				out.WriteString(openTagWith(tok, "href", uri))
			}
		default:
			out.Write(raw)
		}
	}
	if !headDone {
		if !sawCharset {
			out.WriteString("<meta charset=\"utf-8\">")
		}
		out.WriteString(head)
	}
	result := out.Bytes()
	if len(modules) > 0 {
		js, err := b.bundleModules(modules)
		if err != nil {
			return nil, err
		}
		script := "<script type=\"module\">\n" + escapeScript(js) + "</script>"
		result = bytes.Replace(result, []byte(placeholder), []byte(script), 1)
		if result, err = b.withSheets(result, base, js, linked); err != nil {
			return nil, err
		}
	}
	policy, err := OfflineCSP(result)
	if err != nil {
		return nil, err
	}
	attrEscape := strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")
	meta := `<meta http-equiv="Content-Security-Policy" content="` + attrEscape.Replace(policy) + `">`
	return bytes.Replace(result, []byte(cspPlaceholder), []byte(meta), 1), nil
}

// withSheets returns page with each stylesheet that js names (sheetRefs) and the page does not
// link (linked) at the end of its <body> (or of the page), bundled, switched off: <style
// media="not all" data-sheet="PATH">, PATH as js names it (web/ui/sheet.js looks it up so).
func (b *offlineBuilder) withSheets(page []byte, base, js string, linked map[string]bool) ([]byte, error) {
	var sb strings.Builder
	done := map[string]bool{}
	for _, lit := range sheetRefs(b, base, [][]byte{[]byte(js)}) {
		file, _ := localRef(base, lit)
		if linked[file] || done[file] {
			continue
		}
		done[file] = true
		css, err := b.bundleCSS(file)
		if err != nil {
			return nil, err
		}
		sb.WriteString("<style media=\"not all\" data-sheet=\"" + html.EscapeString(lit) + "\">\n")
		sb.WriteString(escapeStyle(css))
		sb.WriteString("</style>\n")
	}
	if sb.Len() == 0 {
		return page, nil
	}
	at := bytes.LastIndex(bytes.ToLower(page), []byte("</body"))
	if at < 0 {
		at = len(page)
	}
	out := append([]byte(nil), page[:at]...)
	out = append(out, sb.String()...)
	return append(out, page[at:]...), nil
}

// cspPlaceholder marks where the policy goes, before the first script.
const cspPlaceholder = "\x00BACKFILL_CSP\x00"

// OfflineCSP returns the policy of the offline file: nothing from anywhere ('none': it works
// from file://, where nothing else can be reached), its inline scripts and styles by their
// SHA-256, the wasm compiled by WebAssembly.instantiate ('wasm-unsafe-eval'), and images and
// fonts as data: URLs (the bundled CSS inlines its files so). A browser hashes an element's
// text after turning \r\n and \r into \n, so the hashes are of that.
func OfflineCSP(page []byte) (string, error) {
	var scripts, styles []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				break
			}
			return "", fmt.Errorf("offline: hashing the inline scripts: %w", z.Err())
		}
		if tt != html.StartTagToken {
			continue
		}
		tok := z.Token()
		if tok.DataAtom != atom.Script && tok.DataAtom != atom.Style {
			continue
		}
		if _, hasSrc := attr(tok, "src"); hasSrc {
			continue
		}
		var text strings.Builder
		for z.Next() == html.TextToken {
			text.Write(z.Raw())
		}
		t := strings.ReplaceAll(text.String(), "\r\n", "\n")
		t = strings.ReplaceAll(t, "\r", "\n")
		sum := sha256.Sum256([]byte(t))
		src := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if tok.DataAtom == atom.Script {
			if !slices.Contains(scripts, src) {
				scripts = append(scripts, src)
			}
		} else if !slices.Contains(styles, src) {
			styles = append(styles, src)
		}
	}
	style := "'none'"
	if len(styles) > 0 {
		style = strings.Join(styles, " ")
	}
	return "default-src 'none'; script-src " + strings.Join(append(scripts, "'wasm-unsafe-eval'"), " ") +
		"; style-src " + style + "; img-src data:; font-src data:; base-uri 'none'; form-action 'none'", nil
}

// scriptText reads a script element's text up to and including its end
// tag (the tokenizer treats script content as raw text).
func scriptText(z *html.Tokenizer) (string, error) {
	var sb strings.Builder
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return "", fmt.Errorf("offline: unterminated <script>")
			}
			return "", z.Err()
		case html.TextToken:
			sb.Write(z.Raw())
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "script" {
				return sb.String(), nil
			}
			sb.Write(z.Raw())
		default:
			sb.Write(z.Raw())
		}
	}
}

func openTagWithout(t html.Token, drop ...string) string {
	keep := t.Attr[:0:0]
	for _, a := range t.Attr {
		dropped := false
		for _, d := range drop {
			if a.Key == d {
				dropped = true
			}
		}
		if !dropped {
			keep = append(keep, a)
		}
	}
	t.Attr = keep
	t.Type = html.StartTagToken
	return t.String()
}

func openTagWith(t html.Token, key, val string) string {
	attrs := append([]html.Attribute(nil), t.Attr...)
	for i := range attrs {
		if attrs[i].Key == key {
			attrs[i].Val = val
		}
	}
	t.Attr = attrs
	t.Type = html.StartTagToken
	return t.String()
}

// escapeScript keeps inlined JavaScript from ending its <script> element
// early or opening an HTML comment state; both replacements mean the same
// inside JavaScript strings, template literals, regular expressions and
// comments, the only places they can occur.
func escapeScript(js string) string {
	r := strings.NewReplacer("</script", `<\/script`, "</SCRIPT", `<\/SCRIPT`, "<!--", `<\!--`)
	return r.Replace(js)
}

// escapeStyle does the same for inlined CSS.
func escapeStyle(css string) string {
	r := strings.NewReplacer("</style", `<\/style`, "</STYLE", `<\/STYLE`)
	return r.Replace(css)
}

var assetLoaders = map[string]api.Loader{
	".svg": api.LoaderDataURL, ".png": api.LoaderDataURL, ".jpg": api.LoaderDataURL,
	".gif": api.LoaderDataURL, ".webp": api.LoaderDataURL, ".woff": api.LoaderDataURL,
	".woff2": api.LoaderDataURL, ".ttf": api.LoaderDataURL, ".ico": api.LoaderDataURL,
}

func (b *offlineBuilder) bundleCSS(file string) (string, error) {
	p, err := b.abs(file)
	if err != nil {
		return "", err
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:   []string{p},
		Bundle:        true,
		Write:         false,
		Outdir:        filepath.Join(b.dir, ".offline-out"),
		AbsWorkingDir: b.dir,
		Loader:        assetLoaders,
		LogLevel:      api.LogLevelSilent,
		Charset:       api.CharsetUTF8,
		// minified as the served page's bundle is (whitespace and syntax)
		MinifyWhitespace: true,
		MinifySyntax:     true,
	})
	if err := buildError("bundling "+file, res.Errors); err != nil {
		return "", err
	}
	return outputOfKind(res, ".css")
}

// minifyClassic minifies a local classic script as the modules are (whitespace and syntax, names
// kept: a classic script's top-level names are globals); wasm_exec.js, Go's, too, under its notice.
func minifyClassic(file string, data []byte) (string, error) {
	res := api.Transform(string(data), api.TransformOptions{
		Sourcefile: file, Loader: api.LoaderJS, Charset: api.CharsetUTF8, LogLevel: api.LogLevelSilent,
		MinifyWhitespace: true, MinifySyntax: true,
	})
	if err := buildError("minifying "+file, res.Errors); err != nil {
		return "", err
	}
	return string(res.Code), nil
}

const inlineNamespace = "backfill-inline"

func (b *offlineBuilder) bundleModules(modules []moduleEntry) (string, error) {
	var entry strings.Builder
	for i, m := range modules {
		if m.file != "" {
			fmt.Fprintf(&entry, "import %q;\n", "/"+m.file)
		} else {
			fmt.Fprintf(&entry, "import %q;\n", fmt.Sprintf("%s:%d", inlineNamespace, i))
		}
	}
	inline := api.Plugin{
		Name: "backfill-offline",
		Setup: func(pb api.PluginBuild) {
			// Inline <script type="module"> bodies are modules of their own.
			pb.OnResolve(api.OnResolveOptions{Filter: "^" + inlineNamespace + ":"},
				func(a api.OnResolveArgs) (api.OnResolveResult, error) {
					return api.OnResolveResult{Path: a.Path, Namespace: inlineNamespace}, nil
				})
			pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: inlineNamespace},
				func(a api.OnLoadArgs) (api.OnLoadResult, error) {
					var i int
					if _, err := fmt.Sscanf(strings.TrimPrefix(a.Path, inlineNamespace+":"), "%d", &i); err != nil || i < 0 || i >= len(modules) {
						return api.OnLoadResult{}, fmt.Errorf("no inline module %q", a.Path)
					}
					text := modules[i].inline
					return api.OnLoadResult{Contents: &text, ResolveDir: b.dir, Loader: api.LoaderJS}, nil
				})
			// Absolute specifiers ("/web/x.js") name files in the site,
			// as they would over HTTP, not on the file system.
			pb.OnResolve(api.OnResolveOptions{Filter: "^/"},
				func(a api.OnResolveArgs) (api.OnResolveResult, error) {
					p, err := b.abs(a.Path)
					return api.OnResolveResult{Path: p}, err
				})
		},
	}
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   entry.String(),
			ResolveDir: b.dir,
			Sourcefile: "offline-entry.js",
			Loader:     api.LoaderJS,
		},
		Bundle:        true,
		Write:         false,
		Format:        api.FormatESModule,
		Platform:      api.PlatformBrowser,
		Outdir:        filepath.Join(b.dir, ".offline-out"),
		AbsWorkingDir: b.dir,
		Loader:        assetLoaders,
		Plugins:       []api.Plugin{inline},
		LogLevel:      api.LogLevelSilent,
		Charset:       api.CharsetUTF8,
		// minified as the served page's bundle is: whitespace and syntax, names kept (stack traces)
		MinifyWhitespace: true,
		MinifySyntax:     true,
	})
	if err := buildError("bundling the page's modules", res.Errors); err != nil {
		return "", err
	}
	return outputOfKind(res, ".js")
}

func buildError(what string, errs []api.Message) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := api.FormatMessages(errs, api.FormatMessagesOptions{Kind: api.ErrorMessage})
	return fmt.Errorf("offline: %s:\n%s", what, strings.Join(msgs, ""))
}

func outputOfKind(res api.BuildResult, ext string) (string, error) {
	var found []string
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ext) {
			found = append(found, string(f.Contents))
		}
	}
	if len(found) != 1 {
		return "", fmt.Errorf("offline: expected one %s output, got %d of %d files", ext, len(found), len(res.OutputFiles))
	}
	return found[0], nil
}

// withStoredViews adds to the head, when the site has stored views (web/views/, internal/firstview),
// the index and the plain visit's run as globalThis.__backfillViewsBase64 (gzip+base64 of
// {path: JSON}): the first view of a plain visit needs no wasm (web/boot/start.js).
func withStoredViews(b *offlineBuilder, head string) (string, error) {
	var out bytes.Buffer
	out.WriteByte('{')
	for i, f := range []string{"index.json", "lists.json", "happy-path.json"} {
		data, err := b.read("web/views/" + f)
		if err != nil {
			if i == 0 {
				return head, nil // a site without stored views
			}
			return "", err
		}
		if i > 0 {
			out.WriteByte(',')
		}
		fmt.Fprintf(&out, "%q:", f)
		out.Write(data)
	}
	out.WriteByte('}')
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(out.Bytes())
	w.Close()
	return head + "<script>globalThis.__backfillViewsBase64=\"" + base64.StdEncoding.EncodeToString(gz.Bytes()) + "\";</script>", nil
}
