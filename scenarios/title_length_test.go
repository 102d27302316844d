package scenarios

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// maxTitle: the page's header shows about 64 characters of a title at 1280×800 beside its About
// button, epoch and phase before it cuts the rest; a built-in's title is read whole there.
const maxTitle = 62

// TestBuiltinTitlesFitTheHeader: every built-in's title, under every release, is whole in the
// page's header at 1280×800 (a title written per release was cut: "…(silent: the rest goes out, th…").
func TestBuiltinTitlesFitTheHeader(t *testing.T) {
	for _, n := range BuiltinNames() {
		text, err := BuiltinText(n)
		require.NoError(t, err)
		sc, err := Parse(n+".yaml", text)
		require.NoError(t, err, n)
		for _, r := range engine.Releases {
			title, _ := sc.TitleFor(r.Name, sc.Config.Title)
			assert.LessOrEqual(t, utf8.RuneCountInString(title), maxTitle, "%s under %s: %q", n, r.Name, title)
		}
	}
}
