// Command bridgegen writes web/boot/bridge.d.ts: the bridge's methods and the types of their
// arguments and results, from their declarations (wasm/api: api.All and api.Declaration), for
// the page's modules to be checked against (web/test/node/bridge-calls.test.mjs).
//
//	go run ./internal/tools/bridgegen -o web/boot/bridge.d.ts
//
// main_test.go checks that the checked-in file is what this writes.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/backfill-explainer/explainer/wasm/api"
)

func main() {
	out := flag.String("o", "", "the file to write (default: standard output)")
	flag.Parse()
	src, err := api.Declaration()
	if err != nil {
		log.Fatal(err)
	}
	if *out == "" {
		_, err = os.Stdout.Write(src)
	} else {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		log.Fatal(err)
	}
}
