package docs

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSizeFiguresAreTheBudgets: a size written in the documents goes stale with the next build
// (`./build.sh dist` prints the sizes themselves), so the only sizes written are the wasm's
// budgets, which the build enforces (internal/tools/wasmsize/budget.txt), and the format's
// bounds named below. Limits of the format written in binary units (KiB, MiB) are not sizes
// of a build and are not looked at.
func TestSizeFiguresAreTheBudgets(t *testing.T) {
	budget := readBudget(t)
	allowed := map[string]string{}
	for key, what := range map[string]string{"shipped.gzip": "gzip", "shipped.brotli": "brotli", "shipped.offline": "offline"} {
		n, ok := budget[key]
		require.True(t, ok, "budget.txt has no %s", key)
		allowed[strconv.FormatFloat(float64(n)/1e6, 'f', -1, 64)+" MB"] = "the " + what + " budget"
	}
	// the format's bounds, not a build's sizes
	bounds := []string{"A summary stays within about 2 MB of JSON"}
	figure := regexp.MustCompile(`\d[\d.,]*\s?(?:MB|KB|kB|GB)\b`)
	docs := append(userDocs(t), "web/README-page.md")
	for _, rel := range docs {
		for i, line := range strings.Split(readDoc(t, rel), "\n") {
			for _, f := range figure.FindAllString(line, -1) {
				f = strings.Join(strings.Fields(f), " ")
				if _, ok := allowed[f]; ok || anyIn(line, bounds) {
					continue
				}
				t.Errorf("%s:%d: %q is a size no test keeps true: write `./build.sh dist`'s output instead, or a budget", rel, i+1, f)
			}
		}
	}
	// and the README's budgets are budget.txt's
	readme := readDoc(t, "README.md")
	for f, what := range allowed {
		assert.Contains(t, readme, f, "README.md names %s", what)
	}
}

func anyIn(line string, parts []string) bool {
	for _, p := range parts {
		if strings.Contains(line, p) {
			return true
		}
	}
	return false
}

// readBudget reads internal/tools/wasmsize/budget.txt: a name and a number of bytes a line.
func readBudget(t *testing.T) map[string]int64 {
	f, err := os.Open(filepath.Join(root, "internal", "tools", "wasmsize", "budget.txt"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 2 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		n, err := strconv.ParseInt(fs[1], 10, 64)
		require.NoError(t, err, fmt.Sprintf("budget.txt: %q", sc.Text()))
		out[fs[0]] = n
	}
	require.NoError(t, sc.Err())
	return out
}
