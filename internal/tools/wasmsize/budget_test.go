package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBudgetNamesWhatIsOver(t *testing.T) {
	b, err := readBudget(strings.NewReader("# comment\ncode 1000\nfmt 300 # the formatter\nother-package 50\nshipped.brotli 90\n"))
	require.NoError(t, err)
	r := &report{total: 2000, code: 900, data: 800, byPkg: map[string]int{"fmt": 301, "runtime": 40, "newdep": 51}, hasNames: true}
	var out strings.Builder
	over := r.checkBudget(&out, b, &shipped{raw: 2000, gzip: 120, brotli: 100})
	assert.Equal(t, []string{"shipped.brotli", "fmt", "other-package: newdep"}, over, out.String())
	assert.Contains(t, out.String(), "fmt")
	assert.Contains(t, out.String(), "OVER")

	r.byPkg = map[string]int{"fmt": 300, "runtime": 40}
	out.Reset()
	assert.Empty(t, r.checkBudget(&out, b, &shipped{raw: 2000, brotli: 90}), out.String())
}

func TestBudgetRefusesBadLines(t *testing.T) {
	for _, bad := range []string{"code\n", "code ten\n", "code 10 20\n", "code 0\n", "fmt 1\nfmt 2\n"} {
		_, err := readBudget(strings.NewReader(bad))
		assert.Error(t, err, bad)
	}
}

// The budget the bench uses reads.
func TestTheBudgetFileReads(t *testing.T) {
	f, err := os.Open("budget.txt")
	require.NoError(t, err)
	defer f.Close()
	b, err := readBudget(f)
	require.NoError(t, err)
	for _, name := range []string{"shipped.gzip", "shipped.brotli", "shipped.offline", "code", "data", "other-package", "runtime", "fmt"} {
		assert.Contains(t, b.limits, name)
	}
}

// The build's check: only the shipped files, the offline file among them, without a report.
func TestBudgetOfTheShippedFilesAlone(t *testing.T) {
	b, err := readBudget(strings.NewReader("shipped.gzip 100\nshipped.brotli 80\nshipped.offline 150\ncode 10\n"))
	require.NoError(t, err)
	var r *report
	var out strings.Builder
	over := r.checkBudget(&out, b, &shipped{raw: 400, gzip: 100, brotli: 80, offline: 151})
	assert.Equal(t, []string{"shipped.offline"}, over, out.String())
	assert.NotContains(t, out.String(), "code", "a check of the shipped files names no package")
	out.Reset()
	assert.Empty(t, r.checkBudget(&out, b, &shipped{raw: 400, gzip: 100, brotli: 80, offline: 150}), out.String())
}
