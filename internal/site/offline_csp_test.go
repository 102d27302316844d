package site

import (
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The offline file declares a policy that allows exactly its inline scripts and styles (by the
// SHA-256 of their text, as a browser computes it), the wasm's compilation, and data: images,
// before its first script; nothing else (it used to declare none, and under a site's policy its
// three inline scripts and its style were refused: the page stayed on "Loading the engine…").
func TestOfflineFileDeclaresItsPolicy(t *testing.T) {
	page, err := BuildOffline(OfflineOptions{Dir: offlineFixture(t)})
	require.NoError(t, err)
	text := string(page)
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(text)
	require.NotNil(t, m, "the offline file declares its policy")
	policy := m[1]
	assert.Less(t, strings.Index(text, m[0]), strings.Index(text, "<script"), "before the first script")
	assert.Less(t, strings.Index(text, `<meta charset="utf-8">`), strings.Index(text, m[0]), "after the charset")

	inline := regexp.MustCompile(`(?s)<(script|style)([^>]*)>(.*?)</(?:script|style)>`).FindAllStringSubmatch(text, -1)
	var scripts, styles int
	for _, el := range inline {
		if strings.Contains(el[2], "src=") {
			continue
		}
		sum := sha256.Sum256([]byte(strings.ReplaceAll(el[3], "\r\n", "\n")))
		src := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		directive := "script-src"
		if el[1] == "style" {
			directive, styles = "style-src", styles+1
		} else {
			scripts++
		}
		assert.Regexp(t, directive+` [^;]*`+regexp.QuoteMeta(src), policy, "%s of %.60q", directive, el[3])
	}
	assert.Equal(t, 5, scripts, "the wasm, wasm_exec.js, the classic script, the module bundle and the JSON data block")
	assert.Equal(t, 1, styles)
	assert.Equal(t, scripts, strings.Count(policy, "'sha256-")-styles, "no other hash")
	assert.True(t, strings.HasPrefix(policy, "default-src 'none'; script-src 'sha256-"), policy)
	assert.Contains(t, policy, "'wasm-unsafe-eval'; style-src 'sha256-")
	assert.Contains(t, policy, "img-src data:; font-src data:; base-uri 'none'; form-action 'none'")
	assert.NotContains(t, policy, "unsafe-inline")
}
