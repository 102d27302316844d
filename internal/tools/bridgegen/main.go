// Command bridgegen writes, from the bridge's declarations (wasm/api: api.All), the two files
// made from them: web/boot/bridge.d.ts, the methods and the types of their arguments and results,
// for the page's modules to be checked against (web/test/node/bridge-calls.test.mjs), and
// wasm/api/usage_gen.go, each method's usage (the wasm says it without reflecting). Run it from
// the repository's root:
//
//	go run ./internal/tools/bridgegen
//
// main_test.go checks that the checked-in files are what this writes.
package main

import (
	"log"
	"os"
)

// files are the files written, by their path from the repository's root.
var files = map[string]func() ([]byte, error){
	"web/boot/bridge.d.ts":  Declaration,
	"wasm/api/usage_gen.go": UsageSource,
}

func main() {
	for path, make := range files {
		src, err := make()
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
