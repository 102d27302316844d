#!/usr/bin/env bash
# The one entry point: build | serve | dist | test | bench.
#
#   ./build.sh build   dist/ (index.html, web/: the bundle, workers, explainer.wasm, wasm_exec.js…),
#                      dist/explainer-offline.html (one file, works from file://), bin/backfill
#   ./build.sh serve   build, then serve dist/ on http://127.0.0.1:8080/ (ADDR=host:port to change)
#   ./build.sh dist    build, then report sizes (raw, gzip and brotli, as served)
#   ./build.sh test    install what the tests need, then every check; fails when one fails
#   ./build.sh fuzz    fuzz every Fuzz target for a count of new inputs (FUZZTIME=30s to change), then
#                      PAGE_ACTIONS random page actions (default 1000; FUZZ_SEED=S to repeat a run)
#   ./build.sh bench   engine benchmarks, the browser benchmark, the wasm's budget by package
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# Go lives in /usr/local/go on these machines; a login shell may not have it on PATH.
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
  export PATH="/usr/local/go/bin:$PATH"
fi

START=$SECONDS
heading() { printf '\n==== %s ==== (%d s)\n' "$*" $((SECONDS - START)); }

build() {
  heading "build: wasm (GOOS=js GOARCH=wasm)"
  rm -rf dist
  mkdir -p dist/web bin
  GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o dist/web/explainer.wasm ./wasm
  # the linker's ~65,000 data segments merged where at most 64 zero bytes apart (−6 % gzip)
  go run ./internal/wasmpack/cmd/wasmpack dist/web/explainer.wasm
  cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" dist/web/wasm_exec.js

  heading "build: page"
  cp index.html dist/index.html
  shopt -s nullglob
  local f
  # the page's modules, each in its folder (web/boot/, web/stage/, …), and the stylesheet; not
  # the tests' or the benchmark's files
  for f in web/*.js web/*.css web/*/*.js web/*/*.css; do
    case $f in web/test/* | web/bench/* | web/fixtures/*) continue ;; esac
    mkdir -p "dist/$(dirname "$f")"
    cp "$f" "dist/$f"
  done
  shopt -u nullglob
  vendor

  # Every built-in's views at every step, beside the wasm, so that a built-in's first view needs
  # no wasm (internal/firstview, read by web/boot/stored.js; the offline file inlines a few).
  heading "build: stored views"
  go run ./internal/site/cmd/firstview --dir dist

  # The offline file bundles the page's modules from their sources, so it comes first.
  heading "build: dist/explainer-offline.html"
  go run ./internal/site/cmd/offline --dir dist --out dist/explainer-offline.html

  # The page's modules bundled in place (web/boot/main.js becomes web/bundle/main.js, the bundle
  # of everything the page imports statically; each module it imports with import() a chunk of its
  # own, loaded on first use), and a modulepreload link for the chunks the bundle imports
  # statically: the first view needs a couple of requests instead of one per module. Each worker
  # the bundle names is bundled in place, in its folder (one request per worker); then every file
  # of dist/web/ that nothing loads goes (the sources the offline file and the bundles were made
  # from), but element.js (public, for documentation pages) and uPlot's licence
  # (web/test/served.test.mjs checks the result).
  heading "build: page modules"
  local views
  views=$(cd dist && find web/views -type f -printf ' --keep %p')
  # shellcheck disable=SC2086 # (one word per --keep and path: the paths have no spaces)
  go run ./internal/site/cmd/preload --dir dist --prune web --keep web/element.js --keep web/uPlot.LICENSE.txt \
    --keep web/explainer.wasm --keep web/wasm_exec.js $views

  # FILE.br (brotli 11) and FILE.gz (gzip -9) beside each compressible file, which `backfill
  # serve` (and nginx, Caddy: README) send by Accept-Encoding; not the offline file (a download).
  # Kept in .cache/precompress by content: an unchanged wasm is not encoded again (~25 CPU-s).
  heading "build: precompressed .br and .gz"
  go run ./internal/site/cmd/precompress --dir dist --skip explainer-offline.html --cache .cache/precompress --quiet

  # issue 30's goals, checked on every build: the wasm <= 1.8 MB gzip and <= 1.35 MB brotli as
  # served, the offline file <= 2.8 MB (internal/tools/wasmsize/budget.txt, shipped.*)
  heading "build: the shipped wasm's and the offline file's budget"
  go run ./internal/tools/wasmsize -budget internal/tools/wasmsize/budget.txt -shipped dist/web/explainer.wasm -offline dist/explainer-offline.html

  heading "build: bin/backfill"
  go build -o bin/backfill ./cmd/backfill
}

# vendor copies the page's one npm dependency, uPlot (the Scale panel's charts, loaded only when
# that panel opens), from node_modules into dist/web/: its minified build made an ES module by
# one appended export line, its stylesheet and its licence. Never a CDN. node_modules is
# installed (npm ci, from package-lock.json) when it lacks the pinned version.
vendor() {
  local want have
  want=$(sed -n 's/^ *"uplot": *"\([^"]*\)".*/\1/p' package.json)
  have=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' node_modules/uplot/package.json 2>/dev/null || true)
  if [[ -z "$want" ]]; then echo "package.json names no uplot version" >&2; return 1; fi
  if [[ "$have" != "$want" ]]; then
    heading "build: npm ci (node_modules lacks uplot $want)"
    npm ci --no-audit --no-fund
  fi
  { cat node_modules/uplot/dist/uPlot.iife.min.js; printf '\nexport default uPlot;\n'; } >dist/web/uPlot.js
  cp node_modules/uplot/dist/uPlot.min.css dist/web/uPlot.min.css
  cp node_modules/uplot/LICENSE dist/web/uPlot.LICENSE.txt
}

serve() {
  build
  local addr="${ADDR:-127.0.0.1:8080}"
  heading "serve: http://${addr}/ (Ctrl-C to stop)"
  exec bin/backfill serve --dir dist --addr "$addr"
}

# dist reports each file's size raw and as served gzip and brotli: its .gz and .br from the
# build, or the file itself where the build wrote none (an image, the offline file).
dist() {
  build
  heading "dist: sizes (raw; gzip and brotli as served)"
  local raw=0 gz=0 br=0 f r g b
  printf '%-44s %10s %10s %10s\n' "file" "raw" "gzip -9" "brotli 11"
  while IFS= read -r -d '' f; do
    r=$(wc -c <"$f"); g=$r; b=$r
    [[ -f "$f.gz" ]] && g=$(wc -c <"$f.gz")
    [[ -f "$f.br" ]] && b=$(wc -c <"$f.br")
    printf '%-44s %10d %10d %10d\n' "${f#dist/}" "$r" "$g" "$b"
    [[ $f == dist/explainer-offline.html ]] && continue
    raw=$((raw + r)); gz=$((gz + g)); br=$((br + b))
  done < <(find dist -type f ! -name '*.br' ! -name '*.gz' -print0 | sort -z)
  printf '%-44s %10d %10d %10d\n' "served site (without the offline file)" "$raw" "$gz" "$br"
}

ensure_test_deps() {
  heading "test: dependencies"
  if [[ ! -x /usr/bin/chromium ]]; then
    echo "installing chromium (Debian package)"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
  fi
  if ! command -v node >/dev/null 2>&1; then
    echo "installing nodejs (Debian package)"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
  fi
  if [[ ! -d node_modules/playwright-core || ! -d node_modules/axe-core ]]; then
    # playwright-core never downloads a browser; the tests use /usr/bin/chromium.
    npm ci --no-audit --no-fund
  fi
  go mod download
  echo "go: $(go version)"
  echo "node: $(node --version)"
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo unknown)"
}

fuzz_targets() {
  # "dir name" for every Fuzz target in a package that builds for the host (not wasm/).
  grep -rIl --include='*_test.go' --exclude-dir=node_modules --exclude-dir=wasm --exclude-dir=dist \
    -E '^func Fuzz[A-Za-z0-9_]*\(' . | sort | while IFS= read -r file; do
    grep -oE '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //' | while IFS= read -r name; do
      printf '%s %s\n' "$(dirname "$file")" "$name"
    done
  done
}

# fuzz_one DIR NAME fuzzes one target for a number of inputs (FUZZTIME overrides it for every
# target: 30s, 100000x). A count, not a duration: Go's fuzzing coordinator can fail a duration-based
# run with a bare "context deadline exceeded" when a worker is mid-call as the time runs out, and
# a count does the same work on a fast machine and a loaded one. Counts give each target a few
# seconds on 2 cores (FuzzEvents steps a whole scenario per input).
fuzz_count() {
  case $1 in
    FuzzEvents) echo 5000x ;;
    *) echo 30000x ;;
  esac
}

fuzz_one() {
  local dir=$1 name=$2
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "${FUZZTIME:-$(fuzz_count "$name")}" "$dir"
}

fuzz() {
  heading "fuzz (${FUZZTIME:-a count of inputs} each)"
  local dir name found=0
  while read -r dir name; do
    found=1
    echo "-- $name in $dir"
    fuzz_one "$dir" "$name"
  done < <(fuzz_targets)
  [[ $found == 1 ]] || echo "no Fuzz targets"
  heading "fuzz: ${PAGE_ACTIONS:-1000} random page actions (web/test/fuzz/random-actions.mjs, on dist/)"
  [[ -f dist/index.html ]] || build
  PAGE_ACTIONS=${PAGE_ACTIONS:-1000} nice -n 5 node web/test/fuzz/random-actions.mjs
}

# go_checks: everything but the browser tests (go test also runs each Fuzz target over its seed
# corpus and the inputs kept in testdata/fuzz; `./build.sh fuzz` looks for new ones).
go_checks() {
  heading "test: go vet"
  go vet ./...
  # (-trimpath, as the build's wasm: the standard library compiled for js/wasm once, not twice)
  GOOS=js GOARCH=wasm go vet -trimpath ./wasm/...
  echo "ok"

  heading "test: go test"
  go test ./...
  # the YAML library's copy (its own module: go.mod's replace) and its hand matchers
  (cd third_party/yaml && go vet ./... && go test ./...)

  heading "test: wasm bridge under Node"
  GOOS=js GOARCH=wasm go test -trimpath -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm/...

  heading "test: backfill check (golden traces)"
  bin/backfill check

  heading "test: render (node)"
  # the page's render modules under Node, from the built engine's views, in a small DOM: no browser.
  # The files one after another in one process (run.mjs, each file a suite of its own): the engine
  # they share starts once, not once a file (~2 s of CPU each)
  TEST_CONCURRENCY=1 TEST_LABEL="node tests" node web/test/run.mjs web/test/node/*.test.mjs
}

test_all() {
  ensure_test_deps

  heading "test: gofmt"
  local unformatted
  # (xargs -r: with no files, gofmt would read standard input instead)
  unformatted=$(git ls-files -z --cached --others --exclude-standard '*.go' | xargs -0 -r gofmt -l)
  if [[ -n "$unformatted" ]]; then
    echo "gofmt -l reports:"; echo "$unformatted"
    return 1
  fi
  echo "ok"

  build

  # The browser tests and the Go checks run at once: the browser tests keep two cores busy but
  # for their waits (smooth scrolls, a worker's answer), and the Go checks, at a lower priority,
  # take what they leave, so neither waits for the other. The Go checks' report is printed whole
  # after the browser's.
  heading "test: browser (web/test/run.mjs, chromium) and, beside it, the Go checks (nice 10)"
  local log go_pid go_rc=0 browser_rc=0
  log=$(mktemp)
  (renice -n 10 -p "$BASHPID" >/dev/null || true; set -e; go_checks) >"$log" 2>&1 &
  go_pid=$!
  # every web/test/*.test.mjs, in two workers that each run a file at a time and share one
  # Chromium and its warm contexts across the files they run (TEST_CONCURRENCY=1: one worker)
  node web/test/run.mjs || browser_rc=$?
  wait "$go_pid" || go_rc=$?
  cat "$log"
  rm -f "$log"
  if [[ $go_rc != 0 ]]; then echo "the Go checks failed (exit $go_rc): their report is above" >&2; fi
  if [[ $browser_rc != 0 ]]; then echo "the browser tests failed (exit $browser_rc): their report is above the Go checks'" >&2; fi
  [[ $go_rc == 0 && $browser_rc == 0 ]] || return 1

  heading "test: all passed"
}

bench() {
  heading "bench: engine"
  go test -run '^$' -bench . -benchmem ./engine/...
  build
  if [[ ! -d node_modules/playwright-core ]]; then
    npm ci --no-audit --no-fund
  fi
  heading "bench: browser"
  node web/bench/bench.mjs
  node web/bench/scale.mjs
  bench_budget
}

# bench_budget prints each Go package's share of the wasm (from a build with the name section)
# and the shipped wasm's raw, gzip and brotli sizes beside their budgets
# (internal/tools/wasmsize/budget.txt), and fails when one is over.
bench_budget() {
  heading "bench: the wasm's budget"
  local named
  named=$(mktemp --suffix=.wasm)
  GOOS=js GOARCH=wasm go build -trimpath -o "$named" ./wasm
  go run ./internal/tools/wasmsize -budget internal/tools/wasmsize/budget.txt -shipped dist/web/explainer.wasm -offline dist/explainer-offline.html "$named" || { rm -f "$named"; return 1; }
  rm -f "$named"
}

# sources fetches the RisingWave files the citations read, at each release's ref, into
# .cache/risingwave/REF/PATH (for RISINGWAVE_SRC=.cache/risingwave go test ./engine/).
sources() {
  # the refs of the releases (internal/rwsource/refs.txt, written from engine.Releases by
  # internal/releasedoc's test) and the files of internal/rwsource/files.txt
  local refs
  refs=$(cat internal/rwsource/refs.txt)
  local files
  files=$(cat internal/rwsource/files.txt)
  local ref f out
  for ref in $refs; do
    for f in $files; do
      out=".cache/risingwave/$ref/$f"
      [[ -s "$out" ]] && continue
      mkdir -p "$(dirname "$out")"
      curl -fsSL "https://raw.githubusercontent.com/risingwavelabs/risingwave/$ref/$f" -o "$out.tmp" && mv "$out.tmp" "$out"
    done
  done
  echo "RisingWave sources in .cache/risingwave: RISINGWAVE_SRC=$PWD/.cache/risingwave go test ./engine/ ./diagnose/"
}

case "${1:-}" in
  build) build ;;
  sources) sources ;;
  serve) serve ;;
  dist) dist ;;
  test) test_all ;;
  fuzz) fuzz ;;
  bench) bench ;;
  *)
    echo "usage: $0 build|serve|dist|test|fuzz|bench|sources" >&2
    exit 2
    ;;
esac
