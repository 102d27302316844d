module github.com/backfill-explainer/explainer

go 1.26.8

require github.com/stretchr/testify v1.12.1

require (
	github.com/evanw/esbuild v0.28.2 // indirect
	github.com/hack-pad/safejs v0.1.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
