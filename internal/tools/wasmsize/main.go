// Command wasmsize reports how much of a Go WebAssembly binary each Go package takes: it reads
// the module's code section (the size of every function body) and its "name" custom section (the
// function names the Go linker writes unless -ldflags=-s), and sums body sizes by package.
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/x.wasm ./wasm
//	go run ./internal/tools/wasmsize [-top 25] /tmp/x.wasm
//	go run ./internal/tools/wasmsize -funcs 40 [-pkg engine] /tmp/x.wasm   (the largest functions)
//	go run ./internal/tools/wasmsize -budget internal/tools/wasmsize/budget.txt \
//	    -shipped dist/web/explainer.wasm /tmp/x.wasm   (each package's share against its budget)
//	go run ./internal/tools/wasmsize -budget internal/tools/wasmsize/budget.txt \
//	    -shipped dist/web/explainer.wasm -offline dist/explainer-offline.html   (the build's check:
//	    the served wasm and the offline file only)
//
// The data section is split by what Go's runtime finds in it through its module data: the
// pc-line table (function names, pc-value tables, …), type descriptors, read-only data (string
// literals, constants), initialized variables (data.go).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

func main() {
	top := flag.Int("top", 30, "how many packages to list")
	funcs := flag.Int("funcs", 0, "list this many of the largest functions instead of packages")
	pkg := flag.String("pkg", "", "with -funcs: only functions whose package contains this")
	budgetFile := flag.String("budget", "", "check the sizes against this budget (budget.txt); exit 1 when one is over")
	shippedFile := flag.String("shipped", "", "with -budget: the wasm as built for the site (its .gz and .br beside it)")
	offlineFile := flag.String("offline", "", "with -budget and -shipped: the offline file (explainer-offline.html) too")
	flag.Parse()
	if flag.NArg() == 0 && *budgetFile != "" && *shippedFile != "" {
		// the build's check: the shipped files only, no build with names
		os.Exit(runBudget(nil, *budgetFile, *shippedFile, *offlineFile))
	}
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N | -funcs N [-pkg P] | -budget FILE -shipped WASM [-offline HTML] [FILE.wasm]]")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r, err := analyze(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *funcs > 0 {
		r.printFuncs(os.Stdout, *funcs, *pkg)
		return
	}
	if *budgetFile != "" {
		os.Exit(runBudget(r, *budgetFile, *shippedFile, *offlineFile))
	}
	r.print(os.Stdout, *top)
}

// printFuncs lists the n largest functions (of packages whose path contains pkg).
func (r *report) printFuncs(w io.Writer, n int, pkg string) {
	type kv struct {
		k string
		v int
	}
	var rows []kv
	sum := 0
	for k, v := range r.byFunc {
		if strings.Contains(pkgOf(k), pkg) {
			rows = append(rows, kv{k, v})
			sum += v
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].v > rows[j].v || rows[i].v == rows[j].v && rows[i].k < rows[j].k })
	fmt.Fprintf(w, "%d functions, %d bytes of code\n", len(rows), sum)
	for i, row := range rows {
		if i == n {
			break
		}
		fmt.Fprintf(w, "%10d  %s\n", row.v, row.k)
	}
}

// report is a module's size by part.
type report struct {
	total    int
	code     int
	data     int
	other    int
	byPkg    map[string]int
	byFunc   map[string]int
	unnamed  int
	segs     []segment
	segErr   error
	funcs    int
	hasNames bool
}

func (r *report) print(w io.Writer, top int) {
	type kv struct {
		k string
		v int
	}
	var rows []kv
	for k, v := range r.byPkg {
		rows = append(rows, kv{k, v})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].v > rows[j].v || rows[i].v == rows[j].v && rows[i].k < rows[j].k })
	pct := func(n int) float64 { return 100 * float64(n) / float64(r.total) }
	fmt.Fprintf(w, "%-48s %10s %6s\n", "part", "bytes", "%")
	fmt.Fprintf(w, "%-48s %10d %6.1f\n", "whole module", r.total, 100.0)
	fmt.Fprintf(w, "%-48s %10d %6.1f\n", "data section", r.data, pct(r.data))
	fmt.Fprintf(w, "%-48s %10d %6.1f\n", "other sections (types, imports, names, …)", r.other, pct(r.other))
	fmt.Fprintf(w, "%-48s %10d %6.1f  (%d functions)\n", "code section", r.code, pct(r.code), r.funcs)
	if !r.hasNames {
		fmt.Fprintln(w, "no name section: build without -ldflags=-s to see packages")
		return
	}
	for i, row := range rows {
		if i == top {
			rest := 0
			for _, x := range rows[i:] {
				rest += x.v
			}
			fmt.Fprintf(w, "  %-46s %10d %6.1f\n", fmt.Sprintf("(%d more packages)", len(rows)-i), rest, pct(rest))
			break
		}
		fmt.Fprintf(w, "  %-46s %10d %6.1f\n", row.k, row.v, pct(row.v))
	}
	if r.unnamed > 0 {
		fmt.Fprintf(w, "  %-46s %10d %6.1f\n", "(functions without a name)", r.unnamed, pct(r.unnamed))
	}
	r.printData(w)
}

// printData splits the data section (data.go), or says why it cannot.
func (r *report) printData(w io.Writer) {
	if r.segErr != nil {
		fmt.Fprintf(w, "data section: %v\n", r.segErr)
		return
	}
	if r.segs == nil {
		return
	}
	parts, err := attributeData(r.segs)
	if err != nil {
		fmt.Fprintf(w, "data section: %v\n", err)
		return
	}
	inSegs := 0
	for _, s := range r.segs {
		inSegs += len(s.b)
	}
	printData(w, parts, r.data-inSegs)
}

// pkgOf returns the Go package of a function name as the Go linker writes it into the name
// section: the import path with '/' written as '_', then '.', then the function, e.g.
// "github.com_backfill-explainer_explainer_engine.__Engine_.Apply" or "runtime.mallocgc".
// A path that starts with a host name ("github.com_…", "go.yaml.in_…") keeps its dots.
func pkgOf(name string) string {
	start := 0
	if m := hostPrefix.FindStringIndex(name); m != nil {
		start = m[1]
	}
	dot := strings.IndexByte(name[start:], '.')
	if dot < 0 {
		return name
	}
	return strings.ReplaceAll(name[:start+dot], "_", "/")
}

// hostPrefix matches a leading host name of an import path ("github.com_", "golang.org_").
var hostPrefix = regexp.MustCompile(`^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|in|io|dev)_`)

type reader struct {
	b   []byte
	off int
}

var errShort = errors.New("truncated module")

func (r *reader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, errShort
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

func (r *reader) uleb() (int, error) {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return int(v), nil
		}
	}
	return 0, errors.New("bad LEB128")
}

func (r *reader) bytes(n int) ([]byte, error) {
	if n < 0 || r.off+n > len(r.b) {
		return nil, errShort
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s, nil
}

// analyze reads a wasm module's sections.
func analyze(b []byte) (*report, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	rep := &report{total: len(b), byPkg: map[string]int{}, byFunc: map[string]int{}}
	r := &reader{b: b, off: 8}
	imported := 0
	var bodies []int
	names := map[int]string{}
	for r.off < len(b) {
		id, err := r.byte()
		if err != nil {
			return nil, err
		}
		size, err := r.uleb()
		if err != nil {
			return nil, err
		}
		start := r.off
		body, err := r.bytes(size)
		if err != nil {
			return nil, err
		}
		whole := r.off - start + 1 + lebLen(size)
		sr := &reader{b: body}
		switch id {
		case 2: // imports: count functions, they take the first indices
			n, err := sr.uleb()
			if err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				for k := 0; k < 2; k++ { // module, field
					l, err := sr.uleb()
					if err != nil {
						return nil, err
					}
					if _, err := sr.bytes(l); err != nil {
						return nil, err
					}
				}
				kind, err := sr.byte()
				if err != nil {
					return nil, err
				}
				switch kind {
				case 0: // func: type index
					imported++
					if _, err := sr.uleb(); err != nil {
						return nil, err
					}
				case 1: // table: reftype, limits
					if _, err := sr.byte(); err != nil {
						return nil, err
					}
					if err := skipLimits(sr); err != nil {
						return nil, err
					}
				case 2: // memory: limits
					if err := skipLimits(sr); err != nil {
						return nil, err
					}
				case 3: // global: valtype, mut
					if _, err := sr.bytes(2); err != nil {
						return nil, err
					}
				default:
					return nil, fmt.Errorf("unknown import kind %d", kind)
				}
			}
			rep.other += whole
		case 10: // code
			n, err := sr.uleb()
			if err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				l, err := sr.uleb()
				if err != nil {
					return nil, err
				}
				if _, err := sr.bytes(l); err != nil {
					return nil, err
				}
				bodies = append(bodies, l+lebLen(l))
			}
			rep.code += whole
		case 11:
			rep.data += whole
			rep.segs, rep.segErr = readSegments(body)
		case 0:
			l, err := sr.uleb()
			if err != nil {
				return nil, err
			}
			name, err := sr.bytes(l)
			if err != nil {
				return nil, err
			}
			if string(name) == "name" {
				rep.hasNames = true
				if err := readFuncNames(sr, names); err != nil {
					return nil, err
				}
			}
			rep.other += whole
		default:
			rep.other += whole
		}
	}
	rep.funcs = len(bodies)
	for i, sz := range bodies {
		name, ok := names[imported+i]
		if !ok {
			rep.unnamed += sz
			continue
		}
		rep.byPkg[pkgOf(name)] += sz
		rep.byFunc[name] += sz
	}
	return rep, nil
}

func skipLimits(r *reader) error {
	flag, err := r.byte()
	if err != nil {
		return err
	}
	if _, err := r.uleb(); err != nil {
		return err
	}
	if flag&1 == 1 {
		_, err = r.uleb()
	}
	return err
}

// readFuncNames reads the function-names subsection (id 1) of a "name" section.
func readFuncNames(r *reader, names map[int]string) error {
	for r.off < len(r.b) {
		id, err := r.byte()
		if err != nil {
			return err
		}
		size, err := r.uleb()
		if err != nil {
			return err
		}
		sub, err := r.bytes(size)
		if err != nil {
			return err
		}
		if id != 1 {
			continue
		}
		sr := &reader{b: sub}
		n, err := sr.uleb()
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			idx, err := sr.uleb()
			if err != nil {
				return err
			}
			l, err := sr.uleb()
			if err != nil {
				return err
			}
			s, err := sr.bytes(l)
			if err != nil {
				return err
			}
			names[idx] = string(s)
		}
	}
	return nil
}

func lebLen(n int) int {
	k := 1
	for n >= 0x80 {
		n >>= 7
		k++
	}
	return k
}
