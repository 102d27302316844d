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

// workerFixture: the page's module names a worker by a literal relative to the page (as
// explainer.js does) and one that is not in the site; the worker imports a module of the page
// and a classic script it keeps importing as it is.
func workerFixture(t *testing.T) string {
	return writeTree(t, map[string]string{
		"index.html":        `<!doctype html><title>t</title><script src="web/exec.js"></script><link rel="stylesheet" href="web/s.css"><script type="module" src="web/main.js"></script>`,
		"web/s.css":         "body { margin: 0; }\n",
		"web/exec.js":       "globalThis.log = (globalThis.log || []).concat('exec');\n",
		"web/main.js":       "export const url = new URL('web/w-worker.js', 'http://h/');\nexport const other = 'web/missing-worker.js';\nexport const done = Promise.resolve();\n",
		"web/w-worker.js":   "import './exec.js';\nimport { helper } from './helper.js';\nglobalThis.log.push(helper());\nexport const done = Promise.resolve();\n",
		"web/helper.js":     "export const helper = () => 'helper in the worker';\n",
		"web/unused.js":     "export const x = 1;\n",
		"web/LICENSE.txt":   "text\n",
		"web/sub/old.js":    "export const y = 2;\n",
		"docs/outside.html": "<p>not under web/</p>\n",
	})
}

func TestBundlePageBundlesTheWorkersItNamesInPlace(t *testing.T) {
	dir := workerFixture(t)
	_, rep, err := BundlePage(BundleOptions{Dir: dir, Workers: true, WorkerExternal: []string{"web/exec.js"}, Minify: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"web/w-worker.js"}, rep.Workers, "a literal naming no file of the site is not a worker of it")
	w, err := os.ReadFile(filepath.Join(dir, "web/w-worker.js"))
	require.NoError(t, err)
	assert.NotContains(t, string(w), "./helper.js", "the worker's modules are in it")
	assert.Contains(t, string(w), `"./exec.js"`, "a WorkerExternal file stays an import of its own")
	assert.Equal(t, `["exec","helper in the worker"]`, runModule(t, dir, "web/w-worker.js"))

	// Without Workers the worker stays the source it was.
	plain := workerFixture(t)
	_, rep, err = BundlePage(BundleOptions{Dir: plain})
	require.NoError(t, err)
	assert.Empty(t, rep.Workers)
	src, err := os.ReadFile(filepath.Join(plain, "web/w-worker.js"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "./helper.js")
}

// folderFixture is the page's own layout: its modules in folders (web/boot/, web/ui/, …), its
// entry web/boot/main.js, its first script web/boot/start.js, and a worker in a folder of its own
// (web/scale/s-worker.js, named by a literal relative to the page) that imports the page's
// classic script from web/ and a module from another folder, and finds the wasm beside the
// classic script by import.meta.url ("../e.wasm").
func folderFixture(t *testing.T) string {
	return writeTree(t, map[string]string{
		"index.html": `<!doctype html><title>t</title><script async src="web/boot/start.js"></script><script src="web/exec.js"></script>` +
			`<script type="module" src="web/boot/main.js"></script>`,
		"web/e.wasm":        "\x00asm",
		"web/exec.js":       "globalThis.log = (globalThis.log || []).concat('exec');\n",
		"web/boot/start.js": "globalThis.started = true;\n",
		"web/boot/main.js":  "import { helper } from '../ui/helper.js';\nexport const url = new URL('web/scale/s-worker.js', 'http://h/');\nexport const done = Promise.resolve(helper());\n",
		"web/ui/helper.js":  "export const helper = () => 'helper';\n",
		"web/ui/unused.js":  "export const x = 1;\n",
		"web/scale/s-worker.js": "import '../exec.js';\nimport { helper } from '../ui/helper.js';\n" +
			"globalThis.log.push(helper() + ' in the worker', new URL('../e.wasm', import.meta.url).pathname.split('/').slice(-2).join('/'));\n" +
			"export const done = Promise.resolve();\n",
	})
}

// A worker in a folder is bundled where it was, its import of the page's classic script is that
// file's path from the folder, and import.meta.url still finds the wasm; the entry in a folder is
// bundled into web/bundle/ under its name; the build's prune leaves what loads and drops the
// folders left empty.
func TestBundleWorkerInAFolderStaysInItsFolder(t *testing.T) {
	dir := folderFixture(t)
	page, rep, err := BundlePage(BundleOptions{Dir: dir, Workers: true, WorkerExternal: []string{"web/exec.js"}, Minify: true})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"web/boot/main.js": "web/bundle/main.js"}, rep.Entries)
	assert.Equal(t, []string{"web/scale/s-worker.js"}, rep.Workers)
	w, err := os.ReadFile(filepath.Join(dir, "web/scale/s-worker.js"))
	require.NoError(t, err)
	assert.NotContains(t, string(w), "helper.js", "the worker's modules are in it")
	assert.Contains(t, string(w), `"../exec.js"`, "the classic script stays an import, by its path from the worker's folder")
	assert.Equal(t, `["exec","helper in the worker","web/e.wasm"]`, runModule(t, dir, "web/scale/s-worker.js"))

	keep := append(PageFiles(page, "index.html"), rep.Chunks...)
	keep = append(keep, rep.Workers...)
	keep = append(keep, "web/exec.js", "web/e.wasm")
	_, err = Prune(dir, "web", keep)
	require.NoError(t, err)
	var left []string
	require.NoError(t, filepath.WalkDir(filepath.Join(dir, "web"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			left = append(left, filepath.ToSlash(rel))
		}
		return err
	}))
	assert.ElementsMatch(t, []string{"web/boot/start.js", "web/bundle/main.js", "web/e.wasm", "web/exec.js", "web/scale/s-worker.js"}, left)
	assert.NoDirExists(t, filepath.Join(dir, "web/ui"), "a folder of sources only goes")
	assert.Equal(t, `["exec","helper in the worker","web/e.wasm"]`, runModule(t, dir, "web/scale/s-worker.js"), "the worker runs after the prune")
	assert.Equal(t, "undefined", runModule(t, dir, "web/bundle/main.js"), "the page's bundle runs (it logs nothing)")
}

func TestPageFilesListsWhatThePageNames(t *testing.T) {
	page := `<!doctype html><link rel="icon" href="data:image/svg+xml,x"><link rel="preload" href="web/e.wasm" as="fetch">` +
		`<script async src="web/start.js"></script><link rel="stylesheet" href="./web/s.css"><script src="https://cdn.example/x.js"></script>` +
		`<link rel="modulepreload" href="web/bundle/chunk.js"><script type="module" src="web/bundle/main.js"></script><img src="web/i.png">` +
		`<a href="other.html">a link is not loaded</a><script src="web/start.js"></script>`
	assert.Equal(t, []string{"web/bundle/chunk.js", "web/bundle/main.js", "web/e.wasm", "web/i.png", "web/s.css", "web/start.js"}, PageFiles([]byte(page), "index.html"))
	assert.Equal(t, []string{"site/web/a.js"}, PageFiles([]byte(`<script src="web/a.js"></script>`), "site/index.html"), "relative to the page's folder")
}

func TestPruneRemovesWhatIsNotKept(t *testing.T) {
	dir := workerFixture(t)
	removed, err := Prune(dir, "web", []string{"web/main.js", "web/exec.js", "web/LICENSE.txt"})
	require.NoError(t, err)
	assert.Equal(t, []string{"web/helper.js", "web/s.css", "web/sub/old.js", "web/unused.js", "web/w-worker.js"}, removed)
	for _, f := range []string{"web/main.js", "web/exec.js", "web/LICENSE.txt", "index.html", "docs/outside.html"} {
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(f)), "kept, or not under web/")
	}
	assert.NoDirExists(t, filepath.Join(dir, "web/sub"), "a folder left empty goes too")
}

func TestPruneRemovesNothingWhenAKeptFileIsMissing(t *testing.T) {
	dir := workerFixture(t)
	_, err := Prune(dir, "web", []string{"web/main.js", "web/gone.js"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "web/gone.js")
	assert.FileExists(t, filepath.Join(dir, "web/unused.js"), "nothing was removed")
	_, err = Prune(dir, "web", []string{"../outside"})
	require.Error(t, err, "a kept path outside the site is not a file of it")
}

// The build's own sequence (cmd/preload --prune): the page bundled, its workers bundled in place,
// then everything under web/ that nothing loads removed; the page and the worker still run.
func TestBundleWorkersThenPruneLeavesWhatLoads(t *testing.T) {
	dir := workerFixture(t)
	page, rep, err := BundlePage(BundleOptions{Dir: dir, Workers: true, WorkerExternal: []string{"web/exec.js"}})
	require.NoError(t, err)
	keep := append(PageFiles(page, "index.html"), rep.Chunks...)
	keep = append(keep, rep.Workers...)
	keep = append(keep, "web/exec.js", "web/LICENSE.txt")
	var under []string
	for _, k := range keep {
		if strings.HasPrefix(k, "web/") {
			under = append(under, k)
		}
	}
	_, err = Prune(dir, "web", under)
	require.NoError(t, err)
	var left []string
	require.NoError(t, filepath.WalkDir(filepath.Join(dir, "web"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			left = append(left, filepath.ToSlash(rel))
		}
		return err
	}))
	assert.ElementsMatch(t, []string{"web/LICENSE.txt", "web/bundle/main.js", "web/exec.js", "web/s.css", "web/w-worker.js"}, left)
	assert.Equal(t, `["exec","helper in the worker"]`, runModule(t, dir, "web/w-worker.js"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), page, 0o644))
	assert.Equal(t, "undefined", runModule(t, dir, "web/bundle/main.js"), "the page's bundle runs (it logs nothing)")
}
