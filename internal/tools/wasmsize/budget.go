package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// budget is what the wasm may take: bytes of code by package (as pkgOf names them), for any
// package not named ("other-package"), the code and data sections, and the shipped wasm as
// served (raw, and its .gz and .br beside it).
type budget struct {
	limits map[string]int
	order  []string
}

// readBudget reads lines of "NAME BYTES" ('#' starts a comment).
func readBudget(r io.Reader) (*budget, error) {
	b := &budget{limits: map[string]int{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("budget line %d: want NAME BYTES, got %q", n, sc.Text())
		}
		v, err := strconv.Atoi(strings.ReplaceAll(f[1], "_", ""))
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("budget line %d: %q is not a number of bytes", n, f[1])
		}
		if _, dup := b.limits[f[0]]; dup {
			return nil, fmt.Errorf("budget line %d: %s given twice", n, f[0])
		}
		b.limits[f[0]] = v
		b.order = append(b.order, f[0])
	}
	return b, sc.Err()
}

// shipped is the wasm as served: its size, and its .gz and .br files' (0 when absent); and the
// offline file's size (0 when not asked).
type shipped struct{ raw, gzip, brotli, offline int }

func readShipped(name string) (shipped, error) {
	size := func(p string) (int, error) {
		st, err := os.Stat(p)
		if os.IsNotExist(err) {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		return int(st.Size()), nil
	}
	var s shipped
	var err error
	if s.raw, err = size(name); err != nil || s.raw == 0 {
		return s, fmt.Errorf("shipped wasm %s: missing or empty (%v)", name, err)
	}
	if s.gzip, err = size(name + ".gz"); err != nil {
		return s, err
	}
	s.brotli, err = size(name + ".br")
	return s, err
}

// row is one figure of the budget table.
type row struct {
	name      string
	bytes, of int // of: what the share is of (0: no share)
	limit     int
	limited   bool
}

// printRows prints the table's rows and returns the names of those over their budget.
func printRows(w io.Writer, rows []row) []string {
	fmt.Fprintf(w, "%-62s %10s %6s %10s  %s\n", "part", "bytes", "%", "budget", "")
	var over []string
	for _, x := range rows {
		share := ""
		if x.of > 0 {
			share = fmt.Sprintf("%6.1f", 100*float64(x.bytes)/float64(x.of))
		}
		limit, verdict := "-", ""
		if x.limited {
			limit = strconv.Itoa(x.limit)
			verdict = "ok"
			if x.bytes > x.limit {
				verdict = "OVER"
				over = append(over, x.name)
			}
		}
		fmt.Fprintf(w, "%-62s %10d %6s %10s  %s\n", x.name, x.bytes, share, limit, verdict)
	}
	return over
}

// checkBudget prints each figure with its budget and returns the names over budget. With r nil
// it checks only the shipped files (the build's check: no build with names needed).
func (r *report) checkBudget(w io.Writer, b *budget, ship *shipped) []string {
	var rows []row
	add := func(name string, v, of int) {
		l, ok := b.limits[name]
		rows = append(rows, row{name, v, of, l, ok})
	}
	if ship != nil {
		add("shipped.raw", ship.raw, 0)
		if ship.gzip > 0 {
			add("shipped.gzip", ship.gzip, 0)
		}
		if ship.brotli > 0 {
			add("shipped.brotli", ship.brotli, 0)
		}
		if ship.offline > 0 {
			add("shipped.offline", ship.offline, 0)
		}
	}
	if r == nil { // only the shipped files
		return printRows(w, rows)
	}
	add("code", r.code, r.total)
	add("data", r.data, r.total)
	var pkgs []string
	for p := range r.byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool {
		return r.byPkg[pkgs[i]] > r.byPkg[pkgs[j]] || r.byPkg[pkgs[i]] == r.byPkg[pkgs[j]] && pkgs[i] < pkgs[j]
	})
	other, otherMax, otherName := 0, 0, ""
	for _, p := range pkgs {
		if _, named := b.limits[p]; named {
			add(p, r.byPkg[p], r.total)
			continue
		}
		other += r.byPkg[p]
		if r.byPkg[p] > otherMax {
			otherMax, otherName = r.byPkg[p], p
		}
	}
	// every package not named is held to other-package (the largest is shown)
	if l, ok := b.limits["other-package"]; ok {
		rows = append(rows, row{"other-package: " + otherName, otherMax, r.total, l, true})
	}
	over := printRows(w, rows)
	fmt.Fprintf(w, "%-62s %10d %6.1f\n", fmt.Sprintf("(%d packages not named, together)", len(pkgs)-countNamed(pkgs, b)), other, 100*float64(other)/float64(r.total))
	for _, name := range b.order {
		if _, ok := r.byPkg[name]; !ok && !strings.Contains(name, ".") && name != "code" && name != "data" && name != "other-package" && !strings.HasPrefix(name, "shipped.") {
			fmt.Fprintf(w, "(budget names %s, which the wasm no longer has)\n", name)
		}
	}
	return over
}

func countNamed(pkgs []string, b *budget) int {
	n := 0
	for _, p := range pkgs {
		if _, ok := b.limits[p]; ok {
			n++
		}
	}
	return n
}

// runBudget prints the budget table and returns the exit code: 1 when a figure is over. With r
// nil it checks only the shipped wasm and the offline file (offlineFile: "" for none).
func runBudget(r *report, budgetFile, shippedFile, offlineFile string) int {
	f, err := os.Open(budgetFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Close()
	b, err := readBudget(f)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", budgetFile, err)
		return 1
	}
	if r != nil && !r.hasNames {
		fmt.Fprintln(os.Stderr, "no name section: build without -ldflags=-s to see packages")
		return 1
	}
	var ship *shipped
	if shippedFile != "" {
		s, err := readShipped(shippedFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		ship = &s
		if offlineFile != "" {
			st, err := os.Stat(offlineFile)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			ship.offline = int(st.Size())
		}
	}
	over := r.checkBudget(os.Stdout, b, ship)
	if len(over) > 0 {
		fmt.Fprintf(os.Stderr, "over budget (%s): %s\n", budgetFile, strings.Join(over, ", "))
		fmt.Fprintln(os.Stderr, "every visitor downloads these bytes: find what grew (go run ./internal/tools/wasmsize -top 40 on a wasm built without -ldflags=-s) and make it smaller, or raise the figure on purpose (the file's first lines say how)")
		return 1
	}
	fmt.Println("within budget")
	return 0
}
