package site

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
)

// ServeCommand implements `backfill serve [--dir dist] [--addr 127.0.0.1:8080]`:
// it serves until ctx is done and returns the process exit code (0 after a
// clean shutdown, 1 when serving fails, 2 for bad flags). The URL and one
// line per request go to stdout; errors go to stderr.
func ServeCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "dist", "the built site to serve (./build.sh build writes dist/)")
	addr := fs.String("addr", "127.0.0.1:8080", "listen address; port 0 picks a free port (the URL is printed)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: backfill serve [--dir dist] [--addr 127.0.0.1:8080]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "backfill serve: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if err := ServeContext(ctx, *dir, *addr, stdout); err != nil {
		fmt.Fprintf(stderr, "backfill serve: %v\n", err)
		return 1
	}
	return 0
}
