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
<script type="module" src="https://cdn.example/x.js"></script>
</head><body><script type="module">import "./web/a.js";</script></body></html>`

// bundleFixture: main.js imports a.js (which the lazy module imports too, so it is shared) and
// loads lazy.js with import(); first.js is a classic script of the page that main.js imports as
// well (as boot.js imports start.js).
func bundleFixture(t *testing.T) string {
	return writeTree(t, map[string]string{
		"index.html":    bundleIndex,
		"web/first.js":  "globalThis.log = (globalThis.log || []).concat('first');\n",
		"web/main.js":   "import './first.js';\nimport { a, bump } from './a.js';\nbump();\n// a comment\nexport const done = import('./lazy.js').then((m) => globalThis.log.push('main a=' + a, m.lazy()));\n",
		"web/a.js":      "export let a = 1;\nexport function bump() { a++; }\n",
		"web/lazy.js":   "import { a } from './a.js';\nimport { b } from './b.js';\nexport const lazy = () => 'lazy a=' + a + ' b=' + b;\n",
		"web/b.js":      "export const b = 'b';\n",
		"web/style.css": "body { margin: 0; }\n",
	})
}

// runModule imports the module at rel (under dir) with node, awaits its done, and returns the log.
func runModule(t *testing.T, dir, rel string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	run := filepath.Join(dir, "run-"+strings.ReplaceAll(rel, "/", "-")+".mjs")
	require.NoError(t, os.WriteFile(run, []byte("const m = await import('./"+rel+"');\nawait m.done;\nconsole.log(JSON.stringify(globalThis.log));\n"), 0o644))
	out, err := exec.Command(node, run).CombinedOutput()
	require.NoError(t, err, string(out))
	return strings.TrimSpace(string(out))
}

func TestBundlePageBundlesBesideTheModulesAndPointsThePageAtIt(t *testing.T) {
	dir := bundleFixture(t)
	page, rep, err := BundlePage(BundleOptions{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"web/main.js": "web/bundle/main.js"}, rep.Entries)
	require.Len(t, rep.Chunks, 2, "lazy.js, and a.js (shared by main.js and lazy.js)")
	assert.True(t, strings.HasPrefix(rep.Chunks[0], "web/bundle/chunk-"), "shared code: %s", rep.Chunks[0])
	assert.True(t, strings.HasPrefix(rep.Chunks[1], "web/bundle/lazy-"), "a module imported with import() is named after it: %s", rep.Chunks[1])
	for _, f := range append([]string{"web/bundle/main.js"}, rep.Chunks...) {
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(f)))
	}
	for _, f := range []string{"web/main.js", "web/a.js", "web/lazy.js", "web/b.js", "web/first.js"} {
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(f)), "the modules stay")
	}
	assert.Equal(t, strings.Replace(bundleIndex, `src="web/main.js"`, `src="web/bundle/main.js"`, 1), string(page),
		"only the module script's src changes (not the classic script, the external module or the inline one)")
	main, err := os.ReadFile(filepath.Join(dir, "web/bundle/main.js"))
	require.NoError(t, err)
	assert.NotContains(t, string(main), "./a.js", "a.js is inside the bundle or a chunk")
	assert.Contains(t, string(main), "import(", "lazy.js still loads on first use")

	// The bundle runs as the modules do: each module once, live bindings kept.
	want := `["first","main a=2","lazy a=2 b=b"]`
	assert.Equal(t, want, runModule(t, dir, "web/main.js"))
	assert.Equal(t, want, runModule(t, dir, "web/bundle/main.js"))
}

func TestBundlePageMinifiedRunsTheSame(t *testing.T) {
	plain := bundleFixture(t)
	_, repPlain, err := BundlePage(BundleOptions{Dir: plain})
	require.NoError(t, err)
	dir := bundleFixture(t)
	_, rep, err := BundlePage(BundleOptions{Dir: dir, Minify: true})
	require.NoError(t, err)
	assert.Less(t, rep.Bytes, repPlain.Bytes)
	main, err := os.ReadFile(filepath.Join(dir, "web/bundle/main.js"))
	require.NoError(t, err)
	assert.NotContains(t, string(main), "a comment")
	assert.Contains(t, string(main), "bump", "names are kept")
	assert.Equal(t, `["first","main a=2","lazy a=2 b=b"]`, runModule(t, dir, "web/bundle/main.js"))
}

func TestBundlePageLeavesExternalFilesOut(t *testing.T) {
	dir := bundleFixture(t)
	_, rep, err := BundlePage(BundleOptions{Dir: dir, External: []string{"web/b.js"}})
	require.NoError(t, err)
	lazy, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rep.Chunks[1])))
	require.NoError(t, err)
	assert.Contains(t, string(lazy), `from "../b.js"`, "imported from where it is, relative to the bundle")
	assert.NotContains(t, string(lazy), "'b'", "not copied in")
	assert.Equal(t, `["first","main a=2","lazy a=2 b=b"]`, runModule(t, dir, "web/bundle/main.js"))
}

func TestBundlePageThenPreloadsListTheSharedChunks(t *testing.T) {
	dir := bundleFixture(t)
	page, rep, err := BundlePage(BundleOptions{Dir: dir})
	require.NoError(t, err)
	out, err := AddModulePreloads(dir, page, "index.html")
	require.NoError(t, err)
	s := string(out)
	assert.Contains(t, s, `<link rel="modulepreload" href="`+rep.Chunks[0]+`">`, "the shared chunk the bundle imports")
	assert.NotContains(t, s, rep.Chunks[1], "a chunk loaded with import() loads on first use")
	assert.NotContains(t, s, `modulepreload" href="web/a.js"`, "nothing of the modules the bundle replaced")
}

func TestBundlePageWithoutModulesLeavesThePage(t *testing.T) {
	page := `<script src="a.js"></script>`
	dir := writeTree(t, map[string]string{"index.html": page, "a.js": "x = 1;\n"})
	out, rep, err := BundlePage(BundleOptions{Dir: dir})
	require.NoError(t, err)
	assert.Empty(t, rep.Entries)
	assert.Equal(t, page, string(out))
	assert.NoDirExists(t, filepath.Join(dir, "web/bundle"))
}

func TestBundlePageReportsAMissingImport(t *testing.T) {
	dir := writeTree(t, map[string]string{"index.html": `<script type="module" src="main.js"></script>`, "main.js": "import './gone.js';\n"})
	_, _, err := BundlePage(BundleOptions{Dir: dir, Out: "b"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "gone.js")
	assert.NoDirExists(t, filepath.Join(dir, "b"), "nothing is written when the build fails")
}
