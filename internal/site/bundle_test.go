package site

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const bundleIndex = `<!doctype html>
<html><head><meta charset="utf-8"><title>t</title>
<script async src="web/first.js"></script>
<script type="module" src="web/main.js"></script>
</head><body></body></html>`

// bundleFixture: main.js imports a.js (which the lazy module imports too) and loads lazy.js with
// import(); a worker imports shared.js, which main.js also imports; first.js is a classic script
// of the page that main.js imports as well (as boot.js imports start.js).
func bundleFixture(t *testing.T) string {
	return writeTree(t, map[string]string{
		"index.html":     bundleIndex,
		"web/first.js":   "globalThis.log = (globalThis.log || []).concat('first');\n",
		"web/main.js":    "import './first.js';\nimport { a, bump } from './a.js';\nimport { s } from './shared.js';\nbump();\nexport const done = import('./lazy.js').then((m) => globalThis.log.push('main a=' + a + ' s=' + s, m.lazy()));\n",
		"web/a.js":       "export let a = 1;\nexport function bump() { a++; }\n",
		"web/lazy.js":    "import { a } from './a.js';\nimport { b } from './b.js';\nexport const lazy = () => 'lazy a=' + a + ' b=' + b;\n",
		"web/b.js":       "export const b = 'b';\n",
		"web/shared.js":  "export const s = 'shared';\n",
		"web/worker.js":  "import { s } from './shared.js';\npostMessage(s);\n",
		"web/style.css":  "body { margin: 0; }\n",
		"web/unused.txt": "x",
	})
}

func TestBundlePageBundlesInPlaceAndKeepsWhatOthersLoad(t *testing.T) {
	dir := bundleFixture(t)
	rep, err := BundlePage(dir, "index.html")
	require.NoError(t, err)
	assert.Equal(t, []string{"web/main.js"}, rep.Entries)
	assert.Equal(t, []string{"web/a.js", "web/b.js", "web/lazy.js"}, rep.Removed, "bundled, and nothing else loads them")
	assert.Equal(t, []string{"web/first.js", "web/shared.js"}, rep.Kept, "a classic script of the page and a worker's import stay")
	require.NotEmpty(t, rep.Chunks)
	for _, c := range rep.Chunks {
		assert.True(t, strings.HasPrefix(c, "web/chunk-"), c)
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(c)))
	}
	for _, f := range rep.Removed {
		assert.NoFileExists(t, filepath.Join(dir, filepath.FromSlash(f)))
	}
	for _, f := range []string{"web/first.js", "web/shared.js", "web/worker.js", "web/style.css", "web/unused.txt"} {
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(f)))
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, bundleIndex, string(page), "the page names the same files")
	main, err := os.ReadFile(filepath.Join(dir, "web/main.js"))
	require.NoError(t, err)
	assert.NotContains(t, string(main), "./a.js", "a.js is inside the bundle or a chunk")
	assert.Contains(t, string(main), "import(", "lazy.js still loads on first use")

	// The bundle runs as the modules did: each module once, live bindings kept.
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	run := filepath.Join(dir, "run.mjs")
	require.NoError(t, os.WriteFile(run, []byte("const m = await import('./web/main.js');\nawait m.done;\nconsole.log(JSON.stringify(globalThis.log));\n"), 0o644))
	out, err := exec.Command(node, run).CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, `["first","main a=2 s=shared","lazy a=2 b=b"]`, strings.TrimSpace(string(out)))
}

func TestBundlePageThenPreloadsListTheSharedChunks(t *testing.T) {
	dir := bundleFixture(t)
	rep, err := BundlePage(dir, "index.html")
	require.NoError(t, err)
	out, err := AddModulePreloads(dir, []byte(bundleIndex), "index.html")
	require.NoError(t, err)
	s := string(out)
	main, err := os.ReadFile(filepath.Join(dir, "web/main.js"))
	require.NoError(t, err)
	for _, c := range rep.Chunks {
		static := strings.Contains(string(main), `from "./`+strings.TrimPrefix(c, "web/")+`"`)
		assert.Equal(t, static, strings.Contains(s, `<link rel="modulepreload" href="`+c+`">`), "a chunk the bundle imports statically is preloaded, a lazy one is not: %s", c)
	}
}

func TestBundlePageWithoutModulesLeavesTheSite(t *testing.T) {
	dir := writeTree(t, map[string]string{"index.html": `<script src="a.js"></script>`, "a.js": "x = 1;\n"})
	rep, err := BundlePage(dir, "index.html")
	require.NoError(t, err)
	assert.Empty(t, rep.Entries)
	assert.FileExists(t, filepath.Join(dir, "a.js"))
}

func TestBundlePageReportsAMissingImport(t *testing.T) {
	dir := writeTree(t, map[string]string{"index.html": `<script type="module" src="main.js"></script>`, "main.js": "import './gone.js';\n"})
	_, err := BundlePage(dir, "index.html")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "gone.js")
	assert.FileExists(t, filepath.Join(dir, "main.js"), "nothing is written when the build fails")
}
