package site

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sheetFixture: the page links its stylesheet; its module names a dialog's sheet in a folder
// (web/tools/t.css, with an @import), the page's own sheet again, and a sheet that is not in the
// site, as web/ui/sheet.js is called.
func sheetFixture(t *testing.T) string {
	return writeTree(t, map[string]string{
		"index.html": `<!doctype html><html><head><meta charset="utf-8"><title>t</title>` +
			`<link rel="stylesheet" href="web/style.css"><script type="module" src="web/main.js"></script></head>` +
			`<body><p>x</p></body></html>`,
		"web/explainer.wasm": wasmBytes,
		"web/wasm_exec.js":   "globalThis.Go = class Go {};\n",
		"web/style.css":      "body { margin: 0; }\n",
		"web/tools/t.css":    "@import \"./u.css\";\n.tool { color: red; }\n.q::after { content: \"</style>\"; }\n",
		"web/tools/u.css":    ".under { color: blue; }\n",
		"web/main.js": "globalThis.sheets = ['web/tools/t.css', \"web/style.css\", `web/missing.css`];\n" +
			"globalThis.again = 'web/tools/t.css';\n",
	})
}

func TestBundlePageReportsTheSheetsItsModulesName(t *testing.T) {
	dir := sheetFixture(t)
	_, rep, err := BundlePage(BundleOptions{Dir: dir, Minify: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"web/style.css", "web/tools/t.css"}, rep.Sheets, "files of the site only, once each")
}

func TestBuildOfflineAddsTheNamedSheetsSwitchedOff(t *testing.T) {
	dir := sheetFixture(t)
	page, err := BuildOffline(OfflineOptions{Dir: dir})
	require.NoError(t, err)
	s := string(page)

	open := `<style media="not all" data-sheet="web/tools/t.css">`
	require.Equal(t, 1, strings.Count(s, open), "the dialog's sheet once, off")
	assert.Equal(t, 2, strings.Count(s, "<style"), "the page's sheet (once: it is linked) and the dialog's; none for a missing file")
	at := strings.Index(s, open)
	assert.Less(t, strings.Index(s, "body{margin:0}"), at, "after the page's own sheet (the cascade's order)")
	assert.Less(t, at, strings.Index(s, "</body>"), "in the body, at its end")
	body := s[at+len(open) : at+strings.Index(s[at:], "</style>")]
	assert.Contains(t, body, ".under{color:#00f}", "bundled as the page's sheet is (@import, minified)")
	assert.Contains(t, body, ".tool{color:red}")
	assert.Contains(t, body, `<\/style>`, "cannot close its element early")

	meta := regexp.MustCompile(`style-src ('sha256-[^']+' ?)+;`).FindString(s)
	assert.Equal(t, 2, strings.Count(meta, "sha256-"), "the policy allows both styles by hash: %s", meta)
}
