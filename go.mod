module github.com/backfill-explainer/explainer

go 1.26.8

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/evanw/esbuild v0.28.2
	github.com/hack-pad/safejs v0.1.1
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/net v0.62.0
)

require golang.org/x/sys v0.49.0 // indirect

// The wasm links this copy of go.yaml.in/yaml/v3 v3.0.6, with its two regular expressions
// replaced by hand matchers (third_party/yaml/nomatch.go): no regexp in the wasm (docs/dependencies.md).
replace go.yaml.in/yaml/v3 => ./third_party/yaml
