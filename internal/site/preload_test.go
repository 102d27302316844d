package site

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddModulePreloadsListsTheStaticGraphOnce(t *testing.T) {
	page := `<!doctype html>
<html><head><meta charset="utf-8"><title>t</title>
<link rel="modulepreload" href="web/already.js">
<script src="web/classic.js"></script>
<script type="module" src="web/main.js"></script>
<script type="module" src="web/second.js"></script>
<script type="module" src="https://cdn.example/x.js"></script>
</head><body></body></html>`
	dir := writeTree(t, map[string]string{
		"index.html":     page,
		"web/classic.js": "globalThis.x = 1;\n",
		"web/main.js":    "import { a } from \"./a.js\";\nimport \"./already.js\";\nimport(\"./lazy.js\");\nconsole.log(a);\n",
		"web/a.js":       "import { b } from \"./deep/b.js\";\nexport const a = b;\n",
		"web/deep/b.js":  "import { c } from \"../c.js\";\nexport const b = c;\n",
		"web/c.js":       "import { a } from \"./a.js\";\nexport const c = 1; // a cycle back to a.js\n",
		"web/already.js": "export {};\n",
		"web/lazy.js":    "import \"./c.js\";\nexport const lazy = 1;\n",
		"web/second.js":  "import { b } from \"./deep/b.js\";\nconsole.log(b);\n",
	})
	out, err := AddModulePreloads(dir, []byte(page), "index.html")
	require.NoError(t, err)
	s := string(out)
	links := "<link rel=\"modulepreload\" href=\"web/a.js\">\n" +
		"<link rel=\"modulepreload\" href=\"web/deep/b.js\">\n" +
		"<link rel=\"modulepreload\" href=\"web/c.js\">\n"
	assert.Contains(t, s, links+`<script type="module" src="web/main.js">`, "before the first module script, breadth first")
	assert.Equal(t, 1, strings.Count(s, `href="web/already.js"`), "a module already preloaded gets no second link")
	assert.NotContains(t, s, `href="web/lazy.js"`, "a dynamic import loads on first use")
	assert.NotContains(t, s, `modulepreload" href="web/main.js"`)
	assert.NotContains(t, s, `modulepreload" href="web/second.js"`)
	assert.Equal(t, page, strings.Replace(s, links, "", 1), "nothing else changes")
}

func TestAddModulePreloadsWithoutModulesLeavesThePage(t *testing.T) {
	page := "<!doctype html><title>x</title><script src=\"a.js\"></script>"
	out, err := AddModulePreloads(writeTree(t, map[string]string{"a.js": ""}), []byte(page), "index.html")
	require.NoError(t, err)
	assert.Equal(t, page, string(out))
}

func TestAddModulePreloadsReportsAMissingImport(t *testing.T) {
	page := `<script type="module" src="main.js"></script>`
	_, err := AddModulePreloads(writeTree(t, map[string]string{"main.js": "import \"./gone.js\";\n"}), []byte(page), "index.html")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "gone.js")
}
