package site

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

const offlineIndex = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>t</title>
<link rel="icon" href="web/icon.svg">
<link rel="stylesheet" href="web/app.css">
<link rel="stylesheet" href="https://cdn.example/x.css">
<link rel="modulepreload" href="web/a.js">
<script src="web/wasm_exec.js"></script>
<script src="web/classic.js" defer></script>
<script type="module" src="./web/boot/main.js"></script>
<script type="module">import { n } from "./web/a.js"; globalThis.log.push("inline sees n=" + n);</script>
<script type="application/json" id="data">{"x": "<b>"}</script>
</head>
<body><p>hi &amp; bye</p></body>
</html>
`

// offlineFixture is a small site whose modules exercise what a naive
// concatenation gets wrong: two modules with the same top-level name, an
// aliased import, a namespace import, a default export, a live binding,
// a module imported twice, "</script>" in a string, and an inline module; like the page's, its
// entry and a module it imports are in folders of web/ (web/boot/, web/ui/).
func offlineFixture(t *testing.T) string {
	return writeTree(t, map[string]string{
		"index.html":         offlineIndex,
		"web/explainer.wasm": wasmBytes,
		"web/wasm_exec.js":   "// Copyright 2018 The Go Authors.\n// (licence)\n\n// a comment minifying drops\nglobalThis.Go = class Go { constructor() { this.argv = ['js']; } };\n",
		"web/classic.js":     "// a comment the offline file does not carry\nglobalThis.log = ['classic ran first, Go is ' + typeof Go];\n",
		"web/a.js": `export let n = 0;
export function bump() { n++; }
export function helper() { return "a-helper"; }
`,
		"web/b.js": `import { helper as fromA } from "./a.js";
function helper() { return "b-helper+" + fromA(); }
export { helper };
`,
		"web/ui/c.js": `export default function greet(x) { return "hi " + x; }
`,
		"web/boot/main.js": `import { helper, bump, n } from "../a.js";
import * as b from "../b.js";
import greet from "../ui/c.js";
bump(); bump();
globalThis.log.push(helper(), b.helper(), greet("x"), "n=" + n, "s=</script><!--", "wasm global " + typeof globalThis.__backfillWasmBase64);
`,
		"web/app.css": `@import "./base.css";
.x { background: url(dot.svg); }
.y::after { content: "</style>"; }
`,
		"web/base.css": "body { margin: 0; }\n",
		"web/dot.svg":  "<svg xmlns='http://www.w3.org/2000/svg'/>",
		"web/icon.svg": "<svg xmlns='http://www.w3.org/2000/svg'><circle r='1'/></svg>",
	})
}

type scriptEl struct {
	attrs map[string]string
	text  string
}

func scriptsOf(t *testing.T, page []byte) []scriptEl {
	t.Helper()
	var out []scriptEl
	z := html.NewTokenizer(bytes.NewReader(page))
	var cur *scriptEl
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			require.ErrorIs(t, z.Err(), io.EOF)
			return out
		}
		tok := z.Token()
		switch {
		case tt == html.StartTagToken && tok.Data == "script":
			cur = &scriptEl{attrs: map[string]string{}}
			for _, a := range tok.Attr {
				cur.attrs[a.Key] = a.Val
			}
		case tt == html.TextToken && cur != nil:
			cur.text += tok.Data
		case tt == html.EndTagToken && tok.Data == "script":
			out = append(out, *cur)
			cur = nil
		}
	}
}

func TestBuildOfflineInlinesEverything(t *testing.T) {
	dir := offlineFixture(t)
	page, err := BuildOffline(OfflineOptions{Dir: dir})
	require.NoError(t, err)
	s := string(page)

	// Nothing local is left to fetch.
	for _, ref := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(s, -1) {
		assert.Regexp(t, `^(https:|data:)`, ref[1], "a local reference survived")
	}
	assert.Contains(t, s, `<link rel="stylesheet" href="https://cdn.example/x.css">`, "external links stay")
	assert.Contains(t, s, `href="data:image/svg+xml;base64,`)
	assert.NotContains(t, s, "modulepreload")
	assert.Contains(t, s, `<script type="application/json" id="data">{"x": "<b>"}</script>`, "data blocks stay verbatim")
	assert.Contains(t, s, "<p>hi &amp; bye</p>", "the rest of the page is copied as written")

	// CSS: @import resolved, url() as data:, </style> cannot close early.
	assert.Contains(t, s, "body{margin:0}", "minified, as the served bundle")
	assert.Contains(t, s, "url(\"data:image/svg+xml")
	assert.Contains(t, s, `<\/style>`)
	assert.Equal(t, 1, strings.Count(s, "</style>")-0, "one <style> for the one local stylesheet")

	scripts := scriptsOf(t, page)
	require.Len(t, scripts, 5, "wasm global, wasm_exec, classic, one module bundle, data block")
	assert.True(t, strings.HasPrefix(scripts[0].text, "globalThis.__backfillWasmBase64=\""))
	assert.Contains(t, scripts[1].text, "globalThis.Go=class")
	assert.True(t, strings.HasPrefix(strings.TrimSpace(scripts[1].text), "// Copyright 2018 The Go Authors.\n// (licence)\n"), "Go's notice kept as written")
	assert.NotContains(t, scripts[1].text, "minifying drops", "wasm_exec.js minified, as a local classic script")
	assert.Equal(t, 1, strings.Count(s, "globalThis.Go=class"), "the page's own <script src=wasm_exec.js> is not inlined twice")
	assert.Contains(t, scripts[2].text, "globalThis.log=")
	assert.NotContains(t, scripts[2].text, "a comment", "a local classic script is minified, as the modules are")
	assert.NotContains(t, scripts[2].attrs, "defer", "defer means nothing inline")
	assert.Equal(t, "module", scripts[3].attrs["type"])
	assert.NotContains(t, scripts[3].text, "import ")
	assert.NotContains(t, scripts[3].text, "</script")

	// The wasm round-trips through gzip + base64.
	b64 := strings.TrimSuffix(strings.TrimPrefix(scripts[0].text, "globalThis.__backfillWasmBase64=\""), "\";")
	gz, err := base64.StdEncoding.DecodeString(b64)
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	require.NoError(t, err)
	wasm, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, wasmBytes, string(wasm))
	assert.Less(t, len(gz), len(wasmBytes)/4, "compressed")
}

// TestBuildOfflineRunsInOrder executes the inlined scripts the way a
// browser does (classic scripts in order, then the module) under Node and
// checks what the modules computed.
func TestBuildOfflineRunsInOrder(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	page, err := BuildOffline(OfflineOptions{Dir: offlineFixture(t)})
	require.NoError(t, err)
	var classic, modules strings.Builder
	for _, sc := range scriptsOf(t, page) {
		switch sc.attrs["type"] {
		case "":
			js, _ := json.Marshal(sc.text)
			classic.WriteString("(0, eval)(" + string(js) + ");\n")
		case "module":
			modules.WriteString(sc.text + "\n")
		}
	}
	prog := classic.String() + modules.String() + "console.log(JSON.stringify(globalThis.log));\n"
	file := filepath.Join(t.TempDir(), "run.mjs")
	require.NoError(t, os.WriteFile(file, []byte(prog), 0o644))
	out, err := exec.Command(node, file).CombinedOutput()
	require.NoError(t, err, string(out))
	var log []string
	require.NoError(t, json.Unmarshal(out, &log), string(out))
	assert.Equal(t, []string{
		"classic ran first, Go is function",
		"a-helper", "b-helper+a-helper", "hi x", "n=2", "s=</script><!--", "wasm global string",
		"inline sees n=2",
	}, log)
}

func TestBuildOfflineWithoutHead(t *testing.T) {
	dir := offlineFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"),
		[]byte(`<!doctype html><title>x</title><script type="module" src="web/ui/c.js"></script>`), 0o644))
	page, err := BuildOffline(OfflineOptions{Dir: dir})
	require.NoError(t, err)
	scripts := scriptsOf(t, page)
	require.Len(t, scripts, 3)
	assert.Contains(t, scripts[0].text, "__backfillWasmBase64")
	assert.Less(t, strings.Index(string(page), "__backfillWasmBase64"), strings.Index(string(page), "<script type=\"module\""))
	assert.Less(t, strings.Index(string(page), `<meta charset="utf-8">`), 1024, "a charset is declared where browsers look")
}

func TestBuildOfflineKeepsCharsetFirst(t *testing.T) {
	page, err := BuildOffline(OfflineOptions{Dir: offlineFixture(t)})
	require.NoError(t, err)
	s := string(page)
	assert.Less(t, strings.Index(s, `<meta charset="utf-8">`), 1024)
	assert.Equal(t, 1, strings.Count(s, "<meta charset"), "the page's own, not a second one")
	assert.Less(t, strings.Index(s, "<title>t</title>"), strings.Index(s, "__backfillWasmBase64"))
	assert.Less(t, strings.Index(s, "__backfillWasmBase64"), strings.Index(s, "<link"))
}

func TestBuildOfflineErrors(t *testing.T) {
	tests := []struct {
		name  string
		edit  map[string]string // files to overwrite ("" removes)
		error string
	}{
		{"missing wasm", map[string]string{"web/explainer.wasm": ""}, "explainer.wasm"},
		{"missing wasm_exec", map[string]string{"web/wasm_exec.js": ""}, "wasm_exec.js"},
		{"missing module", map[string]string{"web/ui/c.js": ""}, `Could not resolve "../ui/c.js"`},
		{"syntax error in a module", map[string]string{"web/b.js": "export function (\n"}, "web/b.js"},
		{"missing classic script", map[string]string{"web/classic.js": ""}, "classic.js"},
		{"syntax error in a classic script", map[string]string{"web/classic.js": "let x = ;\n"}, "web/classic.js:1:"},
		{"missing stylesheet", map[string]string{"web/app.css": ""}, "app.css"},
		{"missing index", map[string]string{"index.html": ""}, "index.html"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := offlineFixture(t)
			for name, content := range tc.edit {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if content == "" {
					require.NoError(t, os.Remove(p))
				} else {
					require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
				}
			}
			_, err := BuildOffline(OfflineOptions{Dir: dir})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.error)
		})
	}
}

func TestLocalRef(t *testing.T) {
	for _, tc := range []struct {
		base, ref, want string
		ok              bool
	}{
		{".", "web/x.js", "web/x.js", true},
		{".", "./web/x.js?v=1#h", "web/x.js", true},
		{".", "/web/x.js", "web/x.js", true},
		{"docs", "../web/x.js", "web/x.js", true},
		{".", "../../etc/passwd", "etc/passwd", true},
		{".", "https://x.test/a.js", "", false},
		{".", "//x.test/a.js", "", false},
		{".", "data:text/css,a{}", "", false},
		{".", "#top", "", false},
		{".", "", "", false},
	} {
		got, ok := localRef(tc.base, tc.ref)
		assert.Equal(t, tc.ok, ok, tc.ref)
		assert.Equal(t, tc.want, got, tc.ref)
	}
}

func TestEscapeScript(t *testing.T) {
	assert.Equal(t, `a = "<\/script>"; b = "<\!--"; c = "<\/SCRIPT"`, escapeScript(`a = "</script>"; b = "<!--"; c = "</SCRIPT"`))
	assert.Equal(t, `content: "<\/style>"`, escapeStyle(`content: "</style>"`))
}
